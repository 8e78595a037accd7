/**
 * A counter closing (Packdesk quitting, the hub left) while a later attempt to reach the hub is
 * still opening the store's buckets: the close waits for that attempt, then lets go of everything
 * it opened. Before, the close let go of the connection under the attempt, whose failure then read
 * a connection already cleared: an unhandled rejection (seen once in CI, in the chain screen's test).
 * A real nats-server on 127.0.0.1; the counter's first request to it is held until the test says.
 * And a close while a connect is still on its way (a hub PC that is off holds it up to its deadline)
 * does not wait for it: the connection, should it come after all, is closed at once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { HubConnection, HubConnectResult } from '../../../../src/main/core/hub/nats/connection';
import type { CounterPorts } from '../../../../src/main/core/hub/ports';
import { startHubSession } from '../../../../src/main/core/hub/session';
import { manualTimers } from '../../../support/clock';
import { Cleanup, hub } from './helpers';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const ports: CounterPorts = {
  saveOrders: () => [],
  bodies: () => [],
  heldOrderIds: () => [],
  resumeIntake: () => undefined,
  pauseIntake: () => undefined,
  ownTaps: () => [],
  presence: () => ({ tapsWaiting: 0, oldestWaitingAt: null, lastSentAt: null, clockDifferenceMs: 0, online: true }),
};

/** The connection's requests wait at a gate: `held` resolves when the first one arrives. */
function gated(nc: NatsConnection): { nc: NatsConnection; held: Promise<void>; open: () => void } {
  let arrived!: () => void;
  const held = new Promise<void>((resolve) => (arrived = resolve));
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const proxy = new Proxy(nc, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (property === 'request') {
        return async (...args: Parameters<NatsConnection['request']>) => {
          arrived();
          await gate;
          return target.request(...args);
        };
      }
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { nc: proxy, held, open };
}

function hubConnectionOver(nc: NatsConnection, real: NatsConnection): HubConnection {
  return {
    nc,
    fingerprint: 'test',
    status: () => ({ state: 'connected', since: Date.now(), problem: null }),
    onStatus: () => () => undefined,
    close: () => real.close(),
  };
}

describe('a counter closing while it is still opening the hub', () => {
  it('waits for that attempt and closes its connection, with nothing left failing afterwards', async () => {
    const server = await hub(cleanup);
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    cleanup.add(() => void process.off('unhandledRejection', onUnhandled));

    const time = manualTimers();
    let real: NatsConnection | null = null;
    let gate: ReturnType<typeof gated> | null = null;
    let attempts = 0;
    const session = startHubSession({
      me: { counterId: 'counter-1', counterName: 'Counter 1', version: '0.1.0' },
      role: 'counter',
      ports,
      now: Date.now,
      timers: time.timers,
      connect: async (): Promise<HubConnectResult> => {
        attempts += 1;
        // The first attempt finds no hub; the second reaches it.
        if (attempts === 1) return { ok: false, problem: { kind: 'unreachable', message: 'The store hub cannot be reached.' } };
        real = await connect({ servers: server.url });
        cleanup.add(() => real?.close());
        gate = gated(real);
        return { ok: true, connection: hubConnectionOver(gate.nc, real) };
      },
    });
    cleanup.add(() => session.close());

    // The first attempt failed and a retry is waiting; let it go.
    await expect.poll(() => time.pending().length).toBeGreaterThan(1);
    expect(time.fire(2_000)).toBeGreaterThan(0);
    await expect.poll(() => gate !== null).toBe(true);
    await gate!.held;

    // Closed while the buckets are opening.
    let closedDone = false;
    const closing = session.close().then(() => (closedDone = true));
    await Promise.resolve();
    gate!.open();
    await closing;

    expect(closedDone).toBe(true);
    expect(attempts).toBe(2);
    expect(real!.isClosed()).toBe(true);
    // A moment for any late failure of the attempt to surface.
    await new Promise((resolve) => setImmediate(resolve));
    expect(unhandled).toEqual([]);
    expect(session.status().intakeHolder).toBeNull();
  });

  it('does not wait for a connect still on its way, and closes the connection that comes after', async () => {
    const server = await hub(cleanup);
    let answer!: (result: HubConnectResult) => void;
    let asked = false;
    const session = startHubSession({
      me: { counterId: 'counter-1', counterName: 'Counter 1', version: '0.1.0' },
      role: 'counter',
      ports,
      now: Date.now,
      timers: manualTimers().timers,
      connect: () => {
        asked = true;
        return new Promise<HubConnectResult>((resolve) => (answer = resolve));
      },
    });
    cleanup.add(() => session.close());
    await expect.poll(() => asked).toBe(true);
    // Quitting while the hub PC is off: closed without the connect's answer.
    await session.close();
    const real = await connect({ servers: server.url });
    cleanup.add(() => real.close());
    answer({ ok: true, connection: hubConnectionOver(real, real) });
    await expect.poll(() => real.isClosed()).toBe(true);
    expect(session.status().mode).not.toBe('connected');
  });
});
