import { describe, expect, it } from 'vitest';
import { tokenResponseSchema } from '../../src/shared/protocol/schemas';
import { postUpdate, sandbox, token, tokenRequest, updateBody } from '../support/sandbox-http';
import { manualClock } from '../support/clock';
import { TRAINING } from '../support/credentials';

const creds = { client_id: TRAINING.clientId, client_secret: TRAINING.clientSecret };

describe('sandbox token server', () => {
  it('issues an O-Bearer token with client_credentials, in the spec units', async () => {
    const clock = manualClock();
    const s = await sandbox({ now: clock.now, tokenTtlSeconds: 900 });
    const a = await tokenRequest(s, { grant_type: 'client_credentials', ...creds });
    expect(a.status).toBe(200);
    expect(a.headers.get('cache-control')).toBe('no-store');
    const t = tokenResponseSchema().parse(a.json);
    expect(t.token_type).toBe('O-Bearer');
    expect(t.expires_in).toBe(900);
    expect(t.issued_at).toBe(clock.now());
    expect(t.expires_at).toBe(clock.now() + 900_000);
    expect(t.refresh_token).toBeTruthy();
    expect(t.refresh_token).not.toBe(t.access_token);
    expect(s.stats().tokenRequests).toEqual({ client_credentials: 1, refresh_token: 0, refused: 0 });
  });

  it('accepts the credentials given as options and refuses others with invalid_client, echoing no secret', async () => {
    const s = await sandbox({ clientId: 'store-42', clientSecret: 's3cret-value-42' });
    const wrong = await tokenRequest(s, { grant_type: 'client_credentials', client_id: 'store-42', client_secret: 'guessed-secret-x' });
    expect(wrong.status).toBe(401);
    expect(wrong.json).toMatchObject({ error: 'invalid_client' });
    expect(wrong.text).not.toContain('guessed-secret-x');
    expect(wrong.text).not.toContain('s3cret-value-42');
    const training = await tokenRequest(s, { grant_type: 'client_credentials', ...creds });
    expect(training.status).toBe(401);
    const right = await tokenRequest(s, { grant_type: 'client_credentials', client_id: 'store-42', client_secret: 's3cret-value-42' });
    expect(right.status).toBe(200);
    expect(s.stats().tokenRequests).toEqual({ client_credentials: 3, refresh_token: 0, refused: 2 });
  });

  it('rotates refresh tokens: a refresh gives new tokens and the used refresh token no longer works', async () => {
    const s = await sandbox();
    const first = await token(s);
    const refreshed = await tokenRequest(s, {
      grant_type: 'refresh_token',
      ...creds,
      token: first.access_token,
      refresh_token: first.refresh_token,
    });
    expect(refreshed.status).toBe(200);
    const second = tokenResponseSchema().parse(refreshed.json);
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).not.toBe(first.refresh_token);

    const reused = await tokenRequest(s, { grant_type: 'refresh_token', ...creds, token: first.access_token, refresh_token: first.refresh_token });
    expect(reused.status).toBe(400);
    expect(reused.json).toMatchObject({ error: 'invalid_grant' });
    expect(reused.text).not.toContain(first.refresh_token);

    // The new access token works on the order service.
    const order = s.orders()[0];
    const probe = await postUpdate(s, `O-Bearer ${second.access_token}`, updateBody(order?.id ?? '', 'rq-1', [
      { type: 'CLIENT_ORDER_INFO_UPDATE', clientOrderInfo: { sellerInvoiceId: 'INV-1' } },
    ]));
    expect(probe.status).not.toBe(401);
    expect(s.stats().tokenRequests).toEqual({ client_credentials: 1, refresh_token: 2, refused: 1 });
  });

  it('refuses a refresh whose token does not belong to the refresh token', async () => {
    const s = await sandbox();
    const a = await token(s);
    const b = await token(s);
    const mixed = await tokenRequest(s, { grant_type: 'refresh_token', ...creds, token: b.access_token, refresh_token: a.refresh_token });
    expect(mixed.status).toBe(400);
    expect(mixed.json).toMatchObject({ error: 'invalid_grant' });
  });

  it('answers invalid_request for a missing or unknown grant type, missing fields and a non-form body', async () => {
    const s = await sandbox();
    const cases = [
      await tokenRequest(s, { ...creds }),
      await tokenRequest(s, { grant_type: 'password', ...creds }),
      await tokenRequest(s, { grant_type: 'client_credentials', client_id: 'training' }),
      await tokenRequest(s, { grant_type: 'refresh_token', ...creds }),
    ];
    for (const a of cases) {
      expect(a.status).toBe(400);
      expect(a.json).toMatchObject({ error: 'invalid_request' });
      expect((a.json as { error_description: string }).error_description.length).toBeGreaterThan(0);
    }
    const asJson = await fetch(`${s.url}/olympus/im/v1/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', ...creds }),
    });
    expect(asJson.status).toBe(400);
    expect(await asJson.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('refuses refresh grants while refuseRefresh is on; client_credentials still works', async () => {
    const s = await sandbox();
    const t = await token(s);
    s.faults.set({ refuseRefresh: true });
    const refused = await tokenRequest(s, { grant_type: 'refresh_token', ...creds, token: t.access_token, refresh_token: t.refresh_token });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ error: 'invalid_grant' });
    expect((await tokenRequest(s, { grant_type: 'client_credentials', ...creds })).status).toBe(200);
    s.faults.set({ refuseRefresh: false });
    // The refresh token was not consumed by the refusal.
    const later = await tokenRequest(s, { grant_type: 'refresh_token', ...creds, token: t.access_token, refresh_token: t.refresh_token });
    expect(later.status).toBe(200);
  });

  it('refuses client_credentials while rejectCredentials is on', async () => {
    const s = await sandbox();
    s.faults.set({ rejectCredentials: true });
    const a = await tokenRequest(s, { grant_type: 'client_credentials', ...creds });
    expect(a.status).toBe(401);
    expect(a.json).toMatchObject({ error: 'invalid_client' });
    s.faults.reset();
    expect((await tokenRequest(s, { grant_type: 'client_credentials', ...creds })).status).toBe(200);
  });
});
