import { afterEach, describe, expect, it } from 'vitest';
import { CREDENTIALS_REJECTED_MESSAGE, NO_CREDENTIALS_MESSAGE, TokenManager } from '../../../../src/main/core/auth';
import { accept, freshOrder, startWorld, updateOf, type World } from '../../../support/world';
import { TRAINING } from '../../../support/credentials';
import { manualTimers } from '../../../support/clock';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const invoice = (n: number | string) => ({ type: 'CLIENT_ORDER_INFO_UPDATE', clientOrderInfo: { sellerInvoiceId: `INV-${n}` } }) as const;
const HOUR = 3_600_000;

/** Statuses the service answered for one requestId, in order. */
const statusesOf = (w: World, requestId: string): number[] =>
  w.sandbox.requestLog().filter((e) => e.requestId === requestId).map((e) => e.status);

describe('token manager: expired token at the order service', () => {
  for (const expiredStatus of [401, 412] as const) {
    it(`${expiredStatus}: exactly one refresh and one retry, and the update lands`, async () => {
      world = await startWorld({ sandbox: { expiredStatus } });
      const order = freshOrder(world.sandbox);
      await accept(world, order.id);
      world.sandbox.expireTokensNow();

      const request = updateOf(order.id, invoice(expiredStatus));
      const outcome = await world.send(request);
      expect(outcome.kind).toBe('success');
      expect(statusesOf(world, request.requestContext.requestId)).toEqual([expiredStatus, 200]);
      expect(world.sandbox.stats().tokenRequests).toEqual({ client_credentials: 1, refresh_token: 1, refused: 0 });
    });
  }

  it('100 concurrent calls on an expired token cause exactly one token request', async () => {
    world = await startWorld({ sandbox: { orderCount: 160 } });
    const w = world;
    // Orders that can still take an invoice number (not cancelled or completed).
    const orders = w.sandbox
      .orders()
      .filter((o) => !['CANCELLED', 'COMPLETED'].includes(o.orderState.toUpperCase()))
      .slice(0, 100);
    expect(orders.length).toBe(100);
    expect((await w.tokens.authorization()).ok).toBe(true);
    w.sandbox.expireTokensNow();
    const before = w.sandbox.stats();

    const outcomes = await Promise.all(orders.map((o, i) => w.send(updateOf(o.id, invoice(`C${i}`)))));
    expect(outcomes.map((o) => o.kind)).toEqual(orders.map(() => 'success'));
    const after = w.sandbox.stats();
    expect(after.tokenRequests.refresh_token - before.tokenRequests.refresh_token).toBe(1);
    expect(after.tokenRequests.client_credentials - before.tokenRequests.client_credentials).toBe(0);
    // Each call: one refused attempt, one retry.
    expect(after.updateRequests - before.updateRequests).toBe(200);
  });

  it('100 concurrent callers on a token expired by our own clock share one token request', async () => {
    let clock = Date.now();
    world = await startWorld({ manager: { now: () => clock, proactive: false } });
    const w = world;
    const first = await w.tokens.authorization();
    expect(first.ok).toBe(true);
    clock += 2 * HOUR;

    const headers = await Promise.all(Array.from({ length: 100 }, () => w.tokens.authorization()));
    const distinct = new Set(headers.map((h) => (h.ok ? h.value : 'failed')));
    expect(distinct.size).toBe(1);
    expect(distinct.has('failed')).toBe(false);
    expect(w.sandbox.stats().tokenRequests).toEqual({ client_credentials: 1, refresh_token: 1, refused: 0 });
  });

  it('a refused refresh falls back to client_credentials', async () => {
    world = await startWorld();
    const order = freshOrder(world.sandbox);
    await accept(world, order.id);
    world.sandbox.faults.set({ refuseRefresh: true });
    world.sandbox.expireTokensNow();

    const outcome = await world.send(updateOf(order.id, invoice('fallback')));
    expect(outcome.kind).toBe('success');
    expect(world.sandbox.stats().tokenRequests).toEqual({ client_credentials: 2, refresh_token: 1, refused: 1 });
  });

  it('a fresh token refused again ends in auth after one refresh, not a loop', async () => {
    const ref: { sandbox?: World['sandbox'] } = {};
    // Every update reaches the service with an already expired token.
    const expiringFetch: typeof fetch = async (input, init) => {
      ref.sandbox?.expireTokensNow();
      return fetch(input, init);
    };
    world = await startWorld({ client: { fetch: expiringFetch } });
    ref.sandbox = world.sandbox;
    const order = freshOrder(world.sandbox);
    const outcome = await world.send(updateOf(order.id, invoice('twice')));
    expect(outcome).toMatchObject({ kind: 'auth', status: 401 });
    expect(world.sandbox.stats().tokenRequests).toEqual({ client_credentials: 1, refresh_token: 1, refused: 0 });
    expect(world.sandbox.stats().updateRequests).toBe(2);
  });
});

