/**
 * Consumers the chain may make on a store's chain streams cannot pile up (issue 37, item 5): a
 * durable is refused at the link whatever its form; an ephemeral kept idle for an hour is removed
 * by the hub PC's keeper; a flood of them stops at the chain account's consumer limit; the
 * centre's own source and drill-downs go on working throughout. Real nats-server processes.
 */
import { nanos } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFleet } from '../../src/fleet/central';
import { readOpenOrders } from '../../src/fleet/drill';
import { CHAIN_CONSUMER_IDLE_MAX_MS, consumerRefusal, sweepChainConsumers } from '../../src/main/core/hub/chain/keeper';
import { startOpenOrdersSender } from '../../src/main/core/hub/chain/open-orders';
import { CHAIN_LIMITS } from '../../src/main/core/hub/server/accounts';
import { systemTimers } from '../../src/main/core/time';
import { Cleanup } from '../support/engine';
import { until } from '../support/until';
import { type Central, startCentral, startStore, type TestStore } from './fleet-world';
import { runFleet } from '../../src/fleet/cli';

const decode = (data: Uint8Array): string => new TextDecoder().decode(data);

describe('consumers from the chain on a store', () => {
  const cleanup = new Cleanup();
  let central: Central;
  let store: TestStore;

  beforeAll(async () => {
    central = await startCentral(cleanup);
    store = await startStore(cleanup, central, 'store-k', 1, 1_000, { keeperSweepMs: 500 });
    cleanup.add(startOpenOrdersSender({ nc: store.nc, storeId: 'store-k', orders: () => [], now: Date.now, timers: systemTimers, everyMs: 1_000 }));
    await runFleet(['stores', 'add', 'store-k', '--server', central.server.url], { env: {}, write: () => undefined, writeError: () => undefined, now: Date.now });
    await until('the store heard at the centre', async () => (await readFleet(central.nc)).latest.length > 0, 20_000, 250);
  }, 60_000);
  afterAll(() => cleanup.run(), 30_000);

  const create = async (subject: string, config: Record<string, unknown>): Promise<string> => {
    try {
      const reply = await central.nc.request(subject, JSON.stringify({ stream_name: 'PACKDESK_OPEN', config }), { timeout: 1_500 });
      const answer = JSON.parse(decode(reply.data)) as { name?: string; error?: { description?: string } };
      return answer.name ? `made ${answer.name}` : `refused: ${answer.error?.description ?? '?'}`;
    } catch (error) {
      return `refused: ${String(error).slice(0, 60)}`;
    }
  };
  const consumers = async (): Promise<string[]> => (await (await jetstreamManager(store.chainNc)).consumers.list('PACKDESK_OPEN').next()).filter((c) => c !== null).map((c) => c.name);

  it('refuses a durable in every form the JetStream API has for one', async () => {
    const durable = { durable_name: 'pile', deliver_subject: 'centre.pile', ack_policy: 'none' };
    const tries = [
      await create('$JS.store-k.API.CONSUMER.DURABLE.CREATE.PACKDESK_OPEN.pile', durable),
      await create('$JS.store-k.API.CONSUMER.CREATE.PACKDESK_OPEN', durable),
      await create('$JS.store-k.API.CONSUMER.CREATE.PACKDESK_OPEN.pile', { ...durable, name: 'pile' }),
      await create('$JS.store-k.API.CONSUMER.CREATE.PACKDESK_OPEN.pile.packdesk.open.store-k', { ...durable, name: 'pile', filter_subject: 'packdesk.open.store-k' }),
    ];
    expect(tries.filter((t) => !t.startsWith('refused'))).toEqual([]);
    expect(await consumers()).not.toContain('pile');
  }, 20_000);

  it('removes ephemerals kept idle past the limit, stops a flood at the account limit, and keeps the centre reading', async () => {
    const idle = { deliver_subject: 'centre.idle', ack_policy: 'none', inactive_threshold: nanos(3_600_000) };
    const made = [];
    for (let i = 0; i < 50; i += 1) made.push(await create('$JS.store-k.API.CONSUMER.CREATE.PACKDESK_OPEN', idle));
    // No more than the chain account's limit are held at once, however fast they came (the keeper
    // may remove some while the flood goes on, so more than the limit can be made one after another).
    expect(made.length).toBe(50);
    expect((await consumers()).length).toBeLessThanOrEqual(CHAIN_LIMITS.consumers);
    await until('the keeper has removed every idle one', async () => (await consumers()).length === 0, 15_000, 250);
    // The centre's source (JetStream's own, an ephemeral with seconds of idle limit) and a drill-down still work.
    const before = (await readFleet(central.nc)).latest.find((m) => m.message.kind === 'counter')!.message.seq;
    await until('new health at the centre', async () => (await readFleet(central.nc)).latest.find((m) => m.message.kind === 'counter')!.message.seq > before, 15_000, 250);
    expect((await readOpenOrders(central.nc, 'store-k')).state).toBe('ok');
  }, 60_000);

  it('keeps only push ephemerals with a short idle limit', () => {
    expect(consumerRefusal({ config: { durable_name: 'x', deliver_subject: 'd', ack_policy: 'none' } as never })).toBe('durable');
    expect(consumerRefusal({ config: { ack_policy: 'explicit' } as never })).toBe('pull');
    expect(consumerRefusal({ config: { deliver_subject: 'd', inactive_threshold: nanos(CHAIN_CONSUMER_IDLE_MAX_MS + 1) } as never })).toBe('kept idle too long');
    expect(consumerRefusal({ config: { deliver_subject: 'd', inactive_threshold: nanos(5_000) } as never })).toBeNull();
  });

  it('sweeps past a consumer the server lists as null while it is being deleted', async () => {
    const deleted: string[] = [];
    const jsm = {
      consumers: {
        list: () => ({ next: async () => [null, { name: 'kept', config: { durable_name: 'kept' } }] }),
        delete: async (_stream: string, name: string) => { deleted.push(name); return true; },
      },
    };
    const log = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };
    expect(await sweepChainConsumers(jsm as never, log as never)).toBeGreaterThan(0);
    expect(new Set(deleted)).toEqual(new Set(['kept']));
  });
});
