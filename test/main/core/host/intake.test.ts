/** Intake at the host (training mode, the in-app sandbox over HTTP): scanned ids, events, status, settings. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../../sandbox';
import { MemoryVault } from '../../../../src/main/core/auth';
import { createAppHost } from '../../../../src/main/core/host';
import type { EventName, IntakeStatus, OrderView } from '../../../../src/shared/ipc';
import { TRAINING } from '../../../support/credentials';
import { startTestHost, type TestHost } from '../../../support/host';
import { firstIntakePass } from '../../../support/intake';

let t: TestHost | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const PIN = '1357';

describe('intake at the host', () => {
  it('fills the training queue with every seeded order in its state at the service, items included', async () => {
    t = await startTestHost({ sandboxOptions: { orderCount: 15, arrivalEveryMs: 0 } });
    const orders = await t.call('orders.list', {});
    const sandbox = t.host.sandbox!;
    expect(orders).toHaveLength(15);
    for (const row of orders) {
      const at = sandbox.order(row.id)!;
      // The queue's row says the state and counts the lines; the whole view has the items themselves.
      expect(row.facts?.orderState).toBe(at.orderState);
      expect(row.facts?.lines).toBe(at.items.length);
      const view = await t.call('orders.get', { orderId: row.id });
      expect(view?.order?.items.map((i) => i.itemId)).toEqual(at.items.map((i) => i.itemId));
    }
    // Not every order asks to be accepted: the seeded ones further along say their real next step.
    expect(new Set(orders.map((o) => o.nextStep?.key ?? 'done')).size).toBeGreaterThan(2);
    const status: IntakeStatus = await t.call('intake.status', {});
    expect(status).toMatchObject({ condition: 'ok', intervalMs: 30_000 });
    expect(status.lastCompleteAt).not.toBeNull();
  });

  it('training starts before its first pass; the queue fills in by itself, ids stored together in one orders.changed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'packdesk-host-'));
    const host = await createAppHost<Sandbox>({
      shell: 'web',
      startTraining: (log) => startSandbox({ orderCount: 300, arrivalEveryMs: 0, log }),
      dataDir: dir,
      version: '0.1.0-test',
      vaultFor: (env) => (env === 'training' ? new MemoryVault({ credentials: TRAINING }) : new MemoryVault()),
    });
    try {
      const changed: OrderView[][] = [];
      host.subscribe((event, body) => {
        if (event === 'orders.changed') changed.push((body as { orders: OrderView[] }).orders);
      });
      await host.start();
      // Started with the pass still under way: not every seeded order is in yet.
      const atStart = await host.handle('orders.list', {});
      expect(atStart.ok && (atStart.value as OrderView[]).length).toBeLessThan(300);
      await firstIntakePass(host);
      const all = await host.handle('orders.list', {});
      expect(all.ok && (all.value as OrderView[]).length).toBe(300);
      // Every order reached the screen by event, in far fewer events than orders.
      expect(new Set(changed.flat().map((v) => v.id)).size).toBe(300);
      expect(changed.length).toBeLessThan(300 / 4);
    } finally {
      await host.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a scanned id the terminal does not know is fetched at once, so its items show before Accept', async () => {
    t = await startTestHost({ sandboxOptions: { orderCount: 5, arrivalEveryMs: 0 } });
    const placed = t.host.sandbox!.placeOrder();
    const view: OrderView = await t.call('orders.add', { orderId: placed.id });
    expect(view.order?.items).toHaveLength(placed.items.length);
    expect(view.nextStep?.key).toBe('ACCEPT');
  });

  it('an id the service does not know is refused in words and adds nothing to the queue', async () => {
    t = await startTestHost({ sandboxOptions: { orderCount: 5, arrivalEveryMs: 0 } });
    const before = await t.call('orders.list', {});
    const reply = await t.host.handle('orders.add', { orderId: 'ORD-9999999' });
    expect(reply.ok).toBe(false);
    if (!reply.ok) expect(reply.problem).toMatchObject({ code: 'ORDER_NOT_FOUND', values: { orderId: 'ORD-9999999' } });
    expect(await t.call('orders.list', {})).toHaveLength(before.length);
    expect(await t.call('orders.get', { orderId: 'ORD-9999999' })).toBeNull();
  });

  it('an unknown id the service answers for only after the packer stopped waiting is taken off again when the answer is "not found"', async () => {
    t = await startTestHost({ sandboxOptions: { orderCount: 5, arrivalEveryMs: 0 } });
    const removed: string[] = [];
    const off = t.host.subscribe((event, body) => {
      if (event === 'orders.removed') removed.push(...(body as { orderIds: string[] }).orderIds);
    });
    // Slower than the 2.5 s a packer waits: the id is kept, known by its number alone, for now.
    t.host.sandbox!.faults.set({ latencyMs: 3_200 });
    const kept: OrderView = await t.call('orders.add', { orderId: 'ORD-9999998' });
    expect(kept.order).toBeNull();
    // The late "not found" takes it off, and the screens are told.
    const deadline = Date.now() + 8_000;
    while (!removed.includes('ORD-9999998') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    off();
    expect(removed).toContain('ORD-9999998');
    t.host.sandbox!.faults.set({ latencyMs: 0 });
    expect(await t.call('orders.get', { orderId: 'ORD-9999998' })).toBeNull();
  }, 20_000);

  it("typed text finds orders on the terminal by the customer's name, the id's last digits or the phone, and adds none", async () => {
    t = await startTestHost({ sandboxOptions: { orderCount: 30, arrivalEveryMs: 0 } });
    const rows = await t.call('orders.list', {});
    const sandbox = t.host.sandbox!;
    const one = sandbox.order(rows[0]!.id)!;
    const digits = one.id.replace(/\D/g, '');
    const byDigits = await t.call('orders.find', { text: digits });
    expect(byDigits.matches.map((m) => [m.order.id, m.by])).toEqual([[one.id, 'idEnd']]);
    const phone = one.billing!.phone!;
    const byPhone = await t.call('orders.find', { text: phone });
    expect(byPhone.matches.map((m) => m.order.id)).toContain(one.id);
    const first = one.billing!.name!.split(' ')[0]!;
    const byName = await t.call('orders.find', { text: first.toLowerCase() });
    const named = rows.filter((r) => r.facts?.customer?.split(' ').some((w) => w.toLowerCase().startsWith(first.toLowerCase())));
    expect(byName.matches.map((m) => m.order.id).sort()).toEqual(named.map((r) => r.id).sort().slice(0, 8));
    expect(byName.matches.every((m) => m.by === 'customer' && m.order.facts !== null)).toBe(true);
    // Nothing was added by any of it.
    expect(await t.call('orders.list', {})).toHaveLength(rows.length);
    expect((await t.call('orders.find', { text: 'Nobody Atall' })).matches).toEqual([]);
  });

  it('a check now brings a placed order in and says so as orders.changed and intake.status events', async () => {
    t = await startTestHost({ sandboxOptions: { orderCount: 5, arrivalEveryMs: 0, changesMinIntervalMs: 0 } });
    const seen: { event: EventName; body: unknown }[] = [];
    const off = t.host.subscribe((event, body) => seen.push({ event, body }));
    const placed = t.host.sandbox!.placeOrder();
    await t.call('intake.checkNow', {});
    off();
    const changed = seen.filter((e) => e.event === 'orders.changed').flatMap((e) => (e.body as { orders: OrderView[] }).orders);
    expect(changed.find((v) => v.id === placed.id)?.order?.items).toHaveLength(placed.items.length);
    expect(seen.some((e) => e.event === 'intake.status')).toBe(true);
  });

  it('new intake settings are kept and make intake check again; a 403 is reported in the status', async () => {
    t = await startTestHost({ sandboxOptions: { orderCount: 5, arrivalEveryMs: 0, changesMinIntervalMs: 0 } });
    await t.call('pin.set', { newPin: PIN });
    t.host.sandbox!.faults.set({ forbidReads: { changes: true, status: false } });
    const refused: IntakeStatus = await t.call('intake.checkNow', {});
    expect(refused.condition).toBe('noAccess');
    t.host.sandbox!.faults.set({ forbidReads: { changes: false, status: false } });
    const saved = await t.call('settings.update', { pin: PIN, patch: { intakeIntervalMs: 45_000, alertRepeatMs: 30_000, alertVolume: 0.5 } });
    expect(saved).toMatchObject({ intakeIntervalMs: 45_000, alertRepeatMs: 30_000, alertVolume: 0.5 });
    const again: IntakeStatus = await t.call('intake.checkNow', {});
    expect(again).toMatchObject({ condition: 'ok', intervalMs: 45_000 });
    // Loudness can be turned down, not off.
    const off = await t.host.handle('settings.update', { pin: PIN, patch: { alertVolume: 0 } });
    expect(off.ok).toBe(false);
  });
});
