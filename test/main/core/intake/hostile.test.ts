/**
 * Intake against a hostile order service (the sandbox's fault switches, over HTTP, a real SQLite
 * file): `status` answers that fail, a rate limit on every `changes` page, a `nextPage` that repeats
 * or never ends. No listed id is ever passed over without being stored.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { BadStatusAnswer } from '../../../../sandbox/types';
import { Cleanup, dataDir, intakeSandbox, terminal, timedPasses } from './helpers';
import { manualTimers } from '../../../support/clock';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

describe('intake never passes an order it has not stored', () => {
  it.each<[BadStatusAnswer, RegExp]>([
    ['cut', /not JSON|could not be read/],
    ['otherView', /could not be read/],
    ['empty', /HTTP 204 without the order/],
    ['notFound', /does not show this order \(yet\)/],
    ['refused', /refused the order status call \(HTTP 400/],
  ])('a %s status answer keeps the id as still to fetch: counted, asked again after a pause, stored once readable', async (answer, said) => {
    const box = await intakeSandbox(cleanup);
    let clock = Date.now();
    const dir = dataDir(cleanup);
    const t = terminal(cleanup, box, dir, { now: () => clock });
    const victim = box.orders()[3]!.id;
    box.faults.set({ badStatus: { answer, count: 1000, orderIds: [victim] } });

    const first = await t.intake.passOnce();
    expect(first).toMatchObject({ kind: 'incomplete', counts: { new: 11, failed: 1 }, stillToFetch: [{ orderId: victim, attempts: 1 }] });
    expect(first.kind === 'incomplete' && first.stillToFetch[0]?.lastError).toMatch(said);
    expect(t.store.orders.get(victim)?.body ?? null).toBeNull();
    // The window was read: the cursor moved, and the id is held in the data file, counted in the status.
    expect(t.store.intake.get().cursorTo).not.toBeNull();
    expect(t.intake.status()).toMatchObject({ stillToFetch: 1, message: expect.stringContaining(victim) });

    // Within its pause it is not asked again, however often passes run.
    await t.intake.passOnce();
    const asked = () => box.readLog().filter((r) => r.call === 'status' && r.orderId === victim).length;
    expect(asked()).toBe(1);

    // A restart keeps it; once the service answers, the next pass after the pause stores it.
    await t.close();
    box.faults.set({ badStatus: { answer: 'none', count: 0, orderIds: [] } });
    clock += 11 * 60_000;
    const again = terminal(cleanup, box, dir, { now: () => clock });
    expect(await again.intake.passOnce()).toMatchObject({ kind: 'completed' });
    expect(again.store.orders.get(victim)?.body?.id).toBe(victim);
    expect(again.intake.status()).toMatchObject({ stillToFetch: 0, message: null });
    expect(asked()).toBe(2);
  });

  it('under a limit of one changes call a second, a window of 40 orders in pages of 5 completes, each page read once', { timeout: 30_000 }, async () => {
    const box = await intakeSandbox(cleanup, { orderCount: 40, changesMaxPageSize: 5 });
    const t = terminal(cleanup, box, dataDir(cleanup), { pageSize: 5 });
    box.faults.set({ changesEveryMs: 1_000 });
    expect(await t.intake.passOnce()).toMatchObject({ kind: 'completed', counts: { new: 40, failed: 0 } });
    expect(t.store.orders.list().filter((o) => o.body !== null)).toHaveLength(40);
    const pages = box.readLog().filter((r) => r.call === 'changes');
    // Each page answered once, in order; the pace kept after the first 429, so at most one more.
    expect(pages.filter((p) => p.status === 200).map((p) => p.offset)).toEqual([0, 5, 10, 15, 20, 25, 30, 35]);
    expect(pages.filter((p) => p.status === 429).length).toBeLessThanOrEqual(2);
  });

  it('a pass stopped by a long Retry-After resumes at the page it stopped at, after a restart too', async () => {
    const box = await intakeSandbox(cleanup, { orderCount: 40, changesMaxPageSize: 5 });
    const dir = dataDir(cleanup);
    const first = terminal(cleanup, box, dir, { pageSize: 5 });
    box.faults.set({ changesEveryMs: 120_000 });
    expect(await first.intake.passOnce()).toMatchObject({ kind: 'unreachable' });
    expect(first.store.intake.get()).toMatchObject({ cursorTo: null, window: { pages: 1 }, stillToFetch: 5 });
    await first.close();

    box.faults.set({ changesEveryMs: 0 });
    const second = terminal(cleanup, box, dir, { pageSize: 5 });
    expect(await second.intake.passOnce()).toMatchObject({ kind: 'completed', counts: { new: 40 } });
    const pages = box.readLog().filter((r) => r.call === 'changes');
    // Then a window from the resumed one's end up to now, from its first page (issue 38).
    expect(pages.map((p) => [p.offset, p.status])).toEqual([[0, 200], [5, 429], [5, 200], [10, 200], [15, 200], [20, 200], [25, 200], [30, 200], [35, 200], [0, 200]]);
  });

  it('a nextPage that never ends: a few pages per pass, said, and no stream of calls', async () => {
    const box = await intakeSandbox(cleanup);
    const m = manualTimers();
    // Jitter fixed at half, so each pause is the backoff's middle: the growth is what is checked.
    const t = terminal(cleanup, box, dataDir(cleanup), { pageSize: 5, intervalMs: () => 10, minIntervalMs: 10, timers: m.timers, random: () => 0.5 });
    box.faults.set({ changesNextPage: 'endless' });
    const report = await t.intake.passOnce();
    expect(report).toMatchObject({ kind: 'unfinished', reason: 'pageCap', message: expect.stringMatching(/has given 20 pages .* and not ended/) });
    expect(box.stats().changesRequests).toBe(20);
    // Every order the pages named still arrived.
    expect(t.store.orders.list().filter((o) => o.body !== null)).toHaveLength(12);
    expect(t.intake.status()).toMatchObject({ condition: 'retrying', message: expect.stringMatching(/not ended/) });

    // Before: thousands of calls in a few seconds. Now 20 pages a pass, and a pause between passes
    // that is never short (not the 10 ms interval) and grows while the pages keep coming.
    t.intake.start();
    const waits = await timedPasses(m, 4);
    await t.intake.stop();
    expect(box.stats().changesRequests).toBe(5 * 20);
    expect(waits).toEqual([...waits].sort((a, b) => a - b));
    expect(new Set(waits).size).toBe(4);
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(1_000);
    expect(t.store.intake.get().windowProblem).toMatch(/not ended/);
    // Pages that bring nothing new are no backlog: said as the fault they are.
    expect(t.intake.status().catchingUp).toBeUndefined();
  });

  it('a backlog of more pages than a pass reads: each pass brings new orders and the next reads on after the same short pause, until all are stored', async () => {
    const box = await intakeSandbox(cleanup, { orderCount: 530, changesMaxPageSize: 5 });
    const m = manualTimers();
    const t = terminal(cleanup, box, dataDir(cleanup), { pageSize: 5, intervalMs: () => 30_000, minIntervalMs: 10, timers: m.timers, random: () => 0.5 });
    // 106 pages, 20 a pass: six passes. The pause grew before (jitter fixed at half: 2 s, 4 s, 8 s, 16 s, and up to 5 min).
    expect(await t.intake.passOnce()).toMatchObject({ kind: 'unfinished', reason: 'pageCap', counts: { new: 100 } });
    // Said as a backlog being read (the sync bar's "Many new orders waiting"), not as a fault.
    expect(t.intake.status()).toMatchObject({ condition: 'retrying', catchingUp: true });
    t.intake.start();
    const waits = await timedPasses(m, 5);
    await t.intake.stop();
    // The same short pause after each pass that brought new orders; the poll interval once the window is complete.
    expect(waits).toEqual([1_000, 1_000, 1_000, 1_000, 30_000]);
    expect(t.store.orders.list().filter((o) => o.body !== null)).toHaveLength(530);
    expect(t.intake.status().catchingUp).toBeUndefined();
    expect(t.intake.status()).toMatchObject({ condition: 'ok', message: null });
  });

  it('a nextPage given before stops the pass at once, is said, and the window is read again from its first page after a pause', async () => {
    const box = await intakeSandbox(cleanup);
    const m = manualTimers();
    const t = terminal(cleanup, box, dataDir(cleanup), { pageSize: 5, intervalMs: () => 10, minIntervalMs: 10, timers: m.timers, random: () => 0.5 });
    box.faults.set({ changesNextPage: 'repeat' });
    expect(await t.intake.passOnce()).toMatchObject({ kind: 'unfinished', reason: 'repeatedPage', message: expect.stringMatching(/a next page it had given before/) });
    expect(box.stats().changesRequests).toBe(2);
    expect(t.store.intake.get()).toMatchObject({ window: null, cursorTo: null, windowProblem: expect.stringMatching(/given before/) });

    // Each pass after a pause asks its two pages again from the first, and the pause grows.
    t.intake.start();
    const waits = await timedPasses(m, 3);
    await t.intake.stop();
    expect(box.stats().changesRequests).toBe(4 * 2);
    expect(waits).toEqual([...waits].sort((a, b) => a - b));
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(1_000);
    expect(box.readLog().filter((r) => r.call === 'changes').map((r) => r.offset)).toEqual([0, 5, 0, 5, 0, 5, 0, 5]);

    box.faults.set({ changesNextPage: 'normal' });
    expect(await t.intake.passOnce()).toMatchObject({ kind: 'completed' });
    expect(t.store.intake.get()).toMatchObject({ windowProblem: null, stillToFetch: 0 });
    expect(t.intake.status().message).toBeNull();
  });
});
