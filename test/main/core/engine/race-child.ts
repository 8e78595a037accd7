/**
 * A child for the multi-process tests: waits for a shared start time (so several children really
 * race), then on RACE_DATA_DIR either queues one tap (`enqueue`, the first-migration race) or starts
 * an engine and says whether it became the sender (`sender`, held for RACE_HOLD_MS; `die` holds it
 * until killed). Prints one line: `ok`, `refused: …`, `sender`, `not-sender`.
 */
import { createEngine } from '../../../../src/main/core/engine';
import type { UpdateSender } from '../../../../src/main/core/api';

const env = process.env;
const mode = env.RACE_MODE ?? '';
const dataDir = env.RACE_DATA_DIR ?? '';
const startAt = Number(env.RACE_START_AT ?? 0);
const holdMs = Number(env.RACE_HOLD_MS ?? 500);

// Never called: these children queue taps or take the lock, they send nothing.
const idle: UpdateSender = {
  update: () => new Promise(() => undefined),
  probe: () => Promise.resolve(false),
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  while (Date.now() < startAt) await sleep(Math.min(5, startAt - Date.now()));
  const engine = createEngine({ dataDir, sender: idle, terminalId: `race-${process.pid}`, undoWindowMs: 0, pollMs: 60_000 });
  if (mode === 'enqueue') {
    const r = engine.submitTap(env.RACE_ORDER ?? 'ORD-RACE', { kind: 'orderState', state: 'ACCEPTED' });
    process.stdout.write(r.ok ? 'ok\n' : `refused: ${r.problem.message}\n`);
    await engine.stop();
    return;
  }
  engine.start();
  const sender = !/Another Packdesk/.test(engine.status().message ?? '');
  process.stdout.write(sender ? 'sender\n' : 'not-sender\n');
  if (mode === 'die') await new Promise(() => undefined);
  await sleep(holdMs);
  await engine.stop();
}

main().catch((error: unknown) => {
  process.stdout.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
