/**
 * A pass that resumes a window a stopped pass left reads on up to now before it calls itself
 * complete (issue 38): the orders placed while the service was down or limiting the terminal
 * arrive in that pass, not the next one. Against the sandbox over HTTP, a real SQLite file.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Cleanup, dataDir, intakeSandbox, terminal } from './helpers';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

describe('a resumed intake pass reads up to now', () => {
  it('the service down mid-pass, 7 orders placed, the service back: the next pass stores all 7', async () => {
    const box = await intakeSandbox(cleanup, { orderCount: 5 });
    const t = terminal(cleanup, box, dataDir(cleanup));
    expect(await t.intake.passOnce()).toMatchObject({ kind: 'completed', counts: { new: 5 } });

    await new Promise((resolve) => setTimeout(resolve, 20));
    box.faults.set({ outage: 'refuse' });
    expect(await t.intake.passOnce()).toMatchObject({ kind: 'unreachable' });
    // The stopped pass left its window behind, ending at the time it ran.
    const left = t.store.intake.get().window;
    expect(left).not.toBeNull();

    await new Promise((resolve) => setTimeout(resolve, 20));
    const placed = Array.from({ length: 7 }, () => box.placeOrder().id);
    box.faults.set({ outage: 'none' });
    expect(await t.intake.passOnce()).toMatchObject({ kind: 'completed', counts: { new: 7 } });
    for (const id of placed) expect(t.store.orders.get(id)?.body?.id).toBe(id);
    expect(t.store.intake.get().cursorTo).toBeGreaterThan(left!.to);
  });

  it('a pass stopped by a long Retry-After after page 1, two orders placed: the resumed pass, paced by the limit, reads them too', { timeout: 30_000 }, async () => {
    const box = await intakeSandbox(cleanup, { orderCount: 12, changesMaxPageSize: 5 });
    const t = terminal(cleanup, box, dataDir(cleanup), { pageSize: 5 });
    box.faults.set({ changesEveryMs: 120_000 });
    expect(await t.intake.passOnce()).toMatchObject({ kind: 'unreachable' });
    expect(t.store.intake.get()).toMatchObject({ cursorTo: null, window: { pages: 1 } });

    await new Promise((resolve) => setTimeout(resolve, 20));
    const placed = [box.placeOrder().id, box.placeOrder().id];
    // One changes call a second from now on: each page waits out its 429.
    box.faults.set({ changesEveryMs: 1_000 });
    expect(await t.intake.passOnce()).toMatchObject({ kind: 'completed', counts: { new: 14, failed: 0 } });
    for (const id of placed) expect(t.store.orders.get(id)?.body?.id).toBe(id);
    const pages = box.readLog().filter((r) => r.call === 'changes' && r.status === 200);
    // The old window from page 2 on (offsets 5, 10), then a window from its end to now from page 1.
    expect(pages.map((p) => p.offset)).toEqual([0, 5, 10, 0]);
  });
});