describe('token manager: credentials', () => {
  it('wrong credentials end in an auth outcome, with one token request however often it is asked', async () => {
    world = await startWorld({ credentials: { clientId: 'training', clientSecret: 'not-the-secret' } });
    const w = world;
    const order = freshOrder(w.sandbox);
    const outcomes = [
      await w.send(updateOf(order.id, invoice(1))),
      ...(await Promise.all(Array.from({ length: 20 }, (_, i) => w.send(updateOf(order.id, invoice(i + 2)))))),
      await w.send(updateOf(order.id, invoice(99))),
    ];
    for (const outcome of outcomes) expect(outcome).toEqual({ kind: 'auth', message: CREDENTIALS_REJECTED_MESSAGE });
    expect(w.sandbox.stats().tokenRequests).toEqual({ client_credentials: 1, refresh_token: 0, refused: 1 });
    expect(w.sandbox.stats().updateRequests).toBe(0);
    expect(w.tokens.status().credentials).toBe('rejected');

    // A manager enters the right ones: they are checked, saved, and updates flow again.
    const saved = await w.tokens.saveCredentials(TRAINING);
    expect(saved).toEqual({ ok: true, value: { verified: true, message: 'Credentials saved; the token server accepted them.' } });
    expect(await w.vault.getCredentials()).toEqual(TRAINING);
    expect((await w.send(updateOf(order.id, invoice(100)))).kind).toBe('success');
    expect(w.tokens.status().credentials).toBe('ok');
  });

  it('new credentials the token server refuses are not saved', async () => {
    world = await startWorld();
    const saved = await world.tokens.saveCredentials({ clientId: 'training', clientSecret: 'typo-secret' });
    expect(saved).toMatchObject({ ok: false, problem: { kind: 'auth', code: 'CREDENTIALS_REJECTED' } });
    if (!saved.ok) world.remember(saved.problem.message);
    expect(await world.vault.getCredentials()).toEqual(TRAINING);
  });

  it('credentials rejected after a refused refresh: auth, and no further token requests', async () => {
    world = await startWorld();
    const order = freshOrder(world.sandbox);
    await accept(world, order.id);
    world.sandbox.faults.set({ refuseRefresh: true, rejectCredentials: true });
    world.sandbox.expireTokensNow();
    expect(await world.send(updateOf(order.id, invoice(1)))).toMatchObject({ kind: 'auth', message: CREDENTIALS_REJECTED_MESSAGE });
    const after = world.sandbox.stats().tokenRequests;
    expect(after).toEqual({ client_credentials: 2, refresh_token: 1, refused: 2 });
    expect(await world.send(updateOf(order.id, invoice(2)))).toMatchObject({ kind: 'auth' });
    expect(world.sandbox.stats().tokenRequests).toEqual(after);
  });

  it('missing credentials: auth "No credentials saved" without any request', async () => {
    world = await startWorld({ credentials: null });
    const order = freshOrder(world.sandbox);
    const outcome = await world.send(updateOf(order.id, invoice(1)));
    expect(outcome).toEqual({ kind: 'auth', message: NO_CREDENTIALS_MESSAGE });
    expect(outcome.kind === 'auth' && outcome.message.startsWith('No credentials saved')).toBe(true);
    expect(world.sandbox.stats()).toMatchObject({ tokenRequests: { client_credentials: 0, refresh_token: 0, refused: 0 }, updateRequests: 0 });
    expect(world.tokens.status().credentials).toBe('missing');
  });

  it('a wrong token server address is an auth problem about the address, not rejected credentials', async () => {
    world = await startWorld();
    const wrong = new TokenManager({ authUrl: `${world.sandbox.url}/not-the-token-server`, vault: world.vault });
    try {
      const result = await wrong.authorization();
      expect(result).toMatchObject({ ok: false, problem: { kind: 'auth', code: 'TOKEN_SERVER_ADDRESS' } });
      if (!result.ok) expect(result.problem.message).toMatch(/check the token server address/);
      expect(wrong.status().credentials).not.toBe('rejected');
    } finally {
      await wrong.close();
    }
  });

  it('sends the spec form body and headers for both grants', async () => {
    const calls: { headers: Record<string, string>; form: Record<string, string> }[] = [];
    const recording: typeof fetch = async (input, init) => {
      calls.push({ headers: init?.headers as Record<string, string>, form: Object.fromEntries(new URLSearchParams(String(init?.body))) });
      return fetch(input, init);
    };
    let clock = Date.now();
    world = await startWorld({ manager: { fetch: recording, now: () => clock, proactive: false } });
    const first = await world.tokens.authorization();
    clock += 2 * HOUR;
    await world.tokens.authorization();
    expect(calls).toHaveLength(2);
    for (const call of calls) {
      expect(call.headers.Accept).toBe('application/json');
      expect(call.headers['Content-Type']).toBe('application/x-www-form-urlencoded');
    }
    expect(calls[0]?.form).toEqual({ client_id: 'training', client_secret: 'training-secret', grant_type: 'client_credentials' });
    const [, access] = first.ok ? first.value.split(' ') : [];
    expect(calls[1]?.form).toMatchObject({ client_id: 'training', client_secret: 'training-secret', grant_type: 'refresh_token', token: access });
    expect(calls[1]?.form.refresh_token).toBe(world.issued[1]);
  });
});

