import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../../sandbox';
import { needsManager } from '../../../../src/main/core/host';
import { COMMANDS, type CommandName, type EventName, type OrderView, type UpdateStatus } from '../../../../src/shared/ipc';
import { startTestHost, type TestHost } from '../../../support/host';
import { malformedPayloads } from '../../../support/payloads';
import { countSteps, inQueueOrder, summarize } from '../../../../src/shared/orders';

const names = Object.keys(COMMANDS) as CommandName[];

/** Orders still waiting for Accept: intake brings seeded orders in their real states, some already further along. */
const awaitsAccept = (o: Pick<OrderView, 'nextStep'>): boolean => o.nextStep?.key === 'ACCEPT';

async function acceptFirstOrder(t: TestHost): Promise<OrderView> {
  const [first] = (await t.call('orders.list', {})).filter(awaitsAccept);
  await t.call('taps.submit', { orderId: first!.id, input: { kind: 'orderState', state: 'ACCEPTED' } });
  await t.host.engine()!.drain({ untilEmpty: true, timeoutMs: 10_000 });
  return (await t.call('orders.get', { orderId: first!.id }))!;
}

describe('the app host in training mode', () => {
  let t: TestHost;
  beforeAll(async () => {
    t = await startTestHost({ settingsOverride: { undoWindowMs: 0 } });
  });
  afterAll(async () => t.close());

  it('starts the in-app sandbox on 127.0.0.1 and fills the queue with its seeded orders', async () => {
    const sandbox = t.host.sandbox!;
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const settings = await t.call('settings.get', {});
    expect(settings).toMatchObject({ environment: 'training', authUrl: sandbox.url, baseUrl: sandbox.url });
    const orders = await t.call('orders.list', {});
    expect(orders.map((o) => o.id).sort()).toEqual(sandbox.orders().map((o) => o.id).sort());
    expect(orders.length).toBeGreaterThanOrEqual(30);
    const info = await t.call('app.info', {});
    expect(info).toMatchObject({ environment: 'training', shell: 'web', version: '0.1.0-test', pinSet: false });
    expect(info.terminalId).toMatch(/^T-[0-9a-f]{16}$/);
    expect(await t.call('updates.status', {})).toMatchObject({ state: 'disabled', currentVersion: '0.1.0-test' });
  });

  it("answers the queue's head: the first rows in queue order, every id, the counts of all", async () => {
    const orders = await t.call('orders.list', {});
    const head = await t.call('orders.head', { rows: 5 });
    const queue = inQueueOrder(orders);
    expect(head.ids).toEqual(queue.map((o) => o.id));
    expect(head.rows).toEqual(queue.slice(0, 5));
    expect(head.counts).toEqual(countSteps(orders));
    expect(Object.values(head.counts).reduce((a, b) => a + b, 0)).toBe(orders.length);
  });

  it('answers a head from the queue listed ahead only while nothing changed since', async () => {
    const [order] = (await t.call('orders.list', {})).filter(awaitsAccept);
    t.host.prepareQueue();
    const before = await t.call('orders.head', { rows: 500 });
    expect(before.rows.find((r) => r.id === order!.id)?.waiting).toBe(0);
    // Listed ahead, then a tap: the head must show the tap waiting, not the list made before it.
    t.host.prepareQueue();
    await t.call('taps.submit', { orderId: order!.id, input: { kind: 'orderState', state: 'ACCEPTED' } });
    const after = await t.call('orders.head', { rows: 500 });
    const row = after.rows.find((r) => r.id === order!.id);
    expect(row?.waiting === 1 || row?.nextStep?.key === 'PACKING').toBe(true);
    await t.host.engine()!.drain({ untilEmpty: true, timeoutMs: 10_000 });
  });

  it('a page loaded again while nothing changed gets its head and list without a listing of every order', async () => {
    const engine = t.host.engine()!;
    const listOrders = engine.listOrders.bind(engine);
    let listings = 0;
    engine.listOrders = () => {
      listings += 1;
      return listOrders();
    };
    try {
      // Listed now, or kept from the tests before (rows are patched, not listed again, after a change).
      const first = await t.call('orders.list', {});
      expect(listings).toBeLessThanOrEqual(1);
      const listed = listings;
      // The page connects again (a reload): nothing changed, so no listing runs while it loads.
      t.host.prepareQueue();
      const head = await t.call('orders.head', { rows: 5 });
      const again = await t.call('orders.list', {});
      expect(listings).toBe(listed);
      expect(head.ids).toEqual(inQueueOrder(first).map((o) => o.id));
      expect(again).toEqual(first);
      // A change (a tap): the next page shows it, from the rows patched by its events, without a
      // listing of every order (which parsed every order's body again once the engine stopped keeping them all).
      const order = first.find(awaitsAccept)!;
      await t.call('taps.submit', { orderId: order.id, input: { kind: 'orderState', state: 'ACCEPTED' } });
      t.host.prepareQueue();
      const row = (await t.call('orders.list', {})).find((r) => r.id === order.id);
      expect(row?.waiting === 1 || row?.nextStep?.key === 'PACKING').toBe(true);
      expect(listings).toBe(listed);
    } finally {
      engine.listOrders = listOrders;
    }
    await engine.drain({ untilEmpty: true, timeoutMs: 10_000 });
  });

  it('the rows kept and patched from events are the rows a fresh listing gives, after taps sent and an order added', async () => {
    const engine = t.host.engine()!;
    const rows = await t.call('orders.list', {});
    const [a, b] = rows.filter(awaitsAccept);
    await t.call('taps.submit', { orderId: a!.id, input: { kind: 'orderState', state: 'ACCEPTED' } });
    await t.call('taps.submit', { orderId: b!.id, input: { kind: 'orderState', state: 'ACCEPTED' } });
    await engine.drain({ untilEmpty: true, timeoutMs: 10_000 });
    await t.call('taps.submit', { orderId: a!.id, input: { kind: 'fulfilment', fulfilmentId: (await t.call('orders.get', { orderId: a!.id }))!.nextStep!.fulfilmentId!, state: 'PACKING' } });
    // An order just placed, typed in before intake brings it.
    const added = t.host.sandbox!.placeOrder();
    await t.call('orders.add', { orderId: added.id });
    await engine.drain({ untilEmpty: true, timeoutMs: 10_000 });
    const kept = await t.call('orders.list', {});
    expect(kept.map((r) => r.id)).toContain(added.id);
    // Row for row, in the listing's order (the same rows at counters of a store: test/main/core/hub/kept-rows.test.ts).
    expect(kept).toEqual(engine.listOrders().map(summarize));
  });

  it('sends a tap to the sandbox and forwards the engine events', async () => {
    const seen: EventName[] = [];
    const unsubscribe = t.host.subscribe((event) => seen.push(event));
    const order = await acceptFirstOrder(t);
    unsubscribe();
    expect(order.order).not.toBeNull();
    expect(order.nextStep?.key).toBe('PACKING');
    expect(t.host.sandbox!.appliedLog().some((a) => a.orderId === order.id)).toBe(true);
    expect(seen).toEqual(expect.arrayContaining(['orders.changed', 'outbox.changed', 'sync.status']));
  });

  it.each(names)('%s: every malformed payload is refused as invalid and changes nothing', async (command) => {
    const snapshot = async (): Promise<string> =>
      JSON.stringify([
        await t.call('orders.list', {}),
        await t.call('outbox.list', {}),
        await t.call('settings.get', {}),
        (await t.call('app.info', {})).pinSet,
        existsSync(join(t.dataDir, 'pin.json')),
        readdirSync(t.dataDir).sort(),
      ]);
    const before = await snapshot();
    for (const { label, payload } of malformedPayloads(command)) {
      const reply = await t.host.handle(command, payload);
      expect(reply.ok, `${command} with ${label}`).toBe(false);
      if (!reply.ok) expect(reply.problem, label).toMatchObject({ kind: 'invalid', code: 'INVALID_REQUEST' });
    }
    expect(await snapshot()).toBe(before);
  });

  it('refuses unknown command names', async () => {
    for (const name of ['orders.delete', 'constructor', '__proto__', 'hasOwnProperty', 7]) {
      expect(await t.host.handle(name, {})).toMatchObject({ ok: false, problem: { kind: 'invalid', code: 'UNKNOWN_COMMAND' } });
    }
  });

  it('refuses PIN-guarded commands while no PIN is set', async () => {
    const reply = await t.host.handle('kiosk.leave', { pin: '1234' });
    expect(reply).toMatchObject({ ok: false, problem: { code: 'PIN_NOT_SET' } });
  });
});

