import { describe, expect, it } from 'vitest';
import { refreshTime, storedTokensSchema, tokenExpiry, toEpochMs } from '../../../../src/main/core/auth';
import type { TokenResponse } from '../../../../src/shared/protocol';

const HOUR = 3_600_000;
const base = (over: Partial<TokenResponse>): TokenResponse => ({
  access_token: 'at',
  token_type: 'O-Bearer',
  expires_in: 3600,
  ...over,
});

describe('token expiry on a terminal whose clock may be wrong', () => {
  const serverNow = Date.UTC(2025, 0, 10, 12, 0, 0);

  it('uses receive time + expires_in when the server clock agrees with ours', () => {
    const t = tokenExpiry(base({ issued_at: serverNow, expires_at: serverNow + HOUR }), serverNow + 50);
    expect(t.expiresAt).toBe(serverNow + 50 + HOUR);
    expect(t.clockSkewMs).toBe(50);
  });

  it('shifts expires_at onto a clock that is 2 hours fast instead of treating the token as expired', () => {
    const localReceive = serverNow + 2 * HOUR;
    const t = tokenExpiry(base({ issued_at: serverNow, expires_at: serverNow + HOUR }), localReceive);
    expect(t.clockSkewMs).toBe(2 * HOUR);
    expect(t.expiresAt).toBe(localReceive + HOUR);
    expect(t.lifetimeMs).toBe(HOUR);
  });

  it('shifts expires_at onto a clock that is 3 hours slow', () => {
    const localReceive = serverNow - 3 * HOUR;
    const t = tokenExpiry(base({ issued_at: serverNow, expires_at: serverNow + HOUR }), localReceive);
    expect(t.clockSkewMs).toBe(-3 * HOUR);
    expect(t.expiresAt).toBe(localReceive + HOUR);
  });

  it('takes the earlier of expires_in and the server expiry', () => {
    // The server says the token lives 10 minutes although expires_in says an hour.
    const t = tokenExpiry(base({ issued_at: serverNow, expires_at: serverNow + 600_000 }), serverNow + HOUR);
    expect(t.expiresAt).toBe(serverNow + HOUR + 600_000);
  });

  it('accepts issued_at and expires_at in seconds', () => {
    const t = tokenExpiry(base({ issued_at: serverNow / 1000, expires_at: serverNow / 1000 + 1800 }), serverNow);
    expect(t.expiresAt).toBe(serverNow + 1_800_000);
    expect(toEpochMs(1_700_000_000)).toBe(1_700_000_000_000);
    expect(toEpochMs(1_700_000_000_000)).toBe(1_700_000_000_000);
  });

  it('ignores an expires_at that is not after issued_at rather than refreshing in a loop', () => {
    const t = tokenExpiry(base({ issued_at: serverNow, expires_at: serverNow - 1 }), serverNow);
    expect(t.expiresAt).toBe(serverNow + HOUR);
  });

  it('believes no clock difference over a day: an issued_at of 0 or of another year is as if none were sent', () => {
    for (const issued_at of [0, serverNow - 3 * 24 * HOUR, serverNow + 400 * 24 * HOUR])
      expect(tokenExpiry(base({ issued_at, expires_at: issued_at + HOUR }), serverNow)).toEqual({ expiresAt: serverNow + HOUR, lifetimeMs: HOUR });
    // A clock set to the wrong time zone is still a clock difference.
    expect(tokenExpiry(base({ issued_at: serverNow }), serverNow + 5.5 * HOUR).clockSkewMs).toBe(5.5 * HOUR);
    // Nor is one believed from the keychain: such saved tokens are not used, and a new token is asked for.
    const saved = { accessToken: 'at', tokenType: 'O-Bearer', expiresAt: serverNow };
    expect(storedTokensSchema().safeParse({ ...saved, clockSkewMs: -5.5 * HOUR }).success).toBe(true);
    expect(storedTokensSchema().safeParse({ ...saved, clockSkewMs: 2 * 24 * HOUR }).success).toBe(false);
  });

  it('without issued_at, trusts only expires_in (expires_at cannot be put on our clock)', () => {
    const t = tokenExpiry(base({ expires_at: 1 }), serverNow);
    expect(t).toEqual({ expiresAt: serverNow + HOUR, lifetimeMs: HOUR });
  });
});

describe('refresh time', () => {
  it('refreshes margin + jitter ahead of expiry', () => {
    expect(refreshTime({ expiresAt: 10 * HOUR, lifetimeMs: HOUR }, 300_000, 120_000, () => 0)).toBe(10 * HOUR - 300_000);
    expect(refreshTime({ expiresAt: 10 * HOUR, lifetimeMs: HOUR }, 300_000, 120_000, () => 0.5)).toBe(10 * HOUR - 360_000);
  });

  it('never refreshes a short-lived token earlier than half its life', () => {
    expect(refreshTime({ expiresAt: 60_000, lifetimeMs: 60_000 }, 300_000, 120_000, () => 0.9)).toBe(30_000);
  });
});
