import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The suite in three tiers (README, "Tests"): `npm test` runs all three; `npm run test:unit`,
 * `test:integration` and `test:e2e` run one.
 *
 * - unit: pure code in memory. No server, browser, child process, keychain, nats-server, temporary
 *   folder or SQLite file: test/support/unit-guard.ts fails a unit test that reaches for one, so a
 *   file that grows a real part moves to `integration` here.
 * - e2e: Debian's Chromium (test/e2e and the few web and fleet files that drive the page).
 * - integration: everything else: SQLite files on disk, nats-server, the keychain, child
 *   processes, the sandbox over HTTP, the built app in out/. A new test file lands here unless it
 *   is listed below, so nothing is left out of `npm test`.
 */
const UNIT = [
  'test/renderer/**/*.test.ts',
  'test/shared/*.test.ts',
  'test/shared/orders/summary.test.ts',
  'test/main/core/time/*.test.ts',
  'test/main/core/update/*.test.ts',
  'test/main/{attention,ipc,printing,security,updater,window}.test.ts',
  'test/preload/preload.test.ts',
  'test/main/core/api/{classify,retry-after}.test.ts',
  'test/main/core/auth/{expiry,vaults}.test.ts',
  'test/main/core/host/{dispatch,queue-rows,heap-trim}.test.ts',
  'test/main/core/engine/status.test.ts',
  'test/main/core/hub/{apart,read-status,views,words}.test.ts',
  'test/main/core/outbox/{projection,tap-reads-kept}.test.ts',
  'test/fleet/{belief,chain-words,store-summary}.test.ts',
];

const E2E = [
  'test/e2e/**/*.test.ts',
  'test/web/{bridge,first-screen,harness,reconnect}.test.ts',
  'test/fleet/{page-input,serve}.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Tests start real servers and real SQLite files; two cores, so keep the fan-out modest.
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: UNIT, setupFiles: ['test/support/unit-guard.ts'] },
      },
      {
        extends: true,
        test: { name: 'integration', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...UNIT, ...E2E] },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: E2E,
          // Prints the Chromium version first (a browser update is the likeliest cause of a new e2e
          // failure) and starts the one browser every e2e file connects to (test/support/chromium.ts).
          globalSetup: ['test/support/global-setup.ts'],
          // What a page shows after a click goes through IPC, the host and a render: vitest's own
          // 1 s for expect.poll was too short on a loaded machine (updates.test.ts read the panel's
          // old words 1 s after "Install update now"). Playwright's own assertions wait 5 s.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
