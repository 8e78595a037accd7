// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const noElectron = {
  paths: [{ name: 'electron', message: 'The engine, shared code and sandbox run under plain Node: no electron here.' }],
  patterns: [
    { group: ['electron/*'], message: 'No Electron here.' },
    // The Electron glue is the files directly in src/main; the engine lives in src/main/core.
    { regex: '(^|/)main/(?!core(/|$))[^/]+$', message: 'No Electron glue (src/main/*.ts) here: use src/main/core.' },
  ],
};

// The engine runs against whatever service it is given; training's sandbox is started by the
// shells (src/main/index.ts, src/web) and handed to the host, as the credential vaults are.
const noSandboxInCore = {
  ...noElectron,
  patterns: [
    ...noElectron.patterns,
    {
      regex: '(^|/)sandbox(/.*)?$',
      message: 'No sandbox in the engine: the shells start it and hand it to the host (HostOptions.startTraining).',
    },
  ],
};

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
    files: ['src/main/core/**', 'src/shared/**', 'sandbox/**', 'src/cli/**', 'src/web/**'],
    rules: { 'no-restricted-imports': ['error', noElectron] },
  },
  {
    files: ['src/main/core/**'],
    rules: { 'no-restricted-imports': ['error', noSandboxInCore] },
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
          ],
        },
      ],
    },
  },
);
