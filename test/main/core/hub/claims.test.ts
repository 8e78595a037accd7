/**
 * Claims through a real nats-server (Debian's 2.9.10 on 127.0.0.1), each counter its own client
 * connection: a race has one winner, a claim shows on the other counter within a second, a
 * take-over moves it and tells the first counter, a claim lapses after its quiet period, a release
 * ends it, and with the hub away a claim says it could not check.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Claim, ClaimOutcome } from '../../../../src/shared/hub';
import type { NatsConnection } from '@nats-io/transport-node';
import { connectionState } from '../../../../src/main/core/hub/nats/connection';
import { type ClaimEvent, type Claims, openClaims } from '../../../../src/main/core/hub/claims';
import { keyOf } from '../../../../src/main/core/hub/keys';
import { type Bucket, openBucket } from '../../../../src/main/core/hub/nats/buckets';
import { HUB_BUCKETS } from '../../../../src/main/core/hub/registry';
import type { TestNatsServer } from '../../../support/nats';
import { until } from '../../../support/until';
import { Cleanup, counterConnection, hub, waitFor } from './helpers';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const QUIET = 15 * 60_000;

/** A counter's claims on its own connection; `skewMs` sets its clock off, `quietMs` is the store's quiet period. */
async function counter(server: TestNatsServer, n: number, skewMs = 0, quietMs = QUIET): Promise<{ nc: NatsConnection; claims: Claims; events: ClaimEvent[] }> {
  const nc = await counterConnection(cleanup, server);
  const claims = await openClaims(nc, {
    counter: { counterId: `c${n}`, counterName: `Counter ${n}` },
    now: () => Date.now() + skewMs,
    quietMs: () => quietMs,
  });
  cleanup.add(() => claims.close());
  const events: ClaimEvent[] = [];
  claims.on((e) => events.push(e));
  return { nc, claims, events };
}

/**
 * Counts what a counter asks of the hub from now on (requests and publishes on its connection): a
 * claim seen through the watch, or an answer given at once, asks nothing. A count, not a stopwatch,
 * so a loaded machine cannot fail it and a poll or a write's timeout cannot pass it.
 */
function asksOf(nc: NatsConnection): () => number {
  let asked = 0;
  const conn = nc as unknown as Record<'request' | 'requestMany' | 'publish', (...args: unknown[]) => unknown>;
  for (const name of ['request', 'requestMany', 'publish'] as const) {
    const original = conn[name]!.bind(nc);
    conn[name] = (...args: unknown[]) => {
      asked++;
      return original(...args);
    };
  }
  return () => asked;
}

/**
 * The hub's clock now (epoch ms): its stamp on a write of the test's own, as the claims read it (a
 * `clock.` key, which no order has). A lapse is judged on the hub's stamps, so its timing is
 * checked on them too, not on this process's clock.
 */
async function hubClock(kv: Bucket): Promise<number> {
  const revision = await kv.put('clock.test', '');
  return (await kv.get('clock.test', { revision }))!.created.getTime();
}

/** The hub's stamp on the last write of an order's claim. */
async function stampOf(kv: Bucket, orderId: string): Promise<number> {
  return (await kv.get(keyOf(orderId)))!.created.getTime();
}

const holder = (outcome: ClaimOutcome): string | null => (outcome.kind === 'held' ? outcome.claim.counterId : outcome.kind === 'taken' ? outcome.by.counterId : null);

