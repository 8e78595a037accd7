/**
 * The first screen's server build (src/renderer/src/firstScreen/render.tsx): the renderer's own
 * components, stores and words as one self-contained CommonJS file, out/first-screen/render.cjs,
 * which the host (Electron's main process and the browser harness) loads to draw the queue into the
 * page's HTML. Everything is bundled in (React, i18next, the words): a packaged app has no
 * devDependencies in its node_modules. Part of `npm run build`, after electron-vite's three parts.
 */
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = resolve(import.meta.dirname, '..');

export default defineConfig({
  root: resolve(root, 'src/renderer'),
  plugins: [react()],
  logLevel: 'warn',
  // zustand's hook draws a server render from each store's initial state; see serverStore.ts.
  resolve: { alias: [{ find: /^zustand$/, replacement: resolve(root, 'src/renderer/src/firstScreen/serverStore.ts') }] },
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  ssr: { noExternal: true, target: 'node' },
  build: {
    ssr: resolve(root, 'src/renderer/src/firstScreen/render.tsx'),
    outDir: resolve(root, 'out/first-screen'),
    emptyOutDir: true,
    sourcemap: false,
    minify: false,
    rolldownOptions: { output: { format: 'cjs', entryFileNames: 'render.cjs', codeSplitting: false } },
  },
});
