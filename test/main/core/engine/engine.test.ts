import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OrderServiceClient } from '../../../../src/main/core/api';
import { MemoryVault, TokenManager } from '../../../../src/main/core/auth';
import { openStore } from '../../../../src/main/core/db';
import { createEngine, type Engine } from '../../../../src/main/core/engine';
import type { EventBody } from '../../../../src/shared/ipc';
import {
  acceptAndLoad,
  Cleanup,
  newDeliveryOrderIds,
  sandbox,
  serviceEngine,
  tempDir,
  watchedSender,
} from '../../../support/engine';
import { fulfilmentId } from '../../../support/orders';
import { TRAINING } from '../../../support/credentials';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const accept = { kind: 'orderState', state: 'ACCEPTED' } as const;

describe('sending order', () => {
  it('sends up to `concurrency` orders at once, one tap at a time per order, in tap order', async () => {
    const box = await sandbox(cleanup, { orderCount: 60 });
    const tokens = new TokenManager({ authUrl: box.url, vault: new MemoryVault({ credentials: TRAINING }), proactive: false });
    cleanup.add(() => tokens.close());
    const sender = watchedSender(new OrderServiceClient({ baseUrl: box.url, tokens }));
    const engine = createEngine({ dataDir: tempDir(cleanup), sender, terminalId: 'T1', undoWindowMs: 0, concurrency: 4 });
    cleanup.add(() => engine.stop());
    engine.start();
    const ids = newDeliveryOrderIds(box).slice(0, 8);
    for (const id of ids) engine.submitTap(id, accept);
    await engine.drain({ untilEmpty: true, timeoutMs: 20_000 });
    box.faults.set({ latencyMs: 20 });
    for (const id of ids) {
      const view = engine.getOrder(id)!;
      const store = fulfilmentId(view, 'STORE');
      const delivery = fulfilmentId(view, 'DELIVERY');
      for (const input of [
        { kind: 'fulfilment', fulfilmentId: store, state: 'PACKING' },
        { kind: 'invoice', sellerInvoiceId: `INV-${id}` },
        { kind: 'fulfilment', fulfilmentId: store, state: 'PACKED' },
        { kind: 'fulfilment', fulfilmentId: delivery, state: 'OUT_FOR_DELIVERY' },
        { kind: 'fulfilment', fulfilmentId: delivery, state: 'DELIVERED' },
      ] as const) {
        const r = engine.submitTap(id, input);
        if (!r.ok) throw new Error(r.problem.message);
      }
    }
    expect(await engine.drain({ untilEmpty: true, timeoutMs: 30_000 })).toEqual({ sent: 40, failed: 0, remaining: 0 });
    expect(sender.maxInFlight).toBe(4);
    expect(sender.maxPerOrder).toBe(1);
    const tapOrder = engine
      .listOutbox({ includeDone: true })
      .sort((a, b) => a.id - b.id)
      .map((e) => `${e.orderId}/${e.requestId}`);
    const applied = box.appliedLog().map((a) => `${a.orderId}/${a.requestId}`);
    for (const id of ids) {
      expect(applied.filter((x) => x.startsWith(`${id}/`))).toEqual(tapOrder.filter((x) => x.startsWith(`${id}/`)));
    }
    expect(box.order(ids[0]!)?.fulfillments.find((f) => f.type === 'DELIVERY')?.fulfillmentState).toBe('DELIVERED');
  });
});

describe('stopping', () => {
  it('a clean stop in the middle of a drain leaves nothing marked as being sent', async () => {
    const box = await sandbox(cleanup, { orderCount: 60 });
    const dir = tempDir(cleanup);
    const first = serviceEngine(cleanup, box, dir);
    first.engine.start();
    const ids = newDeliveryOrderIds(box).slice(0, 12);
    for (const id of ids) first.engine.submitTap(id, accept);
    await first.engine.drain({ untilEmpty: true, timeoutMs: 20_000 });
    box.faults.set({ latencyMs: 30 });
    for (const id of ids) first.engine.submitTap(id, { kind: 'invoice', sellerInvoiceId: `INV-${id}` });
    for (const id of ids) first.engine.submitTap(id, { kind: 'invoice', sellerInvoiceId: `INV-${id}-2` });
    await first.engine.drain({ untilEmpty: false, timeoutMs: 5000 });
    await first.close();

    const store = openStore({ dataDir: dir, now: Date.now });
    if (!store.ok) throw new Error(store.problem.message);
    const states = store.value.outbox.recent(1000).map((e) => e.state);
    store.value.close();
    expect(states).not.toContain('sending');
    expect(states.filter((s) => s === 'sent').length).toBeGreaterThan(ids.length);

    const again = serviceEngine(cleanup, box, dir).engine;
    again.start();
    expect(await again.drain({ untilEmpty: true, timeoutMs: 20_000 })).toMatchObject({ failed: 0, remaining: 0 });
    expect(box.requestLog().filter((r) => r.duplicate)).toHaveLength(0);
    expect(box.appliedLog()).toHaveLength(ids.length * 3);
  });
});

