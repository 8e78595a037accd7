import { afterEach, describe, expect, it, vi } from 'vitest';
import { accept, freshOrder, startWorld, updateOf, type World } from '../../../support/world';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** A world with a token already in hand, so a fault hits the update call and not the token request. */
async function warmWorld(options: Parameters<typeof startWorld>[0] = {}): Promise<{ world: World; orderId: string }> {
  const w = await startWorld(options);
  const order = freshOrder(w.sandbox);
  await accept(w, order.id);
  return { world: w, orderId: order.id };
}

const invoice = (n: number) => ({ type: 'CLIENT_ORDER_INFO_UPDATE', clientOrderInfo: { sellerInvoiceId: `INV-${n}` } }) as const;

describe('order service client: injected faults end in the right class', () => {
  it('errorRate 1: transient with the 503 status, and the update was not applied', async () => {
    ({ world } = await warmWorld());
    const [order] = world.sandbox.orders().filter((o) => o.orderState.toUpperCase() === 'ACCEPTED');
    world.sandbox.faults.set({ errorRate: 1 });
    const outcome = await world.send(updateOf(order?.id ?? '', invoice(1)));
    expect(outcome).toMatchObject({ kind: 'transient', status: 503, noAnswer: false });
    if (outcome.kind === 'transient') expect(outcome.message).toMatch(/HTTP 503/);
  });

  it('outage refuse: transient, and noAnswer is false (nothing can have been sent)', async () => {
    let orderId: string;
    ({ world, orderId } = await warmWorld());
    world.sandbox.faults.set({ outage: 'refuse' });
    // The first call may go out on a kept-alive connection the service has just cut: that one may
    // honestly have been sent (noAnswer true). Every call after it meets a refused connection.
    const first = await world.send(updateOf(orderId, invoice(2)));
    expect(first.kind).toBe('transient');
    const outcome = await world.send(updateOf(orderId, invoice(2)));
    expect(outcome).toMatchObject({ kind: 'transient', noAnswer: false });
    if (outcome.kind === 'transient') expect(outcome.message).toMatch(/refused the connection/);
    expect(await world.client.probe()).toBe(false);

    // When the service is back (it listens again a moment after the switch), the same request goes through.
    world.sandbox.faults.set({ outage: 'none' });
    const w = world;
    await vi.waitFor(async () => expect(await w.client.probe()).toBe(true), { timeout: 10_000, interval: 20 });
    expect((await world.send(updateOf(orderId, invoice(2)))).kind).toBe('success');
  });

  it('outage hang with a short client timeout: transient with noAnswer true (it may have landed)', async () => {
    let orderId: string;
    ({ world, orderId } = await warmWorld({ client: { timeoutMs: 300, probeTimeoutMs: 300 } }));
    world.sandbox.faults.set({ outage: 'hang' });
    const outcome = await world.send(updateOf(orderId, invoice(3)));
    expect(outcome).toMatchObject({ kind: 'transient', noAnswer: true });
    if (outcome.kind === 'transient') expect(outcome.message).toMatch(/did not answer within 0.3 s/);
    expect(await world.client.probe()).toBe(false);
  });

  it('a caller that gives up (AbortSignal) gets transient with noAnswer true', async () => {
    let orderId: string;
    ({ world, orderId } = await warmWorld());
    world.sandbox.faults.set({ outage: 'hang' });
    const controller = new AbortController();
    const pending = world.send(updateOf(orderId, invoice(4)), controller.signal);
    // Abort once the request is on its way to the hanging service.
    setTimeout(() => controller.abort(), 50);
    const outcome = await pending;
    expect(outcome).toMatchObject({ kind: 'transient', noAnswer: true });
    if (outcome.kind === 'transient') expect(outcome.message).toMatch(/cancelled/);
  });

  it('outage reset: transient (the connection was cut after the request went out)', async () => {
    let orderId: string;
    ({ world, orderId } = await warmWorld());
    world.sandbox.faults.set({ outage: 'reset' });
    const outcome = await world.send(updateOf(orderId, invoice(5)));
    expect(outcome).toMatchObject({ kind: 'transient', noAnswer: true });
  });

  it('rateLimit: transient 429 with Retry-After in milliseconds', async () => {
    let orderId: string;
    ({ world, orderId } = await warmWorld());
    world.sandbox.faults.set({ rateLimit: { count: 1, retryAfterSeconds: 7 } });
    const outcome = await world.send(updateOf(orderId, invoice(6)));
    expect(outcome).toMatchObject({ kind: 'transient', status: 429, retryAfterMs: 7000, noAnswer: false });
    // The limit was for one request only.
    expect((await world.send(updateOf(orderId, invoice(6)))).kind).toBe('success');
  });

  it('malformedBodies: unreadable, with the raw body kept, and the update was applied', async () => {
    let orderId: string;
    ({ world, orderId } = await warmWorld({ client: { maxRawBodyBytes: 64 * 1024 } }));
    world.sandbox.faults.set({ malformedBodies: 1 });
    const request = updateOf(orderId, invoice(7));
    const outcome = await world.send(request);
    expect(outcome.kind).toBe('unreadable');
    if (outcome.kind !== 'unreadable') return;
    expect(outcome.status).toBe(200);
    expect(outcome.rawBody.length).toBeGreaterThan(0);
    expect(Buffer.byteLength(outcome.rawBody)).toBeLessThanOrEqual(64 * 1024);
    expect(outcome.message).toMatch(/probably applied/);
    expect(world.sandbox.appliedLog().some((e) => e.requestId === request.requestContext.requestId)).toBe(true);
  });

  it('keeps at most maxRawBodyBytes of an unreadable body', async () => {
    let orderId: string;
    ({ world, orderId } = await warmWorld({ client: { maxRawBodyBytes: 16 } }));
    world.sandbox.faults.set({ malformedBodies: 1 });
    const outcome = await world.send(updateOf(orderId, invoice(8)));
    expect(outcome.kind).toBe('unreadable');
    if (outcome.kind === 'unreadable') expect(Buffer.byteLength(outcome.rawBody)).toBeLessThanOrEqual(16);
  });

  it('token server unreachable: transient with noAnswer false (the update was never sent)', async () => {
    world = await startWorld();
    const order = freshOrder(world.sandbox);
    world.sandbox.faults.set({ outage: 'refuse' });
    const outcome = await world.send(updateOf(order.id, { type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' }));
    expect(outcome).toMatchObject({ kind: 'transient', noAnswer: false });
    if (outcome.kind === 'transient') expect(outcome.message).toMatch(/token server/i);
    expect(world.tokens.status().credentials).toBe('unknown');
  });
});
