/**
 * Intake that can pause (issue 23: another counter of the store holds the intake lease): a paused
 * intake asks nothing of the order service, neither polls nor probes; resuming runs a pass soon.
 * Real sandbox over HTTP, real SQLite, real timers on a short interval.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { IntakeReader } from '../../../../src/main/core/intake';
import { Cleanup, dataDir, intakeSandbox, terminal } from './helpers';
import { until } from '../../../support/until';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Counts every call intake makes to the service, probes included. */
function counting(calls: { n: number }): (r: IntakeReader) => IntakeReader {
  return (r) => ({
    changes: (req, signal) => ((calls.n += 1), r.changes(req, signal)),
    status: (id, signal) => ((calls.n += 1), r.status(id, signal)),
    probe: (signal) => ((calls.n += 1), r.probe(signal)),
  });
}

describe('intake pause and resume', () => {
  it('asks nothing of the service while paused, and takes in what arrived meanwhile soon after resuming', async () => {
    const box = await intakeSandbox(cleanup);
    const calls = { n: 0 };
    const t = terminal(cleanup, box, dataDir(cleanup), { intervalMs: () => 100, minIntervalMs: 50, wrapReader: counting(calls) });
    t.intake.start();
    await until('the first pass', () => t.intake.status().lastCompleteAt !== null);
    t.intake.pause();
    const before = calls.n;
    const reads = box.readLog().length;
    const placed = box.placeOrder();
    await sleep(800); // eight intervals
    expect(calls.n).toBe(before);
    expect(box.readLog().length).toBe(reads);
    expect(t.stored).not.toContain(placed.id);
    expect(t.intake.status().nextAt).toBeNull();

    const resumedAt = Date.now();
    t.intake.resume();
    await until('the order placed while paused', () => t.stored.includes(placed.id), 3_000);
    expect(Date.now() - resumedAt).toBeLessThan(1_000);
  });

  it('a pause before start keeps a started intake quiet until it resumes', async () => {
    const box = await intakeSandbox(cleanup);
    const calls = { n: 0 };
    const t = terminal(cleanup, box, dataDir(cleanup), { intervalMs: () => 100, minIntervalMs: 50, wrapReader: counting(calls) });
    t.intake.pause();
    t.intake.start();
    await sleep(500);
    expect(calls.n).toBe(0);
    t.intake.resume();
    await until('the first pass', () => t.intake.status().lastCompleteAt !== null, 3_000);
  });

  it('a check asked for while a pass is in flight reads the service again once it ends: an order placed after that pass read its pages arrives', async () => {
    const box = await intakeSandbox(cleanup, { orderCount: 8 });
    box.faults.set({ latencyMs: 150 });
    const t = terminal(cleanup, box, dataDir(cleanup), { concurrency: 1 });
    const first = t.intake.passOnce();
    // The first pass has read its pages and is fetching bodies, one at a time.
    await until('reading bodies', () => box.readLog().some((r) => r.call === 'status'), 5_000);
    const placed = box.placeOrder();
    const checked = await t.intake.passOnce();
    expect((await first).kind).toBe('completed');
    expect(checked.kind).toBe('completed');
    expect(t.stored).toContain(placed.id);
  });

  it('a pause aborts a pass in flight: no read leaves after it', async () => {
    const box = await intakeSandbox(cleanup, { orderCount: 30 });
    box.faults.set({ latencyMs: 150 });
    const calls = { n: 0 };
    const t = terminal(cleanup, box, dataDir(cleanup), { intervalMs: () => 100, minIntervalMs: 50, concurrency: 1, wrapReader: counting(calls) });
    t.intake.start();
    await until('reading bodies', () => box.readLog().some((r) => r.call === 'status'), 3_000);
    t.intake.pause();
    const asked = calls.n;
    await sleep(700);
    expect(calls.n).toBe(asked);
    expect(t.stored.length).toBeLessThan(30);
  });
});