describe('events', () => {
  it('tells the UI about entries, orders and status as a tap goes out', async () => {
    const box = await sandbox(cleanup);
    const { engine } = serviceEngine(cleanup, box, tempDir(cleanup), { undoWindowMs: 60_000 });
    const seen: { outbox: EventBody<'outbox.changed'>[]; orders: EventBody<'orders.changed'>[]; status: EventBody<'sync.status'>[] } = {
      outbox: [],
      orders: [],
      status: [],
    };
    engine.on('outbox.changed', (b) => seen.outbox.push(b));
    engine.on('orders.changed', (b) => seen.orders.push(b));
    engine.on('sync.status', (b) => seen.status.push(b));
    engine.start();
    const id = newDeliveryOrderIds(box)[0]!;
    engine.addOrder(id);
    expect(seen.orders.at(-1)?.orders[0]).toMatchObject({ id, order: null, nextStep: { key: 'ACCEPT' } });
    const tap = engine.submitTap(id, accept);
    if (!tap.ok) throw new Error(tap.problem.message);
    expect(seen.outbox.at(-1)?.entries).toEqual([tap.value]);
    expect(seen.orders.at(-1)?.orders[0]).toMatchObject({ id, waiting: 1, nextStep: null });
    expect(seen.status.at(-1)).toMatchObject({ waiting: 1 });

    engine.setOptions({ undoWindowMs: 0 });
    expect(engine.retry(tap.value.id).ok).toBe(true); // due now
    await engine.drain({ untilEmpty: true, timeoutMs: 10_000 });
    const states = seen.outbox.flatMap((b) => b.entries.filter((e) => e.id === tap.value.id).map((e) => e.state));
    expect(states).toEqual(expect.arrayContaining(['queued', 'sending', 'sent']));
    const last = seen.orders.at(-1)!.orders[0]!;
    expect(last).toMatchObject({ id, waiting: 0, nextStep: { key: 'PACKING' } });
    expect(last.order?.orderState).toBe('Accepted');
    expect(last.syncedAt).not.toBeNull();
    expect(seen.status.at(-1)).toMatchObject({ connectivity: 'online', waiting: 0 });
    expect(seen.status.at(-1)?.lastSuccessAt).not.toBeNull();
  });

  it('a throwing listener does not stop the engine', async () => {
    const box = await sandbox(cleanup);
    const { engine } = serviceEngine(cleanup, box, tempDir(cleanup));
    engine.on('outbox.changed', () => {
      throw new Error('renderer went away');
    });
    engine.start();
    expect(engine.submitTap(newDeliveryOrderIds(box)[0]!, accept).ok).toBe(true);
    expect(await engine.drain({ untilEmpty: true, timeoutMs: 10_000 })).toMatchObject({ sent: 1 });
  });
});

describe('connectivity', () => {
  it("follows the OS's offline signal at once and probes when it says online again", async () => {
    const box = await sandbox(cleanup);
    let online = false;
    const subscribers = new Set<(online: boolean) => void>();
    const signal = {
      current: () => online,
      subscribe: (cb: (o: boolean) => void) => {
        subscribers.add(cb);
        return () => subscribers.delete(cb);
      },
    };
    const { engine } = serviceEngine(cleanup, box, tempDir(cleanup), { online: signal, backoff: { baseMs: 60_000, capMs: 60_000 } });
    engine.start();
    expect(engine.status().connectivity).toBe('offline');
    engine.submitTap(newDeliveryOrderIds(box)[0]!, accept);
    expect(await engine.drain({ untilEmpty: false, timeoutMs: 2000 })).toEqual({ sent: 0, failed: 0, remaining: 1 });
    expect(box.requestLog()).toHaveLength(0);

    online = true;
    for (const cb of subscribers) cb(true);
    expect(await engine.drain({ untilEmpty: true, timeoutMs: 10_000 })).toEqual({ sent: 1, failed: 0, remaining: 0 });
    expect(engine.status().connectivity).toBe('online');
  });

  it("carries the clock difference each token measures, and says when this computer's clock is minutes off", async () => {
    // The order service's clock is 17 minutes ahead of this computer's.
    const box = await sandbox(cleanup, { now: () => Date.now() + 17 * 60_000 });
    const { engine, tokens } = serviceEngine(cleanup, box, tempDir(cleanup));
    const pushed: EventBody<'sync.status'>[] = [];
    engine.on('sync.status', (s) => pushed.push(s));
    engine.start();
    expect(engine.status()).toMatchObject({ clockSkewMs: null, notice: null });
    // A token alone, no tap sent: the screens are told.
    expect((await tokens.authorization()).ok).toBe(true);
    const skew = pushed.at(-1)?.clockSkewMs ?? null;
    expect(skew).not.toBeNull();
    expect(Math.abs((skew ?? 0) + 17 * 60_000)).toBeLessThanOrEqual(5_000);
    expect(Math.abs((skew ?? 0) % 1000)).toBe(0);
    expect(pushed.at(-1)).toMatchObject({ notice: { code: 'CLOCK_BEHIND', values: { offsetMs: -(skew ?? 0) } } });
    expect(engine.status().message).toContain('17 minutes behind the order service');
  });

  it('says nothing of a clock that is off by less than two minutes', async () => {
    const box = await sandbox(cleanup, { now: () => Date.now() - 50_000 });
    const { engine, tokens } = serviceEngine(cleanup, box, tempDir(cleanup));
    engine.start();
    expect((await tokens.authorization()).ok).toBe(true);
    const status = engine.status();
    expect(Math.abs((status.clockSkewMs ?? 0) - 50_000)).toBeLessThanOrEqual(5_000);
    expect(status.notice).toBeNull();
  });

  it('raises the backlog alarm when a tap waits longer than the threshold', async () => {
    const box = await sandbox(cleanup);
    let now = Date.now();
    const { engine } = serviceEngine(cleanup, box, tempDir(cleanup), { now: () => now, backlogThresholdMs: 15 * 60_000 });
    engine.start();
    box.faults.set({ outage: 'refuse' });
    engine.submitTap(newDeliveryOrderIds(box)[0]!, accept);
    await engine.drain({ untilEmpty: false, timeoutMs: 2000 });
    expect(engine.status().backlogAlarm).toBe(false);
    now += 15 * 60_000;
    const status = engine.status();
    expect(status).toMatchObject({ backlogAlarm: true, waiting: 1, connectivity: 'offline' });
    expect(status.oldestWaitingAt).toBeLessThanOrEqual(now - 15 * 60_000);
  });
});

