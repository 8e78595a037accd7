/** Builds the page-side bridge (bridge.ts plus the shared IPC contract and zod) into one classic script. */
import { join } from 'node:path';

let cached: Promise<string> | null = null;

/** The bridge script's text; built once per process with esbuild (a dependency of tsx and vite). */
export function bridgeScript(): Promise<string> {
  cached ??= build().catch((err: unknown) => {
    cached = null;
    throw err;
  });
  return cached;
}

async function build(): Promise<string> {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: [join(__dirname, 'bridge.ts')],
    bundle: true,
    // A classic (non-module) script: it runs while the page is parsed, before the renderer's
    // module script (deferred by nature).
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
  });
  const file = result.outputFiles[0];
  if (!file) throw new Error('esbuild produced no output for the bridge');
  return file.text;
}
