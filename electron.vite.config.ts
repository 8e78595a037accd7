/**
 * Build of the three Electron parts into out/: main (Node, CJS), preload (sandboxed, so one
 * self-contained CJS file that requires nothing but 'electron'), renderer (React, plain web).
 */
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';

const root = __dirname;

/**
 * `npm run dev` only: Vite's dev server injects an inline React Refresh preamble and talks HMR
 * over a WebSocket, which the page's strict CSP would block. Built output keeps the policy as
 * written (test/main/renderer-build.test.ts checks it).
 */
function devServerCsp(): Plugin {
  return {
    name: 'packdesk-dev-server-csp',
    apply: 'serve',
    transformIndexHtml: (html) =>
      html.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'").replace("connect-src 'self'", "connect-src 'self' ws://localhost:* http://localhost:*"),
  };
}

/**
 * Build only: `<link rel="preload">` for the shipped script fonts (the .woff2 files), so the page
 * asks for them while it parses its HTML. Otherwise the first request for them leaves when the
 * app's script has run, beside the first commands, and in the browser harness they are served
 * only after the host has answered orders.list; the first words wait for the fonts (no boxes).
 * Same origin, so the CSP's font-src 'self' is unchanged; `crossorigin` because fonts are always
 * fetched in CORS mode and a preload without it would not be used.
 */
function preloadScriptFonts(): Plugin {
  let base = './';
  return {
    name: 'packdesk-preload-script-fonts',
    apply: 'build',
    configResolved: (config) => {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler: (_html, ctx) =>
        Object.keys(ctx.bundle ?? {})
          .filter((file) => file.endsWith('.woff2'))
          .sort()
          .map((file) => ({
            tag: 'link',
            // The host's drawing drops them when its words need no shipped font (core/ui/firstScreen.ts).
            attrs: { rel: 'preload', href: `${base}${file}`, as: 'font', type: 'font/woff2', crossorigin: '' },
            injectTo: 'head' as const,
          })),
    },
  };
}

export default defineConfig({
  main: {
    build: {
      outDir: resolve(root, 'out/main'),
      lib: { entry: resolve(root, 'src/main/index.ts'), formats: ['cjs'] },
      // Runtime dependencies stay in node_modules (inside the asar): the native modules
      // better-sqlite3 and keytar must, since they are rebuilt for Electron's ABI at packaging;
      // electron-updater and zod simply need no bundling.
      externalizeDeps: { include: ['better-sqlite3', 'keytar', 'electron-updater'] },
      // keytar is loaded lazily with import(); as require() it goes through Electron's CJS loader,
      // which knows how to find the native module unpacked next to the asar.
      rolldownOptions: { output: { dynamicImportInCjs: false } },
      sourcemap: false,
    },
  },
  preload: {
    build: {
      outDir: resolve(root, 'out/preload'),
      lib: { entry: resolve(root, 'src/preload/index.ts'), formats: ['cjs'] },
      // A sandboxed preload cannot require() packages, so zod and the contract are bundled in.
      externalizeDeps: false,
      rolldownOptions: { output: { codeSplitting: false } },
      sourcemap: false,
    },
  },
  renderer: {
    root: resolve(root, 'src/renderer'),
    plugins: [react(), devServerCsp(), preloadScriptFonts()],
    build: {
      outDir: resolve(root, 'out/renderer'),
      rolldownOptions: { input: resolve(root, 'src/renderer/index.html') },
      // Source maps would ship the UI source inside the installer for no benefit on a terminal.
      sourcemap: false,
      // Minified: the page parses and compiles its script before the first screen, and half the
      // bytes are half that work (1,069 kB unminified).
      minify: true,
    },
  },
});
