/**
 * `fleet serve` on real nats-server processes: a central server and two store hubs (leaf nodes in
 * their own domains) with two counters each; the hub PC of each publishes its open orders from
 * rows that carry customers' names, phones and addresses (as the hub's do). The page's JSON against
 * the real centre, the page itself in Chromium (table, charts, drill-down, axe), and what the
 * centre can and cannot read of a store.
 */
import { mkdirSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Kvm } from '@nats-io/kv';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureFleetStream } from '../../src/fleet/central';
import { openOrdersOf, startOpenOrdersSender } from '../../src/main/core/hub/chain/open-orders';
import type { FleetSeries } from '../../src/fleet/history';
import { runFleet } from '../../src/fleet/cli';
import { exposedWarning, type FleetServer, startFleetServer, type StoreDrill } from '../../src/fleet/serve';
import type { FleetStatus } from '../../src/fleet/status';
import { systemTimers } from '../../src/main/core/time';
import type { OrderSummary } from '../../src/shared/ipc';
import { axe } from '../support/axe';
import { connectChromium } from '../support/shared-chromium';
import { Cleanup } from '../support/engine';
import { type Central, roundTripThrough, startCentral, startStore, type TestStore, until } from './fleet-world';

const EVERY_MS = 2_000;
/** What a store's rows and order bodies carry that must never reach the centre. */
const CUSTOMER = { names: ['Asha Verma', 'Rohan Iyer'], phones: ['+91 98100 12345', '9876501234'], addresses: ['12 MG Road', 'Flat 4B, Lake View'] };
const CUSTOMER_WORDS = [...CUSTOMER.names, ...CUSTOMER.phones, ...CUSTOMER.addresses];
const SHOTS = path.join('test-results', 'fleet');

type Row = Pick<OrderSummary, 'id' | 'nextStep' | 'promisedPackedAt' | 'alarm' | 'facts'>;

/** Queue rows as the hub PC holds them: facts with the customer's name, and the order body in the hub's bucket. */
function rowsOf(prefix: string): Row[] {
  const facts = (customer: string) => ({ orderState: 'Accepted', customer, lines: 2, units: 3, prescription: false });
  return [
    { id: `${prefix}-1001`, nextStep: { key: 'ACCEPT', label: 'Accept' }, promisedPackedAt: Date.now() + 600_000, facts: facts(CUSTOMER.names[0]!) },
    { id: `${prefix}-1002`, nextStep: { key: 'PACKED', label: 'Mark packed' }, promisedPackedAt: Date.now() - 60_000, facts: facts(CUSTOMER.names[1]!) },
    { id: `${prefix}-1003`, nextStep: { key: 'PACKING', label: 'Start packing' }, promisedPackedAt: null, alarm: { kind: 'cancelled', at: Date.now() } as never, facts: facts(CUSTOMER.names[0]!) },
    { id: `${prefix}-0999`, nextStep: null, promisedPackedAt: null, facts: facts(CUSTOMER.names[1]!) },
  ] as Row[];
}

async function get(server: FleetServer, route: string, init: RequestInit = {}): Promise<{ status: number; text: string; headers: Headers }> {
  const res = await fetch(new URL(route, server.url), init);
  return { status: res.status, text: await res.text(), headers: res.headers };
}