describe('data folder', () => {
  it('reports a damaged file it set aside, starts a new one visibly, and keeps saying so in health()', async () => {
    const box = await sandbox(cleanup);
    const dir = tempDir(cleanup);
    fs.writeFileSync(path.join(dir, 'packdesk.sqlite'), 'garbage '.repeat(1000));
    const { engine } = serviceEngine(cleanup, box, dir);
    expect(engine.status().message).toMatch(/damaged.*set aside as .*packdesk\.sqlite\.broken-.*new, empty data file/s);
    expect(engine.health().integrity).toMatch(/set aside/);
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('packdesk.sqlite.broken-'))).toHaveLength(1);
    // The new file works.
    expect(engine.submitTap(newDeliveryOrderIds(box)[0]!, accept).ok).toBe(true);
  });

  it('lets one process send a folder’s queue; a second one only queues, and takes over when the first stops', async () => {
    const box = await sandbox(cleanup);
    const dir = tempDir(cleanup);
    const first = serviceEngine(cleanup, box, dir, { undoWindowMs: 60_000 });
    const second = serviceEngine(cleanup, box, dir, { pollMs: 50 }).engine;
    first.engine.start();
    second.start();
    expect(second.status().message).toMatch(/Another Packdesk/);
    const [a, b] = newDeliveryOrderIds(box) as [string, string];
    expect(second.submitTap(a, accept).ok).toBe(true);
    expect(await second.drain({ untilEmpty: true, timeoutMs: 2000 })).toEqual({ sent: 0, failed: 0, remaining: 1 });
    // The sender picks up what the other queued.
    expect(await first.engine.drain({ untilEmpty: true, timeoutMs: 10_000 })).toEqual({ sent: 1, failed: 0, remaining: 0 });
    await first.close();
    expect(second.submitTap(b, accept).ok).toBe(true);
    expect(await second.drain({ untilEmpty: true, timeoutMs: 10_000 })).toMatchObject({ remaining: 0 });
    expect(box.appliedLog().map((x) => x.orderId)).toEqual([a, b]);
  });

  it('never writes the client secret or a token into the data file', async () => {
    const box = await sandbox(cleanup);
    const dir = tempDir(cleanup);
    const built = serviceEngine(cleanup, box, dir);
    const engine: Engine = built.engine;
    engine.start();
    const order = await acceptAndLoad(engine, newDeliveryOrderIds(box)[0]!);
    box.expireTokensNow();
    engine.submitTap(order.id, { kind: 'fulfilment', fulfilmentId: fulfilmentId(order, 'STORE'), state: 'PACKING' });
    await engine.drain({ untilEmpty: true, timeoutMs: 10_000 });
    const tokens = await built.vault.getTokens();
    expect(tokens?.accessToken).toBeTruthy();
    await built.close();
    const bytes = fs
      .readdirSync(dir)
      .filter((f) => f.startsWith('packdesk.sqlite'))
      .map((f) => fs.readFileSync(path.join(dir, f)).toString('latin1'))
      .join('\n');
    expect(bytes.length).toBeGreaterThan(1000);
    for (const secret of [TRAINING.clientSecret, tokens!.accessToken, tokens!.refreshToken ?? 'no-refresh-token'])
      expect(bytes.includes(secret)).toBe(false);
  });
});