describe('a host whose shell hands it no training service', () => {
  it('keeps running and says why training cannot start; taps are refused, not lost', async () => {
    const t = await startTestHost({ startTraining: undefined, settingsOverride: { environment: 'training' } });
    try {
      expect(t.host.sandbox).toBeNull();
      expect(t.host.engine()).toBeNull();
      expect((await t.call('sync.status', {})).message).toMatch(/Training mode is not available/);
      const reply = await t.host.handle('taps.submit', { orderId: 'ORD-1', input: { kind: 'orderState', state: 'ACCEPTED' } });
      expect(reply).toMatchObject({ ok: false, problem: { kind: 'transient', code: 'ENGINE_UNAVAILABLE' } });
    } finally {
      await t.close();
    }
  });
});

describe('the manager PIN at the host', () => {
  let t: TestHost;
  beforeAll(async () => {
    t = await startTestHost({ settingsOverride: { undoWindowMs: 60_000 } });
  });
  afterAll(async () => t.close());

  it('guards every PIN command until a PIN is set, then checks it', async () => {
    for (const [command, payload] of [
      ['settings.update', { pin: '1234', patch: { sounds: false } }],
      ['support.exportBundle', { pin: '1234' }],
      ['kiosk.leave', { pin: '1234' }],
      ['updates.installNow', { pin: '1234' }],
      ['outbox.discard', { pin: '1234', entryId: 1 }],
      ['credentials.save', { pin: '1234', environment: 'training' }],
    ] as const) {
      expect(await t.host.handle(command, payload), command).toMatchObject({ ok: false, problem: { code: 'PIN_NOT_SET' } });
    }
    expect(await t.call('pin.set', { newPin: '1234' })).toEqual({ done: true });
    expect((await t.call('app.info', {})).pinSet).toBe(true);
    expect(await t.host.handle('pin.set', { newPin: '9999' })).toMatchObject({ ok: false, problem: { code: 'PIN_REQUIRED' } });
    expect(await t.call('pin.verify', { pin: '1234' })).toEqual({ valid: true });
    expect(await t.call('pin.verify', { pin: '4321' })).toEqual({ valid: false });
    expect(await t.host.handle('kiosk.leave', { pin: '4321' })).toMatchObject({ ok: false, problem: { kind: 'auth', code: 'PIN_WRONG' } });
    expect(await t.host.handle('kiosk.leave', { pin: '1234' })).toMatchObject({ ok: false, problem: { code: 'NOT_IN_KIOSK' } });
    expect(await t.host.handle('updates.installNow', { pin: '1234' })).toMatchObject({ ok: false, problem: { code: 'UPDATES_DISABLED' } });
    const pinFile = readFileSync(join(t.dataDir, 'pin.json'), 'utf8');
    expect(pinFile).not.toContain('1234');
  });

  it('needs the PIN to discard a tap: a wrong PIN leaves it queued', async () => {
    const [order] = (await t.call('orders.list', {})).filter(awaitsAccept);
    const entry = await t.call('taps.submit', { orderId: order!.id, input: { kind: 'orderState', state: 'ACCEPTED' } });
    expect(await t.host.handle('outbox.discard', { entryId: entry.id, pin: '0000' })).toMatchObject({ ok: false, problem: { code: 'PIN_WRONG' } });
    expect((await t.call('outbox.list', {})).find((e) => e.id === entry.id)?.state).toBe('queued');
    expect(await t.call('outbox.discard', { entryId: entry.id, pin: '1234' })).toEqual({ done: true });
    expect((await t.call('outbox.list', {})).find((e) => e.id === entry.id)?.state ?? 'discarded').toBe('discarded');
  });

  it('needs the PIN for a fraudulent-prescription cancellation, not for other reasons', async () => {
    expect(needsManager({ kind: 'orderState', state: 'CANCELLED', reason: 'FRAUD_PRESCRIPTION' })).toBe(true);
    expect(needsManager({ kind: 'orderState', state: 'CANCELLED', reason: 'BUYER_NOT_AVAILABLE' })).toBe(false);
    // Cancelling needs the order's details: accept two orders first and let the answers come back.
    await t.call('settings.update', { pin: '1234', patch: { undoWindowMs: 0 } });
    const orders = (await t.call('orders.list', {})).filter(awaitsAccept);
    const [order, other] = [orders[3]!, orders[4]!];
    for (const o of [order, other]) await t.call('taps.submit', { orderId: o.id, input: { kind: 'orderState', state: 'ACCEPTED' } });
    await t.host.engine()!.drain({ untilEmpty: true, timeoutMs: 10_000 });
    const fraud = { orderId: order.id, input: { kind: 'orderState', state: 'CANCELLED', reason: 'FRAUD_PRESCRIPTION' } };
    expect(await t.host.handle('taps.submit', fraud)).toMatchObject({ ok: false, problem: { code: 'PIN_REQUIRED' } });
    expect(await t.host.handle('taps.submit', { ...fraud, pin: '0000' })).toMatchObject({ ok: false, problem: { code: 'PIN_WRONG' } });
    const cancels = async (): Promise<number> =>
      (await t.call('outbox.list', {})).filter((e) => e.orderId === order.id && e.action.type === 'ORDER_STATE_UPDATE' && e.action.orderState === 'CANCELLED').length;
    expect(await cancels()).toBe(0);
    const entry = await t.call('taps.submit', { ...fraud, pin: '1234' });
    expect(entry).toMatchObject({ orderId: order.id });
    expect(await cancels()).toBe(1);
    expect(await t.call('taps.submit', { orderId: other.id, input: { kind: 'orderState', state: 'CANCELLED', reason: 'BUYER_NOT_AVAILABLE' } })).toMatchObject({ orderId: other.id });
  });

  it('locks PIN entry after five wrong PINs, even for the right PIN', async () => {
    for (let i = 0; i < 5; i++) await t.host.handle('pin.verify', { pin: '0000' });
    expect(await t.host.handle('pin.verify', { pin: '1234' })).toMatchObject({ ok: false, problem: { code: 'PIN_LOCKED' } });
    expect(await t.host.handle('settings.update', { pin: '1234', patch: { sounds: false } })).toMatchObject({ ok: false, problem: { code: 'PIN_LOCKED' } });
  });
});

