/**
 * Intake that can pause (issue 23: another counter of the store holds the intake lease): a paused
 * intake asks nothing of the order service, neither polls nor probes; resuming runs a pass soon.
 * Real sandbox over HTTP, real SQLite; the intake's timers are manual, so "nothing happened while
 * paused" is read from what the intake has armed, not from a wait that hopes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { IntakeReader } from '../../../../src/main/core/intake';
import { Cleanup, dataDir, intakeSandbox, nextArmed, terminal } from './helpers';
import { manualTimers } from '../../../support/clock';
import { until } from '../../../support/until';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const INTERVAL_MS = 100;

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
    const m = manualTimers();
    const t = terminal(cleanup, box, dataDir(cleanup), { intervalMs: () => INTERVAL_MS, minIntervalMs: 50, timers: m.timers, wrapReader: counting(calls) });
    t.intake.start();
    m.advance(await nextArmed(m, 'the first pass armed'));
    expect(await nextArmed(m)).toBe(INTERVAL_MS);
    expect(t.intake.status().lastCompleteAt).not.toBeNull();
    t.intake.pause();
    const before = calls.n;
    const reads = box.readLog().length;
    const placed = box.placeOrder();
    // Nothing is armed while paused: eight intervals of the intake's time go by with no pass.
    expect(m.pending()).toEqual([]);
    expect(m.advance(8 * INTERVAL_MS)).toBe(0);
    expect(calls.n).toBe(before);
    expect(box.readLog().length).toBe(reads);
    expect(t.stored).not.toContain(placed.id);
    expect(t.intake.status().nextAt).toBeNull();

    t.intake.resume();
    // Resuming does not wait out an interval: the next pass is due sooner.
    const soon = await nextArmed(m, 'a pass armed on resume');
    expect(soon).toBeLessThan(INTERVAL_MS);
    m.advance(soon);
    await until('the order placed while paused', () => t.stored.includes(placed.id), 5_000);
  });

  it('a pause before start keeps a started intake quiet until it resumes', async () => {
    const box = await intakeSandbox(cleanup);
    const calls = { n: 0 };
    const m = manualTimers();
    const t = terminal(cleanup, box, dataDir(cleanup), { intervalMs: () => INTERVAL_MS, minIntervalMs: 50, timers: m.timers, wrapReader: counting(calls) });
    t.intake.pause();
    t.intake.start();
    expect(m.pending()).toEqual([]);
    expect(m.advance(5 * INTERVAL_MS)).toBe(0);
    expect(calls.n).toBe(0);
    expect(t.intake.status().nextAt).toBeNull();
    t.intake.resume();
    m.advance(await nextArmed(m, 'a pass armed on resume'));
    await until('the first pass', () => t.intake.status().lastCompleteAt !== null, 5_000);
    expect(calls.n).toBeGreaterThan(0);
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
    const m = manualTimers();
    const t = terminal(cleanup, box, dataDir(cleanup), { intervalMs: () => INTERVAL_MS, minIntervalMs: 50, concurrency: 1, timers: m.timers, wrapReader: counting(calls) });
    t.intake.start();
    m.advance(await nextArmed(m, 'the first pass armed'));
    await until('reading bodies', () => box.readLog().some((r) => r.call === 'status'), 5_000);
    t.intake.pause();
    const asked = calls.n;
    // Resuming arms the next pass only once the stopped one has ended: by then it has asked all it ever will.
    t.intake.resume();
    await nextArmed(m, 'the stopped pass ended and the next armed');
    expect(calls.n).toBe(asked);
    expect(t.stored.length).toBeLessThan(30);
  });
});