describe('fleet serve', () => {
  const cleanup = new Cleanup();
  let central: Central;
  let stores: TestStore[];
  let server: FleetServer;

  beforeAll(async () => {
    central = await startCentral(cleanup);
    stores = [await startStore(cleanup, central, 'store-a', 2, EVERY_MS), await startStore(cleanup, central, 'store-b', 2, EVERY_MS)];
    await ensureFleetStream(central.nc, stores.map((s) => s.storeId));
    stores[0]!.summary = { ...stores[0]!.summary, late: 2 };
    stores[1]!.counters[1]!.figures = { ...stores[1]!.counters[1]!.figures, tapsWaiting: 14 };
    for (const store of stores) {
      // The hub PC: its rows (with customers) through the product's own mapping and sender.
      const rows = rowsOf(store.storeId === 'store-a' ? 'ORD-A' : 'ORD-B');
      const hubCounter = store.counters[1]!;
      const claimOf = (id: string) => (id.endsWith('-1002') ? { counterId: hubCounter.counterId, counterName: hubCounter.counterName, claimedAt: Date.now() - 120_000 } : null);
      const stop = startOpenOrdersSender({ nc: store.nc, storeId: store.storeId, orders: () => openOrdersOf(rows, claimOf, Date.now()), now: Date.now, timers: systemTimers, everyMs: EVERY_MS });
      cleanup.add(stop);
      // The hub's orders bucket holds the full bodies, as a store's does.
      const bucket = await new Kvm(store.nc).create('packdesk-orders');
      for (const [i, row] of rows.entries()) await bucket.put(row.id, JSON.stringify({ id: row.id, customer: { name: CUSTOMER.names[i % 2], phone: CUSTOMER.phones[i % 2], address: CUSTOMER.addresses[i % 2] } }));
    }
    server = await startFleetServer({ nc: central.nc, port: 0 });
    cleanup.add(() => server.close());
    await until('four counters at the centre with their figures', 30_000, async () => {
      const s = JSON.parse((await get(server, '/api/status')).text) as FleetStatus;
      const counters = s.stores.flatMap((st) => st.counters);
      return counters.length === 4 && counters.some((c) => c.health.tapsWaiting === 14) && s.stores.every((st) => st.summary) ? s : null;
    });
  }, 90_000);
  afterAll(() => cleanup.run(), 30_000);

  it('answers the status, the charts and a drill-down as JSON from the real centre, and refuses what it should', async () => {
    const status = JSON.parse((await get(server, '/api/status')).text) as FleetStatus;
    expect(status.stores.map((s) => s.storeId)).toEqual(['store-b', 'store-a']);
    expect(status.stores[0]!.counters[0]).toMatchObject({ health: { counterName: 'Counter 2', tapsWaiting: 14 }, problems: ['backlog'] });

    const { value: series } = await until('the charts see store-b holding 15 taps', 15_000, async () => {
      const s = JSON.parse((await get(server, '/api/history?minutes=15')).text) as FleetSeries;
      return s.tapsWaiting.find((t) => t.storeId === 'store-b')?.values.at(-1) === 15 ? s : null;
    });
    expect(series.times).toHaveLength(120);
    expect(series.tapsWaiting.find((t) => t.storeId === 'store-a')!.values.at(-1)).toBe(3);
    expect(series.countersOffline.at(-1)).toBe(0);
    expect(series.lateByHour).toHaveLength(24);
    expect(series.lateByHour.at(-1)!.late).toBe(2);

    const drill = JSON.parse((await get(server, '/api/stores/store-a')).text) as StoreDrill;
    expect(drill.store?.counters).toHaveLength(2);
    expect(drill.open).toMatchObject({ state: 'ok', list: { storeId: 'store-a', more: 0 } });
    if (drill.open.state !== 'ok') throw new Error('no list');
    expect(drill.open.list.orders).toEqual([
      { orderId: 'ORD-A-1001', nextStep: 'ACCEPT', late: false, cancelledAlarm: false, claim: null },
      { orderId: 'ORD-A-1002', nextStep: 'PACKED', late: true, cancelledAlarm: false, claim: { counterId: 'store-a-c2', counterName: 'Counter 2', claimedAt: expect.any(Number) as number } },
      { orderId: 'ORD-A-1003', nextStep: 'PACKING', late: false, cancelledAlarm: true, claim: null },
    ]);

    const page = await get(server, '/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.text).not.toMatch(/<script>|<style>|style="/);
    expect((await get(server, '/fleet.js')).text.length).toBeGreaterThan(1000);
    expect((await get(server, '/api/stores/no%20such')).status).toBe(400);
    expect((await get(server, '/api/history?minutes=0')).status).toBe(400);
    expect((await get(server, '/api/status', { method: 'POST' })).status).toBe(405);
    // Another name for this address (DNS rebinding) is refused; fetch cannot set Host, node:http can.
    const rebound = await new Promise<number>((resolve, reject) => {
      http.get(new URL('/api/status', server.url), { headers: { Host: `evil.example:${server.port}` } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      }).on('error', reject);
    });
    expect(rebound).toBe(421);
    expect((await get(server, '/nothing')).status).toBe(404);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  }, 40_000);

  it('lets no customer name, phone or address reach the centre: not in the drill-down, not to a centre subscriber, no consumer on the orders bucket', async () => {
    const seen: string[] = [];
    const sub = central.nc.subscribe('>', {
      callback: (_e, m) => {
        seen.push(`${m.subject} ${new TextDecoder().decode(m.data)}`);
      },
    });
    await central.nc.flush();
    // The subscription's interest went down each link before these round trips: both hubs know of it.
    for (const store of stores) await roundTripThrough(central.nc, store.storeId);
    // Counters write and watch order bodies meanwhile, as a store does all day.
    const bucket = await new Kvm(stores[0]!.nc).open('packdesk-orders');
    const watch = await bucket.watch();
    void (async () => {
      for await (const _ of watch) void _;
    })();
    await bucket.put('ORD-A-1004', JSON.stringify({ customer: { name: CUSTOMER.names[0], phone: CUSTOMER.phones[0], address: CUSTOMER.addresses[0] } }));
    const { value: raw } = await until('the drill-down read from the store', 15_000, async () => {
      const text = (await get(server, '/api/stores/store-a')).text;
      return (JSON.parse(text) as StoreDrill).open.state === 'ok' ? text : null;
    });
    // Then a counter's figures on the same connection, through the north stream and the link: a leak of the body would have arrived first.
    // (A clock difference one millisecond off: no problem on any screen, put back at once.)
    const counter = stores[0]!.counters[0]!;
    const figures = counter.figures;
    const nudged = (figures.clockDifferenceMs ?? 0) + 1;
    counter.figures = { ...figures, clockDifferenceMs: nudged };
    counter.sender.changed();
    const marked = `"clockDifferenceMs":${nudged}`;
    await until('the counter’s new figures heard at the centre', 15_000, async () => (seen.some((m) => m.includes(marked)) ? true : null));
    counter.figures = figures;
    counter.sender.changed();
    watch.stop();
    sub.unsubscribe();
    for (const word of CUSTOMER_WORDS) {
      expect(raw, word).not.toContain(word);
      expect(seen.filter((m) => m.includes(word)), word).toEqual([]);
    }
    expect(seen.filter((m) => m.startsWith('$KV.') || m.startsWith('_PDHUB.'))).toEqual([]);
    // Every field of the drill-down's list is one the schema allows: ids, steps, claims.
    const drill = JSON.parse(raw) as StoreDrill;
    if (drill.open.state !== 'ok') throw new Error(drill.open.words);
    for (const order of drill.open.list.orders) {
      expect(Object.keys(order).sort()).toEqual(['cancelledAlarm', 'claim', 'late', 'nextStep', 'orderId']);
      if (order.claim) expect(Object.keys(order.claim).sort()).toEqual(['claimedAt', 'counterId', 'counterName']);
    }
    // The centre cannot open a consumer on the store's orders bucket (it would read the bodies): the
    // link lands in the chain's account, where there is no such stream; a durable is refused at the link.
    const request = JSON.stringify({ stream_name: 'KV_packdesk-orders', config: { deliver_subject: '_INBOX.centre', ack_policy: 'none', deliver_policy: 'all' } });
    const answer = await central.nc.request('$JS.store-a.API.CONSUMER.CREATE.KV_packdesk-orders', request, { timeout: 1_500 });
    expect((JSON.parse(new TextDecoder().decode(answer.data)) as { error?: { description?: string } }).error?.description).toBe('stream not found');
    await expect(central.nc.request('$JS.store-a.API.CONSUMER.DURABLE.CREATE.KV_packdesk-orders.spy', request, { timeout: 1_500 })).rejects.toThrow();
  }, 30_000);

  it('keeps each store to itself: a store hub stream holds only its own north messages and open orders, never another store relayed by the centre', async () => {
    const { jetstreamManager } = await import('@nats-io/jetstream');
    for (const store of stores) {
      // What the store keeps for the centre lives in the chain's account.
      const jsm = await jetstreamManager(store.chainNc);
      const north = Object.keys((await jsm.streams.info('PACKDESK_NORTH', { subjects_filter: '>' })).state.subjects ?? {});
      expect(north.length).toBeGreaterThan(0);
      expect(north.filter((subject) => !subject.startsWith(`packdesk.north.${store.storeId}.`))).toEqual([]);
      const open = Object.keys((await jsm.streams.info('PACKDESK_OPEN', { subjects_filter: '>' })).state.subjects ?? {});
      expect(open).toEqual([`packdesk.open.${store.storeId}`]);
    }
  }, 20_000);

  it('fleet serve (the CLI) listens on 127.0.0.1 by default, prints its address, says why when told to listen wider, and refuses a bad port', async () => {
    let stop = (): void => undefined;
    const stopped = new Promise<void>((r) => (stop = r));
    let out = '';
    let err = '';
    const io = { env: {}, write: (t: string) => (out += t), writeError: (t: string) => (err += t), now: Date.now, stopped };
    const running = runFleet(['serve', '--port', '0', '--server', central.server.url], io);
    await until('the address printed', 15_000, async () => (out.includes('http://') ? true : null));
    const url = /http:\/\/127\.0\.0\.1:\d+\//.exec(out)?.[0];
    expect(url, out).toBeDefined();
    expect((await fetch(new URL('/api/status', url))).status).toBe(200);
    stop();
    await expect(running).resolves.toBe(0);
    expect(err).toBe('');
    expect(exposedWarning('127.0.0.1', 8740)).toBeNull();
    expect(exposedWarning('0.0.0.0', 8740)).toMatch(/^fleet serve: listening on 0\.0\.0\.0:8740\. The page has no login/);
    const bad = { ...io, writeError: (t: string) => (err += t) };
    await expect(runFleet(['serve', '--port', 'eighty', '--server', central.server.url], bad)).resolves.toBe(2);
    expect(err).toContain('--port must be a whole number');
  }, 40_000);

  describe('in Chromium', () => {
    let browser: Browser;
    let page: Page;
    const consoleErrors: string[] = [];

    beforeAll(async () => {
      mkdirSync(SHOTS, { recursive: true });
      browser = await connectChromium();
      page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
      page.on('console', (m) => {
        if (m.type() === 'error') consoleErrors.push(m.text());
      });
      page.on('pageerror', (e) => consoleErrors.push(e.message));
      await page.goto(server.url);
    }, 30_000);
    afterAll(async () => {
      await browser?.close();
    });

    it('shows the table with the right counters, problems first, and filters it', async () => {
      await page.locator('tr[data-counter]').nth(3).waitFor();
      expect(await page.locator('tr.store-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-store')))).toEqual(['store-b', 'store-a']);
      const first = page.locator('tr[data-counter]').first();
      expect(await first.getAttribute('data-counter')).toBe('store-b-c2');
      await expect(first.locator('td').nth(2).textContent()).resolves.toBe('14');
      await expect(first.textContent()).resolves.toContain('taps waiting too long');
      await expect(page.locator('tr[data-counter="store-a-c1"] td').nth(1).textContent()).resolves.toBe('1.4.0');
      await expect(page.locator('#updated').textContent()).resolves.toMatch(/2 stores · 4 counters · 1 store with problems/);

      await page.getByLabel('Only problems').check();
      expect(await page.locator('tr[data-counter]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-counter')))).toEqual(['store-b-c2']);
      await page.getByLabel('Only problems').uncheck();
      await page.getByLabel('Store or counter').fill('store-a');
      expect(await page.locator('tr.store-row').count()).toBe(1);
      await page.getByLabel('Store or counter').fill('');
      expect(await page.locator('tr[data-counter]').count()).toBe(4);
    }, 30_000);

    it('draws the charts from the fleet stream', async () => {
      await page.locator('#window').selectOption('15');
      const line = page.locator('#chart-taps polyline[data-series="store-b"]');
      await page.waitForFunction(() => document.querySelector('#chart-taps svg')?.getAttribute('aria-label')?.includes('store-b 15'), undefined, { timeout: 20_000 });
      const points = ((await line.getAttribute('points')) ?? '').split(' ');
      expect(points).toHaveLength(120);
      // The line ends higher (smaller y) than it starts: taps arrived during the window.
      const y = (p: string): number => Number(p.split(',')[1]);
      expect(y(points.at(-1)!)).toBeLessThan(y(points[0]!));
      await expect(page.locator('#chart-taps .legend').textContent()).resolves.toContain('store-b: 15');
      expect(Number(await page.locator('#chart-late rect').last().getAttribute('data-late'))).toBe(2);
      await expect(page.locator('#chart-offline polyline').count()).resolves.toBe(1);
    }, 30_000);

    it('opens a store: its counters and open orders (ids, steps, claims), no customer data; axe finds nothing serious', async () => {
      await page.locator('button[data-open="store-a"]').click();
      await page.locator('[data-testid="drill-orders"] tr[data-order]').nth(2).waitFor({ timeout: 10_000 });
      expect(await page.locator('[data-testid="drill-orders"] tr[data-order]').evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent)))).toEqual([
        ['ORD-A-1001', 'Accept', 'no', '—'],
        ['ORD-A-1002', 'Mark packed', 'late', expect.stringMatching(/^Counter 2 since \d\d:\d\d$/) as string],
        ['ORD-A-1003', 'Start packingcancelled alarm', 'no', '—'],
      ]);
      await expect(page.locator('[data-testid="drill-counters"] tbody tr').count()).resolves.toBe(2);
      await expect(page.locator('#drill-title').evaluate((e) => e === document.activeElement)).resolves.toBe(true);
      const text = await page.locator('body').innerText();
      for (const word of CUSTOMER_WORDS) expect(text).not.toContain(word);

      await page.screenshot({ path: path.join(SHOTS, 'fleet-1366x768.png') });
      const findings = await axe(page);
      expect(findings.filter((f) => f.impact === 'serious' || f.impact === 'critical')).toEqual([]);
      await page.setViewportSize({ width: 1920, height: 1080 });
      // The charts are drawn again to the new width once the resize settles.
      await page.waitForFunction(() => (document.querySelector('#chart-taps svg')?.getAttribute('viewBox') ?? '').split(' ')[2] !== '0' && Number((document.querySelector('#chart-taps svg')?.getAttribute('viewBox') ?? '').split(' ')[2]) > 500);
      await page.screenshot({ path: path.join(SHOTS, 'fleet-1920x1080.png') });
      expect((await axe(page)).filter((f) => f.impact === 'serious' || f.impact === 'critical')).toEqual([]);
      expect(consoleErrors).toEqual([]);
    }, 40_000);

    it('says in words when the open store is cut off from the centre', async () => {
      await stores[0]!.setLink(false);
      const words = page.locator('[data-testid="drill-words"]');
      await words.waitFor({ timeout: 20_000 });
      await expect(words.textContent()).resolves.toMatch(/^Store store-a (cannot be reached from the centre now|did not answer within \d+ s): its link to the centre is down( or very slow)?( or its hub PC is off)?\. Its last figures are in the table\.$/);
      await expect(page.locator('[data-testid="drill-orders"]').count()).resolves.toBe(0);
      await page.screenshot({ path: path.join(SHOTS, 'fleet-cut-off.png') });
      await page.locator('#drill-close').click();
      await expect(page.locator('#drill').isHidden()).resolves.toBe(true);
      await expect(page.locator('button[data-open="store-a"]').evaluate((e) => e === document.activeElement)).resolves.toBe(true);
    }, 40_000);
  });
});