describe('token manager: expiry and refresh ahead of time', () => {
  it("computes expiry on the terminal's clock when the token server's clock is 2 hours ahead", async () => {
    world = await startWorld({ sandbox: { now: () => Date.now() + 2 * HOUR } });
    const order = freshOrder(world.sandbox);
    await accept(world, order.id);
    const skew = world.tokens.clockSkewMs();
    expect(skew).not.toBeNull();
    expect(Math.abs((skew ?? 0) + 2 * HOUR)).toBeLessThan(60_000);
    const status = world.tokens.status();
    expect(status.hasToken).toBe(true);
    // Valid for about the token's one-hour life on our clock, neither already expired nor 3 hours long.
    expect((status.expiresAt ?? 0) - Date.now()).toBeGreaterThan(HOUR - 60_000);
    expect((status.expiresAt ?? 0) - Date.now()).toBeLessThanOrEqual(HOUR);
    // And it is used, not refreshed on every call.
    for (let i = 0; i < 3; i++) expect((await world.send(updateOf(order.id, invoice(i)))).kind).toBe('success');
    expect(world.sandbox.stats().tokenRequests.client_credentials + world.sandbox.stats().tokenRequests.refresh_token).toBe(1);
  });

  it("keeps using a token when the terminal's own clock is 5 hours slow", async () => {
    world = await startWorld({ manager: { now: () => Date.now() - 5 * HOUR } });
    const order = freshOrder(world.sandbox);
    await accept(world, order.id);
    expect(Math.abs((world.tokens.clockSkewMs() ?? 0) + 5 * HOUR)).toBeLessThan(60_000);
    for (let i = 0; i < 3; i++) expect((await world.send(updateOf(order.id, invoice(i)))).kind).toBe('success');
    expect(world.sandbox.stats().tokenRequests).toEqual({ client_credentials: 1, refresh_token: 0, refused: 0 });
  });

  it('refreshes on its timer a few minutes before expiry, so no call ever meets a 401', async () => {
    let clock = Date.now();
    const manual = manualTimers();
    world = await startWorld({ manager: { now: () => clock, timers: manual.timers, random: () => 0.5 } });
    const order = freshOrder(world.sandbox);
    await accept(world, order.id);
    const { expiresAt, refreshAt } = world.tokens.status();
    if (expiresAt === null || refreshAt === null) throw new Error('no token');
    // 5 minutes + half of the 2 minutes of jitter.
    expect(expiresAt - refreshAt).toBe(6 * 60_000);
    const before = await world.tokens.authorization();

    clock = refreshAt + 1;
    expect(manual.fire(60_000)).toBe(1);
    await world.tokens.whenIdle();
    expect(world.sandbox.stats().tokenRequests).toEqual({ client_credentials: 1, refresh_token: 1, refused: 0 });
    const after = await world.tokens.authorization();
    expect(after.ok && before.ok && after.value !== before.value).toBe(true);

    const request = updateOf(order.id, invoice('after-refresh'));
    expect((await world.send(request)).kind).toBe('success');
    expect(statusesOf(world, request.requestContext.requestId)).toEqual([200]);
  });

  it('refreshes ahead of expiry when asked inside the refresh window, answering at once with the current token', async () => {
    let clock = Date.now();
    world = await startWorld({ manager: { now: () => clock, proactive: false } });
    const w = world;
    const before = await w.tokens.authorization();
    const { refreshAt } = w.tokens.status();
    clock = (refreshAt ?? 0) + 1;

    const during = await Promise.all(Array.from({ length: 50 }, () => w.tokens.authorization()));
    // Still valid: every caller got the current token without waiting for the refresh.
    for (const header of during) expect(header).toEqual(before);
    await w.tokens.whenIdle();
    expect(w.sandbox.stats().tokenRequests).toEqual({ client_credentials: 1, refresh_token: 1, refused: 0 });
    const after = await w.tokens.authorization();
    expect(after.ok && before.ok && after.value !== before.value).toBe(true);
  });

  it('a failed refresh ahead of expiry keeps the current token and does not hammer the token server', async () => {
    let clock = Date.now();
    world = await startWorld({ manager: { now: () => clock, proactive: false } });
    const w = world;
    const before = await w.tokens.authorization();
    w.sandbox.faults.set({ refuseRefresh: true, rejectCredentials: true });
    clock = (w.tokens.status().refreshAt ?? 0) + 1;
    expect(await w.tokens.authorization()).toEqual(before);
    await w.tokens.whenIdle();
    for (let i = 0; i < 10; i++) expect(await w.tokens.authorization()).toEqual(before);
    await w.tokens.whenIdle();
    expect(w.sandbox.stats().tokenRequests).toEqual({ client_credentials: 2, refresh_token: 1, refused: 2 });
    expect(w.tokens.status()).toMatchObject({ credentials: 'rejected', hasToken: true });
  });
});