describe('shell hooks: updates, kiosk, extra log', () => {
  it('reports the update status, forwards its changes, and installs only with the PIN', async () => {
    let listener: ((s: UpdateStatus) => void) | null = null;
    let installs = 0;
    const status = { state: 'ready' as const, currentVersion: '0.1.0', availableVersion: '0.2.0', message: null, lastCheckAt: 1 };
    let kioskLeft = 0;
    const lines: string[] = [];
    const { createLogger } = await import('../../../../src/main/core/log');
    const t = await startTestHost({
      updates: {
        status: () => status,
        installNow: async () => {
          installs++;
          return { ok: true, value: true };
        },
        onStatus: (cb) => {
          listener = cb;
          return () => {
            listener = null;
          };
        },
      },
      kiosk: { leave: () => kioskLeft++ },
      log: createLogger([{ write: (r) => lines.push(`${r.scope} ${r.msg}`) }]),
    });
    try {
      expect(await t.call('updates.status', {})).toEqual(status);
      const events: unknown[] = [];
      t.host.subscribe((event, body) => event === 'updates.status' && events.push(body));
      listener!({ ...status, state: 'installing' });
      expect(events).toEqual([{ ...status, state: 'installing' }]);
      await t.call('pin.set', { newPin: '8642' });
      expect(await t.host.handle('updates.installNow', { pin: '1111' })).toMatchObject({ ok: false, problem: { code: 'PIN_WRONG' } });
      expect(installs).toBe(0);
      expect(await t.call('updates.installNow', { pin: '8642' })).toEqual({ done: true });
      expect(installs).toBe(1);
      expect(await t.call('kiosk.leave', { pin: '8642' })).toEqual({ done: true });
      expect(kioskLeft).toBe(1);
      expect(lines.some((l) => l.includes('engine started'))).toBe(true);
    } finally {
      await t.close();
    }
    expect(listener).toBeNull();
  });
});

