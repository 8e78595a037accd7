/**
 * The page side of the harness, bundled at build time (build/page-scripts.mts, part of `npm run
 * build`) into out/web/: the bridge (bridge.ts, a classic script the page's parser runs before the
 * renderer's module) and the contract it checks every frame with (contract.ts: the shared IPC
 * contract and zod, an ES module the bridge imports). Apart, the bridge the parser waits for is a
 * few kilobytes, and the contract's 200 kB are fetched and compiled off the page's thread meanwhile.
 * Read once per process; no build tool runs when the harness does.
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/** Where `npm run build` puts the page-side scripts of this checkout. */
export const WEB_SCRIPTS_DIR = resolve(__dirname, '..', '..', 'out', 'web');

let cachedBridge: Promise<string> | null = null;
let cachedContract: Promise<string> | null = null;

/** The bridge script's text. */
export function bridgeScript(): Promise<string> {
  cachedBridge ??= read('bridge.js').catch((err: unknown) => {
    cachedBridge = null;
    throw err;
  });
  return cachedBridge;
}

/** The contract module's text (an ES module exporting ./contract's names). */
export function contractScript(): Promise<string> {
  cachedContract ??= read('contract.js').catch((err: unknown) => {
    cachedContract = null;
    throw err;
  });
  return cachedContract;
}

async function read(file: string): Promise<string> {
  try {
    return await readFile(join(WEB_SCRIPTS_DIR, file), 'utf8');
  } catch {
    throw new Error(`The harness's page scripts are not built (${join(WEB_SCRIPTS_DIR, file)} is missing): run \`npm run build\` first.`);
  }
}
