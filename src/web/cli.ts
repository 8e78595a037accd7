/**
 * `npm run web`: the app in a browser, in training mode, for demos and end-to-end tests.
 *   node --import tsx src/web/cli.ts [--data-dir DIR] [--port N] [--counters N]
 * With --counters N (2 to 8): a training store of N counters on this PC, the first the store hub,
 * each on its own address (open each in its own browser window or tab).
 * (node itself, not the tsx command: tsx relays a signal to its child and kills it when the
 * child has not answered within 30 ms, which a busy start, such as intake's first pass, can miss)
 * Prints `Packdesk (training) at <url>` (the URL carries this run's token) and stops cleanly on
 * SIGINT/SIGTERM.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startWebHarness } from './index';
import { startTrainingStore } from './store';

/** The per-user data folder the desktop app would use on this OS, with a folder of the harness's own. */
function defaultDataDir(): string {
  const base =
    process.platform === 'win32'
      ? (process.env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'))
      : process.platform === 'darwin'
        ? join(homedir(), 'Library', 'Application Support')
        : (process.env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'));
  return join(base, 'Packdesk', 'web-harness');
}

const USAGE = 'usage: npm run web -- [--data-dir DIR] [--port N] [--counters N]';

async function main(): Promise<number> {
  let values: { 'data-dir'?: string; port?: string; counters?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: { 'data-dir': { type: 'string' }, port: { type: 'string' }, counters: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }));
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    console.error(`--port must be a number from 0 to 65535\n${USAGE}`);
    return 2;
  }
  const dataDir = values['data-dir'] ?? defaultDataDir();
  if (values.counters !== undefined && values.counters !== '1') return runStore(values.counters, dataDir);
  let harness;
  try {
    harness = await startWebHarness({ dataDir, port, host: { settingsOverride: { environment: 'training' } } });
  } catch (err) {
    console.error(`Packdesk could not start: ${(err as Error).message}`);
    return 1;
  }
  console.log(`Packdesk (training) at ${harness.url}`);
  console.log(`Data folder: ${dataDir}; logs in ${harness.host.logDir}`);
  await new Promise<void>((resolve) => {
    const stop = (): void => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await harness.close();
  return 0;
}

/** `--counters N`: a training store of N counters on this PC, one address each. */
async function runStore(text: string, dataDir: string): Promise<number> {
  const counters = Number(text);
  if (!Number.isInteger(counters) || counters < 2 || counters > 8) {
    console.error(`--counters must be a number from 2 to 8\n${USAGE}`);
    return 2;
  }
  let store;
  try {
    store = await startTrainingStore({ counters, dataDir: join(dataDir, 'store') });
  } catch (err) {
    console.error(`Packdesk could not start the training store: ${(err as Error).message}`);
    return 1;
  }
  console.log(`Packdesk training store: ${counters} counters on one practice order service, Counter 1 is the store hub.`);
  store.counters.forEach((c, i) => console.log(`Counter ${i + 1} at ${c.url}`));
  console.log(`Join code: ${store.joinCode}`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  await store.close();
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`Packdesk stopped unexpectedly: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
