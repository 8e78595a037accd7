/**
 * The page-side scripts the product serves but does not run itself, bundled at build time with
 * esbuild (a build tool, never needed when Packdesk runs): the browser harness's bridge (a classic
 * script the page's parser runs before the renderer's module) and the contract it checks every
 * frame with (an ES module), into out/web/; the fleet page's script into out/fleet/. Part of
 * `npm run build`; `npm run fleet` runs it for the fleet page alone (`fleet` argument).
 * Run: tsx build/page-scripts.mts [web|fleet]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { build, type Plugin } from 'esbuild';

const root = resolve(import.meta.dirname, '..');

/**
 * `import { z } from 'zod'` is a namespace object, and esbuild keeps all of it, including
 * `z.locales`: every language's messages, 300 of the contract's 472 kB. The contract speaks English
 * (the renderer words problems itself), which zod sets up from its `en` module anyway; `z.locales`
 * becomes that alone. (Rolldown, which bundles the preload, drops the unused locales by itself.)
 */
const zodEnglishOnly: Plugin = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${sep}node_modules${sep}zod${sep}`) ? { path: join(dirname(args.importer), '..', 'locales', 'en.js') } : undefined,
    );
  },
};

async function bundle(entry: string, out: string, format: 'iife' | 'esm', plugins: Plugin[] = []): Promise<void> {
  const result = await build({
    entryPoints: [resolve(root, entry)],
    bundle: true,
    format,
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
    plugins,
  });
  const file = result.outputFiles[0];
  if (!file) throw new Error(`esbuild produced no output for ${entry}`);
  mkdirSync(dirname(resolve(root, out)), { recursive: true });
  writeFileSync(resolve(root, out), file.text);
}

const only = process.argv[2];
if (!only || only === 'web') {
  await bundle('src/web/bridge.ts', 'out/web/bridge.js', 'iife', [zodEnglishOnly]);
  await bundle('src/web/contract.ts', 'out/web/contract.js', 'esm', [zodEnglishOnly]);
}
if (!only || only === 'fleet') await bundle('src/fleet/page/main.ts', 'out/fleet/fleet.js', 'iife');