describe('without a working keychain', () => {
  it('says so in app.info and refuses to save credentials, never falling back to a file', async () => {
    const { KeytarVault, MemoryVault, NO_SECRET_SERVICE_MESSAGE } = await import('../../../../src/main/core/auth');
    const staging = await startSandbox({ clientId: 'c', clientSecret: 'keychainless-secret', orderCount: 2 });
    const broken = (env: 'staging' | 'production'): InstanceType<typeof KeytarVault> =>
      new KeytarVault({ environment: env, platform: 'linux', loadBinding: () => Promise.reject(new Error('libsecret-1.so.0: cannot open shared object file')) });
    const t = await startTestHost({
      vaultFor: (env) => (env === 'training' ? new MemoryVault({ credentials: { clientId: 'training', clientSecret: 'training-secret' } }) : broken(env)),
    });
    try {
      const info = await t.call('app.info', {});
      expect(info.keychain.ok).toBe(false);
      expect(info.keychain.message).toContain(NO_SECRET_SERVICE_MESSAGE);
      await t.call('pin.set', { newPin: '1234' });
      const reply = await t.host.handle('credentials.save', {
        pin: '1234',
        environment: 'staging',
        authUrl: staging.url,
        baseUrl: staging.url,
        clientId: 'c',
        clientSecret: 'keychainless-secret',
      });
      expect(reply).toMatchObject({ ok: false, problem: { code: 'NO_KEYCHAIN', message: expect.stringContaining('No keychain') } });
      expect((await t.call('settings.get', {})).environment).toBe('training');
      // Nothing landed in a file instead.
      for (const f of readdirSync(t.dataDir, { recursive: true, encoding: 'utf8' })) {
        const file = join(t.dataDir, f);
        if (statSync(file).isFile()) expect(readFileSync(file).includes('keychainless-secret'), f).toBe(false);
      }
    } finally {
      await t.close();
      await staging.close();
    }
  });
});

