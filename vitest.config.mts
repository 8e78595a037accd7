import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Prints the Chromium version first: a browser update is the likeliest cause of a new e2e failure.
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Tests start real servers and real SQLite files; two cores, so keep the fan-out modest.
    pool: 'forks',
    maxWorkers: 2,
  },
});