describe('claims through the hub', () => {
  it('two counters racing for the same order 200 times: exactly one wins each time, the other is told who at once', async () => {
    const server = await hub(cleanup);
    const [one, two] = [await counter(server, 1), await counter(server, 2)];
    const wins = { c1: 0, c2: 0 };
    for (let i = 0; i < 200; i++) {
      // Ids that are not KV keys as they stand: dots split keys, spaces and slashes are refused.
      const orderId = `ORD ${i}/x.${i % 3 === 0 ? 'ü' : 'a'}`;
      const [a, b] = await Promise.all([one.claims.claim(orderId), two.claims.claim(orderId)]);
      const kinds = [a.kind, b.kind].sort();
      expect(kinds, `race ${i}`).toEqual(['held', 'taken']);
      // Both name the same winner: the loser's "taken by" is the winner's claim.
      expect(holder(a)).toBe(holder(b));
      wins[holder(a) as 'c1' | 'c2'] += 1;
      expect((a.kind === 'held' ? a.claim : b.kind === 'held' ? b.claim : null)?.orderId).toBe(orderId);
    }
    expect(wins.c1 + wins.c2).toBe(200);
  });

  it('a claim shows on another counter within a second; a take-over moves it and tells the first counter', async () => {
    const server = await hub(cleanup);
    const [one, two] = [await counter(server, 1), await counter(server, 2)];
    const twoAsked = asksOf(two.nc);
    const outcome = await one.claims.claim('A-100', { packer: 'Asha' });
    expect(outcome).toMatchObject({ kind: 'held', claim: { counterId: 'c1', counterName: 'Counter 1', packer: 'Asha' } });
    // Pushed to counter 2 by its watch as it happens: counter 2 asks the hub nothing to see it (the
    // 10 s only guards a hang).
    await waitFor(() => two.claims.claimOf('A-100')?.counterId === 'c1', 10_000, 'claim seen on counter 2');
    expect(twoAsked(), 'requests counter 2 made to see the claim').toBe(0);
    expect(two.events).toContainEqual({ kind: 'claim', orderId: 'A-100', claim: expect.objectContaining({ counterName: 'Counter 1' }) });
    const claim = two.claims.claimOf('A-100') as Claim;
    expect(claim.expiresAt - claim.renewedAt).toBe(QUIET);

    // Without take-over, counter 2 is told who packs it; with it (the confirmed act), the claim moves.
    expect(await two.claims.claim('A-100')).toMatchObject({ kind: 'taken', by: { counterId: 'c1' } });
    expect(await two.claims.claim('A-100', { takeOver: true })).toMatchObject({ kind: 'held', claim: { counterId: 'c2' } });
    await waitFor(() => one.events.some((e) => e.kind === 'claimTaken'), 1_000, 'counter 1 told');
    expect(one.events).toContainEqual({ kind: 'claimTaken', orderId: 'A-100', by: expect.objectContaining({ counterId: 'c2', counterName: 'Counter 2' }) });
    expect(one.claims.claimOf('A-100')?.counterId).toBe('c2');
    // Counter 1 renewing its lost claim does not take it back.
    expect(await one.claims.renew('A-100')).toMatchObject({ kind: 'taken', by: { counterId: 'c2' } });
    expect(two.claims.claimOf('A-100')?.counterId).toBe('c2');
  });

  it('an unrenewed claim lapses after the quiet period and another counter may claim it; renewing keeps it; clocks that differ change neither', async () => {
    const server = await hub(cleanup);
    // A quiet period of 1.5 s stands in for 15 min. It is real time: a lapse is judged on the hub's
    // own stamps (nats-server's clock), which no test clock moves. Counter 2's clock runs 20 min
    // ahead, counter 1's 5 min behind.
    const quiet = 1_500;
    const [one, two] = [await counter(server, 1, -5 * 60_000, quiet), await counter(server, 2, 20 * 60_000, quiet)];
    const kv = await openBucket(await counterConnection(cleanup, server), HUB_BUCKETS.claims);
    await one.claims.claim('L-1');
    await one.claims.claim('L-2');
    const [claimedL1, claimedL2] = [await stampOf(kv, 'L-1'), await stampOf(kv, 'L-2')];
    await waitFor(() => two.claims.claimOf('L-1') !== null && two.claims.claimOf('L-2') !== null, 1_000, 'claims seen');
    // A clock 20 minutes ahead does not make a live claim lapse, nor does it on a counter that opens
    // now and has heard no change yet.
    expect(await two.claims.claim('L-1')).toMatchObject({ kind: 'taken', by: { counterId: 'c1' } });
    const late = await counter(server, 3, 20 * 60_000, quiet);
    await waitFor(() => late.claims.claimOf('L-1') !== null, 500, 'live claim on a counter opened late');
    expect(await late.claims.claim('L-1')).toMatchObject({ kind: 'taken', by: { counterId: 'c1' } });
    // L-2 renewed halfway through its quiet period, by the hub's clock, and before it ran out.
    await until("the hub's clock halfway through L-2's quiet period", async () => (await hubClock(kv)) >= claimedL2 + quiet / 2, 5_000, 50);
    expect(await one.claims.renew('L-2')).toMatchObject({ kind: 'held', claim: { counterId: 'c1' } });
    expect((await stampOf(kv, 'L-2')) - claimedL2, 'L-2 renewed before its first quiet period ran out').toBeLessThan(quiet);
    await waitFor(() => two.claims.claimOf('L-1') === null, 3_000, 'L-1 lapsed on counter 2');
    // Not early: the hub's stamp on a write made after counter 2 let L-1 go is a quiet period (less
    // the error of counter 2's reading of the hub's clock) after L-1's. A loaded machine only makes it later.
    expect((await hubClock(kv)) - claimedL1, "ms on the hub's clock from L-1's claim to a write after its lapse").toBeGreaterThan(quiet - 100);
    // Renewing kept L-2: past the end of the quiet period it was first claimed for, it is still held.
    await until("the hub's clock past L-2's first quiet period", async () => (await hubClock(kv)) >= claimedL2 + quiet + 100, 5_000, 50);
    expect(two.claims.claimOf('L-2')?.counterId).toBe('c1');
    expect(await two.claims.claim('L-1')).toMatchObject({ kind: 'held', claim: { counterId: 'c2' } });
    expect(await two.claims.claim('L-2')).toMatchObject({ kind: 'taken', by: { counterId: 'c1' } });
    // A lapse raises no event on the hub: the counter announces it itself.
    await waitFor(() => two.events.some((e) => e.kind === 'claim' && e.orderId === 'L-2' && e.claim === null), 3_000, 'L-2 lapse announced');
  });

  it("a release ends the claim on every counter; another counter's release leaves it alone", async () => {
    const server = await hub(cleanup);
    const [one, two] = [await counter(server, 1), await counter(server, 2)];
    await one.claims.claim('R-1');
    await waitFor(() => two.claims.claimOf('R-1') !== null, 1_000, 'claim seen');
    await two.claims.release('R-1');
    expect(one.claims.claimOf('R-1')?.counterId).toBe('c1');
    expect((await one.claims.claim('R-1')).kind).toBe('held');
    await one.claims.release('R-1');
    await waitFor(() => two.claims.claimOf('R-1') === null, 1_000, 'release seen');
    expect(two.events.at(-1)).toEqual({ kind: 'claim', orderId: 'R-1', claim: null });
    expect(await two.claims.claim('R-1')).toMatchObject({ kind: 'held', claim: { counterId: 'c2' } });
  });

  it('with the hub away a claim says it could not check; once the hub is back claims work and show on every counter again', async () => {
    const server = await hub(cleanup);
    const [one, two] = [await counter(server, 1), await counter(server, 2)];
    await one.claims.claim('H-0');
    await waitFor(() => two.claims.claimOf('H-0') !== null, 1_000, 'claim seen before the kill');
    const link = connectionState(one.nc);
    await server.kill();
    // The connection's end is noticed at once here (the socket closes); a packer is not kept waiting:
    // the claim answers without asking the hub, so no write's timeout is waited out.
    await waitFor(() => !link.connected(), 10_000, 'counter 1 sees the hub gone');
    const asked = asksOf(one.nc);
    expect(await one.claims.claim('H-1')).toEqual({ kind: 'unchecked' });
    expect(await one.claims.renew('H-0')).toEqual({ kind: 'unchecked' });
    expect(asked(), 'requests sent to a hub that is away').toBe(0);
    await server.restart();
    let outcome: ClaimOutcome = { kind: 'unchecked' };
    const deadline = Date.now() + 10_000;
    while (outcome.kind === 'unchecked' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      outcome = await one.claims.claim('H-1');
    }
    expect(outcome).toMatchObject({ kind: 'held' });
    // The store folder kept the claim made before; counter 2's watch came back by itself.
    await waitFor(() => two.claims.claimOf('H-1')?.counterId === 'c1', 1_000, 'claim made after the restart seen on counter 2');
    expect(await two.claims.claim('H-0')).toMatchObject({ kind: 'taken', by: { counterId: 'c1' } });
  }, 20_000);
});
