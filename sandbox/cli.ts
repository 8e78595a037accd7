/**
 * Runs the sandbox order service from a shell: `npm run sandbox -- --port 0`.
 * The first line of stdout is `listening on http://127.0.0.1:PORT` (scripts wait for it), the
 * second `admin on http://127.0.0.1:PORT`; log lines go to stderr as JSON.
 */
import { createLogger, secrets, stderrSink } from '../src/main/core/log';
import { parseFlags, USAGE } from './flags';
import { startSandbox } from './server';
import type { Sandbox } from './types';

async function main(): Promise<void> {
  const parsed = parseFlags(process.argv.slice(2));
  if (!parsed.ok) {
    process.stderr.write(`sandbox: ${parsed.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (parsed.help) {
    process.stdout.write(USAGE);
    return;
  }
  // The secret may come from a flag; make sure no log line can ever carry it.
  secrets.add(parsed.options.clientSecret ?? 'training-secret');
  const log = createLogger([stderrSink]);

  // Handlers go in before anything is printed: a script that reads the first line and signals at
  // once must never meet the default disposition (killed by the signal, no clean exit).
  let sandbox: Sandbox | undefined = undefined;
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    if (!sandbox) return; // still starting: main() closes it as soon as it is up
    sandbox.close().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error('could not stop cleanly', { error });
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);

  sandbox = await startSandbox({ ...parsed.options, log });
  if (stopping) {
    await sandbox.close();
    process.exit(0);
  }
  if (parsed.latencyMs > 0) sandbox.faults.set({ latencyMs: parsed.latencyMs });
  process.stdout.write(`listening on ${sandbox.url}\nadmin on ${sandbox.adminUrl}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`sandbox: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