describe('token manager: vault and cancellation', () => {
  it('a restarted manager uses the token saved in the vault without asking for a new one', async () => {
    world = await startWorld();
    const order = freshOrder(world.sandbox);
    await accept(world, order.id);
    const again = new TokenManager({ authUrl: world.sandbox.url, vault: world.vault });
    try {
      expect(await again.authorization()).toEqual(await world.tokens.authorization());
      expect(world.sandbox.stats().tokenRequests).toEqual({ client_credentials: 1, refresh_token: 0, refused: 0 });
    } finally {
      await again.close();
    }
  });

  it("a restarted manager knows how far its clock is from the token server's before it asks for a token", async () => {
    // This terminal's clock runs 17 minutes ahead of the service's.
    const ahead = 17 * 60_000;
    world = await startWorld({ manager: { now: () => Date.now() + ahead } });
    await accept(world, freshOrder(world.sandbox).id);
    const again = new TokenManager({ authUrl: world.sandbox.url, vault: world.vault, now: () => Date.now() + ahead });
    try {
      expect(again.clockSkewMs()).toBeNull();
      const serviceNow = await again.serviceNow();
      expect(Math.abs(serviceNow - Date.now())).toBeLessThan(5_000);
      expect(Math.abs((again.clockSkewMs() ?? 0) - ahead)).toBeLessThan(5_000);
      expect(world.sandbox.stats().tokenRequests).toEqual({ client_credentials: 1, refresh_token: 0, refused: 0 });
    } finally {
      await again.close();
    }
  });

  it('asks the token server once per read, not twice, while a terminal with no token cannot get one', async () => {
    let asked = 0;
    world = await startWorld({
      manager: {
        fetch: async () => {
          asked += 1;
          throw new TypeError('fetch failed');
        },
      },
    });
    // The first read asks for a token to learn the service's clock, and its own call finds that failure.
    expect(Math.abs((await world.tokens.serviceNow()) - Date.now())).toBeLessThan(1_000);
    expect(asked).toBe(1);
    // Later reads leave the asking to their own call.
    for (let i = 0; i < 3; i++) await world.tokens.serviceNow();
    expect(asked).toBe(1);
  });

  it('a caller that gives up waiting does not cancel the token request others share', async () => {
    world = await startWorld({ sandbox: {} });
    const w = world;
    w.sandbox.faults.set({ latencyMs: 200 });
    const impatient = new AbortController();
    const first = w.tokens.authorization(impatient.signal);
    const second = w.tokens.authorization();
    impatient.abort();
    expect(await first).toMatchObject({ ok: false, problem: { kind: 'transient', code: 'CANCELLED' } });
    const shared = await second;
    expect(shared.ok).toBe(true);
    expect(w.sandbox.stats().tokenRequests).toEqual({ client_credentials: 1, refresh_token: 0, refused: 0 });
  });

  it('a token server that does not answer in time is transient, with the time in the message', async () => {
    world = await startWorld({ manager: { requestTimeoutMs: 200 } });
    world.sandbox.faults.set({ outage: 'hang' });
    const result = await world.tokens.authorization();
    expect(result).toMatchObject({ ok: false, problem: { kind: 'transient', code: 'TOKEN_SERVER_UNAVAILABLE' } });
    if (!result.ok) {
      world.remember(result.problem.message);
      expect(result.problem.message).toMatch(/token server .* did not answer within 0.2 s/);
    }
  });
});
