/**
 * Done-when: a child process enqueues and drains against the sandbox while this test kills it with
 * SIGKILL at random moments (>= 100 times), with outages switched on and off. At the end the
 * sandbox's applied log holds every enqueued action exactly once, in tap order per order.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openStore } from '../../src/main/core/db';
import type { Faults } from '../../sandbox';
import { bundle } from '../support/bundle';
import { REPO_ROOT } from '../support/paths';
import { Cleanup, newDeliveryOrderIds, sandbox, tempDir } from '../support/engine';
import { mulberry32 } from '../../sandbox/prng';

const cleanup = new Cleanup();
afterAll(async () => {
  // Children still running are killed first, even when the test ended by timing out.
  for (const child of running) child.kill('SIGKILL');
  await cleanup.run();
});

const KILLS = 110;
const ORDERS = 16;

interface Child {
  readonly ready: Promise<boolean>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
  kill(): void;
}

/** Children not yet ended. */
const running = new Set<ReturnType<typeof spawn>>();

function startChild(script: string, env: Record<string, string>): Child {
  const child = spawn(process.execPath, [script], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH, NODE_PATH: path.join(REPO_ROOT, 'node_modules'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let stdout = '';
  let stderr = '';
  let markReady: (ready: boolean) => void = () => undefined;
  const ready = new Promise<boolean>((resolve) => (markReady = resolve));
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    if (stdout.includes('ready\n')) markReady(true);
  });
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  // 'close' comes after the process is reaped, so its pid cannot look alive to the next child's lock check.
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code, signal) => {
      running.delete(child);
      markReady(false);
      resolve({ code, signal, stdout, stderr });
    }),
  );
  return { ready, exited, kill: () => child.kill('SIGKILL') };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Two services: one that recognises a repeated requestId (half the processes check before
 * resending, half resend blindly), and one that does not (nothing says the real one does), where
 * every process checks with `status` before resending and the plan also cuts units.
 */
const VARIANTS = [
  { name: 'a de-duplicating service', dedupe: true, kills: KILLS, unitCuts: false },
  { name: 'a service that does not de-duplicate, with unit cuts', dedupe: false, kills: 60, unitCuts: true },
] as const;

it.each(VARIANTS)('$name: survives $kills SIGKILLs with outages on and off; every tap applied exactly once, in order', { timeout: 170_000 }, async (variant) => {
  const seed = Number(process.env.CRASH_SEED ?? Date.now() % 100_000);
  const random = mulberry32(seed);
  const box = await sandbox(cleanup, { orderCount: 80, seed: 7 });
  box.faults.set({ dedupe: variant.dedupe });
  const KILLS = variant.kills;
  const dataDir = tempDir(cleanup, 'packdesk-crash-');
  const script = bundle('test/crash/child.ts', path.join(tempDir(cleanup, 'packdesk-crash-bin-'), 'child.cjs'));
  const orders = newDeliveryOrderIds(box).slice(0, ORDERS);
  expect(orders).toHaveLength(ORDERS);
  const env = { CRASH_URL: box.url, CRASH_DATA_DIR: dataDir, CRASH_ORDERS: orders.join(','), CRASH_UNIT_CUTS: variant.unitCuts ? '1' : '0' };

  const outages: Faults['outage'][] = ['none', 'none', 'refuse', 'reset', 'hang'];
  let kills = 0;
  let finishedEarly = 0;
  for (let run = 0; kills < KILLS; run++) {
    box.faults.set({
      outage: outages[Math.floor(random() * outages.length)]!,
      latencyMs: Math.floor(random() * 40),
      errorRate: random() < 0.3 ? 0.3 : 0,
    });
    // Half the processes check before resending, half resend blindly: both lifecycles meet the same file.
    const child = startChild(script, { ...env, CRASH_STATUS_CHECK: !variant.dedupe || random() < 0.5 ? '1' : '0' });
    // Most kills land after the engine is open (sending, committing); some during start-up.
    const early = random() < 0.15;
    if (!early) await Promise.race([child.ready, sleep(5000)]);
    await sleep(Math.floor(random() * (early ? 120 : 200)));
    // Switch the outage while the child runs, now and then.
    if (random() < 0.3) box.faults.set({ outage: random() < 0.5 ? 'none' : 'reset' });
    await sleep(Math.floor(random() * 40));
    child.kill();
    const end = await child.exited;
    if (end.signal === 'SIGKILL') kills++;
    else {
      finishedEarly++;
      expect(end.stderr, `child ended by itself (seed ${seed})`).toBe('');
    }
  }

  // No more faults: let it finish.
  box.faults.reset();
  box.faults.set({ dedupe: variant.dedupe });
  let done = false;
  for (let attempt = 0; attempt < 5 && !done; attempt++) {
    const last = startChild(script, { ...env, CRASH_STATUS_CHECK: '1' });
    const end = await last.exited;
    expect(end.stderr, `final child (seed ${seed})`).toBe('');
    done = end.code === 0 && end.stdout.includes('done');
  }
  expect(done, `the plan completes after the kills (seed ${seed})`).toBe(true);

  const opened = openStore({ dataDir, now: Date.now });
  if (!opened.ok) throw new Error(opened.problem.message);
  const store = opened.value;
  const entries = store.outbox.recent(1_000_000);
  const recovered = store.audit.recent(1_000_000).filter((a) => a.kind === 'recover').length;
  const confirmed = store.audit.recent(1_000_000).filter((a) => a.outcome === 'confirmed').length;
  store.close();
  const applied = box.appliedLog();

  // Every enqueued action: exactly once in the applied log, with the same action.
  expect(entries.every((e) => e.state === 'sent')).toBe(true);
  const appliedById = new Map<string, number>();
  for (const a of applied) appliedById.set(a.requestId, (appliedById.get(a.requestId) ?? 0) + 1);
  const twice = [...appliedById].filter(([, n]) => n > 1);
  expect(twice, `applied twice (seed ${seed})`).toEqual([]);
  expect(new Set(applied.map((a) => a.requestId))).toEqual(new Set(entries.map((e) => e.requestId)));
  for (const e of entries) expect(applied.find((a) => a.requestId === e.requestId)?.action).toEqual(e.action);
  // In tap order per order.
  for (const id of orders) {
    const tapped = entries.filter((e) => e.orderId === id).sort((a, b) => a.seq - b.seq).map((e) => e.requestId);
    expect(applied.filter((a) => a.orderId === id).map((a) => a.requestId)).toEqual(tapped);
    expect(box.order(id)?.orderState).toBe('Completed');
  }
  const cuts = entries.filter((e) => e.action.type === 'ITEM_UNIT_UPDATE').length;
  if (variant.unitCuts) expect(cuts, `unit cuts (seed ${seed})`).toBeGreaterThan(0);
  expect(entries.length).toBe(ORDERS * 6 + cuts);
  // Kills really landed mid-send: entries were found in `sending` at a restart and sent again.
  expect(recovered, `entries recovered from sending (seed ${seed})`).toBeGreaterThan(0);
  const duplicates = box.requestLog().filter((r) => r.duplicate).length;
  console.log(`crash test (${variant.name}) seed ${seed}: ${kills} kills, ${cuts} unit cuts, ${finishedEarly} early exits, ${entries.length} taps, ${recovered} recovered from sending, ${confirmed} confirmed by status check, ${duplicates} resends de-duplicated`);
});
