/** Order intake against the sandbox over HTTP: every rule of decisions.md's intake section. */
import { afterEach, describe, expect, it } from 'vitest';
import { type IntakeReader, OUTBOX_WAIT_MS } from '../../../../src/main/core/intake';
import type { Timers } from '../../../../src/main/core/time';
import { manualTimers } from '../../../support/clock';
import { Cleanup, dataDir, intakeSandbox, terminal } from './helpers';
import { until } from '../../../support/until';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

describe('order intake', () => {
  it('brings every seeded order in with its items and its state at the service', async () => {
    const box = await intakeSandbox(cleanup);
    const t = terminal(cleanup, box, dataDir(cleanup));
    const report = await t.intake.passOnce();
    expect(report).toEqual({ kind: 'completed', counts: { new: 12, updated: 0, unchanged: 0, failed: 0, unreadable: 0 } });
    for (const order of box.orders()) {
      const row = t.store.orders.get(order.id);
      expect(row?.body?.orderState).toBe(order.orderState);
      expect(row?.body?.items.length).toBe(order.items.length);
    }
    expect(t.store.intake.get().cursorTo).not.toBeNull();
    // A second pass sees the overlap again: harmless, nothing changes.
    expect(await t.intake.passOnce()).toMatchObject({ kind: 'completed', counts: { new: 0, updated: 0 } });
  });

  it('takes in orders placed while the terminal was offline, once it is back; the cursor waits meanwhile', async () => {
    const box = await intakeSandbox(cleanup);
    const t = terminal(cleanup, box, dataDir(cleanup));
    await t.intake.passOnce();
    const cursor = t.store.intake.get().cursorTo;
    box.faults.set({ outage: 'refuse' });
    const placed = [box.placeOrder(), box.placeOrder(), box.placeOrder()];
    const offline = await t.intake.passOnce();
    expect(offline.kind).toBe('unreachable');
    expect(t.store.intake.get().cursorTo).toBe(cursor);
    expect(t.reachability.at(-1)).toBe(false);
    expect(t.intake.status().condition).toBe('offline');
    await fetch(`${box.adminUrl}/__sandbox/faults`, { method: 'POST', body: JSON.stringify({ outage: 'none' }) });
    expect(await t.intake.passOnce()).toMatchObject({ kind: 'completed', counts: { new: 3 } });
    for (const p of placed) expect(t.store.orders.get(p.id)?.body?.items.length).toBe(p.items.length);
    expect(t.intake.status().condition).toBe('ok');
  });

  it('resumes without a gap after a restart in the middle of pagination', async () => {
    const box = await intakeSandbox(cleanup, { orderCount: 30, changesMaxPageSize: 5 });
    const dir = dataDir(cleanup);
    let pages = 0;
    // The "crash": the service vanishes after the second page, as a power cut would end the pass.
    const first = terminal(cleanup, box, dir, {
      pageSize: 5,
      wrapReader: (r): IntakeReader => ({
        changes: async (request, signal) => {
          if (++pages === 3) box.faults.set({ outage: 'refuse' });
          return r.changes(request, signal);
        },
        status: (id, signal) => r.status(id, signal),
        probe: (signal) => r.probe(signal),
      }),
    });
    expect((await first.intake.passOnce()).kind).toBe('unreachable');
    expect(first.store.intake.get().cursorTo).toBeNull();
    await first.close();
    await fetch(`${box.adminUrl}/__sandbox/faults`, { method: 'POST', body: JSON.stringify({ outage: 'none' }) });

    const second = terminal(cleanup, box, dir, { pageSize: 5 });
    expect(await second.intake.passOnce()).toMatchObject({ kind: 'completed', counts: { new: 30, failed: 0 } });
    expect(second.store.orders.list().filter((o) => o.body !== null)).toHaveLength(30);
    expect(second.store.intake.get().cursorTo).not.toBeNull();
  });

  it('reads the window from the cursor minus the overlap, so a change stamped before the cursor is not lost', async () => {
    let serviceClock = Date.now();
    const box = await intakeSandbox(cleanup, { now: () => serviceClock });
    // The terminal's clock runs a minute ahead of the service's.
    const t = terminal(cleanup, box, dataDir(cleanup), { now: () => serviceClock + 60_000 });
    await t.intake.passOnce();
    serviceClock += 1_000;
    const order = box.orders().find((o) => o.orderState === 'Created')!;
    box.changeOrder(order.id, 'cancel');
    expect(await t.intake.passOnce()).toMatchObject({ kind: 'completed', counts: { updated: 1 } });
    expect(t.store.orders.get(order.id)?.body?.orderState).toBe('Cancelled');
  });

  it("takes in what the service changes while this terminal's clock runs 17 minutes ahead of it", async () => {
    let serviceClock = Date.now();
    const box = await intakeSandbox(cleanup, { now: () => serviceClock });
    const t = terminal(cleanup, box, dataDir(cleanup), { now: () => serviceClock + 17 * 60_000 });
    await t.intake.passOnce();
    // Each later change, a poll interval apart, arrives at the next pass.
    for (const order of box.orders().filter((o) => o.orderState === 'Created').slice(0, 3)) {
      serviceClock += 30_000;
      box.changeOrder(order.id, 'cancel');
      serviceClock += 1_000;
      await t.intake.passOnce();
      expect(t.store.orders.get(order.id)?.body?.orderState).toBe('Cancelled');
    }
    // The windows are on the service's clock: the cursor is not ahead of it.
    expect(t.store.intake.get().cursorTo ?? Infinity).toBeLessThanOrEqual(serviceClock);
  });

  it('keeps the body with the newest updatedAt', async () => {
    const box = await intakeSandbox(cleanup);
    const t = terminal(cleanup, box, dataDir(cleanup));
    const order = box.orders()[0]!;
    const newer = { ...order, orderState: 'Accepted', updatedAt: new Date(Date.parse(order.updatedAt!) + 60_000).toISOString() };
    t.store.orders.saveBody(newer, Date.now());
    await t.intake.passOnce();
    expect(t.store.orders.get(order.id)?.body?.orderState).toBe('Accepted');
  });

  it('backs off on 429, honouring Retry-After, and keeps the cursor', async () => {
    const box = await intakeSandbox(cleanup);
    const armed: number[] = [];
    const fired: (() => void)[] = [];
    const timers: Timers = {
      setTimeout: (fn, ms) => {
        armed.push(ms);
        fired.push(fn);
        return fired.length;
      },
      clearTimeout: () => undefined,
    };
    const t = terminal(cleanup, box, dataDir(cleanup), { timers });
    box.faults.set({ readsRateLimit: { count: 1, retryAfterSeconds: 42 } });
    t.intake.start();
    fired.shift()!(); // the first pass, at once
    await until('intake retrying', () => t.intake.status().condition === 'retrying');
    expect(armed.at(-1)).toBeGreaterThanOrEqual(42_000);
    expect(t.store.intake.get().cursorTo).toBeNull();
    fired.at(-1)!();
    await until('intake ok, its cursor kept', () => t.intake.status().condition === 'ok' && t.store.intake.get().cursorTo !== null);
    // Back to the poll interval after a complete pass.
    expect(armed.at(-1)).toBe(30_000);
  });

  it('a 403 on changes is said once and not polled again until the settings change; scanning still fetches', async () => {
    const box = await intakeSandbox(cleanup);
    const t = terminal(cleanup, box, dataDir(cleanup));
    box.faults.set({ forbidReads: { changes: true, status: false } });
    expect(await t.intake.passOnce()).toMatchObject({ kind: 'noAccess', call: 'changes' });
    const asked = box.stats().changesRequests;
    expect(await t.intake.passOnce()).toMatchObject({ kind: 'noAccess' });
    expect(box.stats().changesRequests).toBe(asked);
    expect(t.intake.status()).toMatchObject({ condition: 'noAccess' });
    expect(t.intake.status().message).toContain('no access');
    const scanned = box.orders()[3]!;
    expect(await t.intake.fetchOrder(scanned.id)).toEqual({ kind: 'stored', result: 'new' });
    expect(t.store.orders.get(scanned.id)?.body?.items.length).toBe(scanned.items.length);
    box.faults.set({ forbidReads: { changes: false, status: false } });
    t.intake.settingsChanged();
    expect((await t.intake.passOnce()).kind).toBe('completed');
  });

  it('a 403 on status stops the pass and is held like one on changes', async () => {
    const box = await intakeSandbox(cleanup);
    const t = terminal(cleanup, box, dataDir(cleanup));
    box.faults.set({ forbidReads: { changes: false, status: true } });
    expect(await t.intake.passOnce()).toMatchObject({ kind: 'noAccess', call: 'status' });
    // The window was read: its ids are kept as still to fetch, none lost.
    expect(t.store.intake.get().stillToFetch).toBe(12);
    expect(t.store.intake.get().noAccess?.message).toContain('order status');
  });

  it('a refused token is refreshed once and the pass goes on', async () => {
    const box = await intakeSandbox(cleanup);
    const t = terminal(cleanup, box, dataDir(cleanup));
    await t.intake.passOnce();
    box.expireTokensNow();
    box.placeOrder();
    expect(await t.intake.passOnce()).toMatchObject({ kind: 'completed', counts: { new: 1 } });
    expect(box.stats().tokenRequests.refresh_token).toBe(1);
  });

  it('a scanned id the service does not know is said to be not found', async () => {
    const box = await intakeSandbox(cleanup);
    const t = terminal(cleanup, box, dataDir(cleanup));
    expect(await t.intake.fetchOrder('ORD-0000001')).toMatchObject({ kind: 'notFound' });
  });

  it('waits for the outbox: no read goes out while an update is being sent', async () => {
    const box = await intakeSandbox(cleanup);
    let sending = 1;
    const time = manualTimers();
    const t = terminal(cleanup, box, dataDir(cleanup), { outboxSending: () => sending, timers: time.timers });
    // Should the test fail half way, a pass left waiting on these timers still ends before the terminal closes.
    cleanup.add(() => {
      sending = 0;
      time.fire(0);
    });
    const pass = t.intake.passOnce();
    // The pass waits on the outbox (its one timer is that short wait), and no read has gone out.
    await until('the pass to wait for the outbox', () => time.pending().length > 0);
    expect(time.pending()).toEqual([OUTBOX_WAIT_MS]);
    expect(box.stats().changesRequests).toBe(0);
    // Its wait ends while the update is still being sent: it waits again, still reading nothing.
    expect(time.advance(OUTBOX_WAIT_MS)).toBe(1);
    await until('the pass to wait for the outbox again', () => time.pending().length > 0);
    expect(time.pending()).toEqual([OUTBOX_WAIT_MS]);
    expect(box.stats().changesRequests).toBe(0);
    // Sent: at its next look the pass reads.
    sending = 0;
    expect(time.advance(OUTBOX_WAIT_MS)).toBe(1);
    expect((await pass).kind).toBe('completed');
    expect(box.stats().changesRequests).toBeGreaterThan(0);
  });
});
