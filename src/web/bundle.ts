/**
 * Builds the page side of the harness: the bridge (bridge.ts, a classic script the page's parser
 * runs before the renderer's module) and the contract it checks every frame with (contract.ts:
 * the shared IPC contract and zod, an ES module the bridge imports). Apart, the bridge the parser
 * waits for is a few kilobytes, and the contract's 200 kB are fetched and compiled off the page's
 * thread meanwhile.
 */
import { dirname, join, sep } from 'node:path';
import type { Plugin } from 'esbuild';

let cachedBridge: Promise<string> | null = null;
let cachedContract: Promise<string> | null = null;

/** The bridge script's text; built once per process with esbuild (a dependency of tsx and vite). */
export function bridgeScript(): Promise<string> {
  cachedBridge ??= build('bridge.ts', 'iife').catch((err: unknown) => {
    cachedBridge = null;
    throw err;
  });
  return cachedBridge;
}

/** The contract module's text (an ES module exporting ./contract's names); built once per process. */
export function contractScript(): Promise<string> {
  cachedContract ??= build('contract.ts', 'esm').catch((err: unknown) => {
    cachedContract = null;
    throw err;
  });
  return cachedContract;
}

async function build(entry: string, format: 'iife' | 'esm'): Promise<string> {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: [join(__dirname, entry)],
    bundle: true,
    // The bridge is a classic (non-module) script: it runs while the page is parsed, before the
    // renderer's module script (deferred by nature). The contract is imported as a module.
    format,
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
    plugins: [zodEnglishOnly],
  });
  const file = result.outputFiles[0];
  if (!file) throw new Error(`esbuild produced no output for ${entry}`);
  return file.text;
}

/**
 * `import { z } from 'zod'` is a namespace object, and esbuild keeps all of it, including
 * `z.locales`: every language's messages, 300 of the contract's 472 kB. The contract speaks English (the renderer words problems itself),
 * which zod sets up from its `en` module anyway; `z.locales` becomes that alone. (Rolldown, which
 * bundles the preload, drops the unused locales by itself.)
 */
const zodEnglishOnly: Plugin = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${sep}node_modules${sep}zod${sep}`) ? { path: join(dirname(args.importer), '..', 'locales', 'en.js') } : undefined,
    );
  },
};
