/** Builds the page-side bridge (bridge.ts plus the shared IPC contract and zod) into one classic script. */
import { dirname, join, sep } from 'node:path';
import type { Plugin } from 'esbuild';

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
    plugins: [zodEnglishOnly],
  });
  const file = result.outputFiles[0];
  if (!file) throw new Error('esbuild produced no output for the bridge');
  return file.text;
}

/**
 * `import { z } from 'zod'` is a namespace object, and esbuild keeps all of it, including
 * `z.locales`: every language's messages, 300 of the bridge's 472 kB, parsed and compiled before
 * the page's own script may run. The contract speaks English (the renderer words problems itself),
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