describe('when the engine cannot start', () => {
  it('keeps answering and says why: no addresses saved for the environment', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'packdesk-host-'));
    writeFileSync(join(dir, 'settings.json'), JSON.stringify({ version: 1, environment: 'staging', preferences: {}, addresses: {} }));
    const t = await startTestHost({}, dir);
    try {
      expect(t.host.engine()).toBeNull();
      expect(await t.call('orders.list', {})).toEqual([]);
      expect((await t.call('sync.status', {})).message).toMatch(/No service addresses are saved for staging/);
      expect(await t.host.handle('orders.add', { orderId: 'X-1' })).toMatchObject({
        ok: false,
        problem: { code: 'ENGINE_UNAVAILABLE', message: expect.stringContaining('No service addresses') },
      });
    } finally {
      await t.close();
      (await import('node:fs')).rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps answering and says why: the data folder cannot be used', async () => {
    const { mkdtempSync, mkdirSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'packdesk-host-'));
    writeFileSync(
      join(dir, 'settings.json'),
      JSON.stringify({ version: 1, environment: 'staging', preferences: {}, addresses: { staging: { authUrl: 'http://127.0.0.1:9', baseUrl: 'http://127.0.0.1:9' } } }),
    );
    mkdirSync(join(dir, 'environments'));
    writeFileSync(join(dir, 'environments', 'staging'), 'a file where a folder should be');
    const t = await startTestHost({}, dir);
    try {
      expect(t.host.engine()).toBeNull();
      expect((await t.call('sync.status', {})).message).toMatch(/could not start its engine/);
      expect(readFileSync(join(t.host.logDir, 'packdesk.log'), 'utf8')).toContain('engine could not start');
    } finally {
      await t.close();
      (await import('node:fs')).rmSync(dir, { recursive: true, force: true });
    }
  });

  it('opens the engine again when its page check finds the data file damaged: set aside, its taps salvaged, the manager told', async () => {
    const { mkdtempSync, mkdirSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { createEngine } = await import('../../../../src/main/core/engine');
    const { damagePages, leafPages } = await import('../../../support/damage');
    const dir = mkdtempSync(join(tmpdir(), 'packdesk-host-'));
    writeFileSync(
      join(dir, 'settings.json'),
      JSON.stringify({ version: 1, environment: 'staging', preferences: {}, addresses: { staging: { authUrl: 'http://127.0.0.1:9', baseUrl: 'http://127.0.0.1:9' } } }),
    );
    const dataDir = join(dir, 'environments', 'staging');
    mkdirSync(dataDir, { recursive: true });
    const offline = { update: async () => ({ kind: 'transient' as const, message: 'offline', noAnswer: false }), probe: async () => false };
    const before = createEngine({ dataDir, sender: offline, terminalId: 'T1', undoWindowMs: 0 });
    for (let i = 0; i < 300; i++) before.submitTap(`ORD-${1000 + i}`, { kind: 'orderState', state: 'ACCEPTED' });
    await before.stop();
    const file = join(dataDir, 'packdesk.sqlite');
    const leaves = leafPages(file, 'outbox');
    damagePages(file, [leaves[Math.floor(leaves.length / 2)]!]);
    const t = await startTestHost({}, dir);
    try {
      const end = Date.now() + 20_000;
      while ((await t.call('sync.status', {})).notice?.code !== 'STORE_REPLACED' && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
      const status = await t.call('sync.status', {});
      expect(status.notice).toMatchObject({ code: 'STORE_REPLACED' });
      expect(status.waiting).toBeGreaterThan(150);
      expect(status.waiting).toBeLessThan(300);
      expect(readdirSync(dataDir).filter((f) => /^packdesk\.sqlite\.broken-[^.]*$/.test(f) && !f.endsWith('-wal') && !f.endsWith('-shm'))).toHaveLength(1);
      expect(readFileSync(join(t.host.logDir, 'packdesk.log'), 'utf8')).toContain('the data file is damaged');
    } finally {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stops once, however many callers ask', async () => {
    const t = await startTestHost();
    await Promise.all([t.host.stop(), t.host.stop(), t.host.stop()]);
    expect(t.host.engine()).toBeNull();
    expect(t.host.sandbox).toBeNull();
    await t.close();
  });
});
