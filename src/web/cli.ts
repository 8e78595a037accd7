/**
 * `npm run web`: the app in a browser, in training mode, for demos and end-to-end tests.
 *   node --import tsx src/web/cli.ts [--data-dir DIR] [--port N]
 * (node itself, not the tsx command: tsx relays a signal to its child and kills it when the
 * child has not answered within 30 ms, which a busy start, such as intake's first pass, can miss)
 * Prints `Packdesk (training) at <url>` (the URL carries this run's token) and stops cleanly on
 * SIGINT/SIGTERM.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startWebHarness } from './index';

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

const USAGE = 'usage: npm run web -- [--data-dir DIR] [--port N]';

async function main(): Promise<number> {
  let values: { 'data-dir'?: string; port?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: { 'data-dir': { type: 'string' }, port: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
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

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`Packdesk stopped unexpectedly: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
