// @ts-check
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const noElectron = {
  paths: [{ name: 'electron', message: 'The engine, shared code and sandbox run under plain Node: no electron here.' }],
  patterns: [
    { group: ['electron/*'], message: 'No Electron here.' },
    // The Electron glue is the files directly in src/main; the engine lives in src/main/core.
    { regex: '(^|/)main/(?!core(/|$))[^/]+$', message: 'No Electron glue (src/main/*.ts) here: use src/main/core.' },
  ],
};

// A dev dependency is never needed at run time: esbuild bundles the pages at build time (build/page-scripts.mts).
const noBuildTools = { group: ['esbuild', 'esbuild/*'], message: 'esbuild runs at build time only (build/page-scripts.mts).' };
// NATS is spoken in one place, core/hub/nats (the connection, buckets, messages): the store's rules
// ask it for a bucket and never meet the client's managers. Besides it only the chain's keeper, which
// makes the chain's streams and clears their consumers on the hub PC, and the fleet tool (src/fleet).
const NATS_SPEAKERS = ['src/main/core/hub/nats/**', 'src/main/core/hub/chain/keeper.ts'];
const noNats = { group: ['@nats-io/*'], message: 'Only src/main/core/hub/nats (and the chain keeper, src/fleet) import @nats-io: use what core/hub/nats offers.' };

// The engine runs against whatever service it is given; training's sandbox is started by the
// shells (src/main/index.ts, src/web) and handed to the host, as the credential vaults are. The
// core is imported by the CLI, the web harness and the fleet tool, never the other way.
const coreRules = (patterns) => ({
  ...noElectron,
  patterns: [
    ...noElectron.patterns,
    noBuildTools,
    ...patterns,
    {
      regex: '(^|/)sandbox(/.*)?$',
      message: 'No sandbox in the engine: the shells start it and hand it to the host (HostOptions.startTraining).',
    },
    { regex: '(^|/)(fleet|cli|web)(/.*)?$', message: 'The core never imports the fleet tool, the CLI or the web harness: they import it.' },
  ],
});

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'release/**', 'node_modules/**', 'coverage/**', 'test-results/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    // No import cycles anywhere in the product: rooms import one way (docs/architecture.md).
    files: ['src/**/*.{ts,tsx}', 'sandbox/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: { ...importX.flatConfigs.typescript.settings, 'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'tsconfig.json' })] },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['src/shared/**', 'sandbox/**', 'src/cli/**', 'src/web/**'],
    rules: { 'no-restricted-imports': ['error', { ...noElectron, patterns: [...noElectron.patterns, noBuildTools, noNats] }] },
  },
  {
    files: ['src/main/core/**'],
    ignores: NATS_SPEAKERS,
    rules: { 'no-restricted-imports': ['error', coreRules([noNats])] },
  },
  {
    files: NATS_SPEAKERS,
    rules: { 'no-restricted-imports': ['error', coreRules([])] },
  },
  {
    files: ['src/main/*.ts', 'src/preload/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noBuildTools, noNats] }] },
  },
  {
    files: ['src/fleet/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noBuildTools] }] },
  },
  {
    files: ['src/renderer/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'The renderer talks only to the preload API.' }],
          patterns: [
            { group: ['node:*', 'fs', 'path', 'child_process', 'os'], message: 'No Node in the renderer.' },
            { group: ['**/main/**', '**/sandbox/**'], message: 'The renderer talks only to the preload API.' },
            noBuildTools,
            noNats,
          ],
        },
      ],
    },
  },
);
