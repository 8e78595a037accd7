/**
 * The token server's state: issued access tokens and the refresh token paired with each.
 * Refresh tokens rotate: using one makes it invalid. Old access tokens stay valid until they
 * expire (as most OAuth servers do), so calls already in flight during a refresh do not fail.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

export interface TokenResponseBody {
  access_token: string;
  refresh_token: string;
  token_type: 'O-Bearer';
  expires_in: number;
  expires_at: number;
  issued_at: number;
}

/** An OAuth error answer: status and body. Messages never repeat a secret or a token. */
export interface TokenRefusal {
  status: 400 | 401;
  body: { error: 'invalid_client' | 'invalid_grant' | 'invalid_request'; error_description: string };
}

export type GrantOutcome =
  | { ok: true; grant: 'client_credentials' | 'refresh_token'; body: TokenResponseBody }
  | { ok: false; grant: 'client_credentials' | 'refresh_token' | 'other'; refusal: TokenRefusal };

/** What an Authorization header is worth to the order service. */
export type TokenCheck = 'valid' | 'expired' | 'unknown';

/** The form fields of a token request; anything else in the form is ignored. */
export const TokenFormSchema = z.looseObject({
  grant_type: z.string().optional(),
  client_id: z.string().optional(),
  client_secret: z.string().optional(),
  token: z.string().optional(),
  refresh_token: z.string().optional(),
});
export type TokenForm = z.infer<typeof TokenFormSchema>;

export interface TokenPolicy {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly ttlSeconds: number;
  readonly now: () => number;
  /** Read at each grant so faults switched at run time take effect at once. */
  readonly refuseRefresh: () => boolean;
  readonly rejectCredentials: () => boolean;
  /** How far the token server's clock is from the service's (ms): shifts the issued_at and expires_at it sends. */
  readonly clockOffsetMs?: () => number;
}

interface AccessRecord {
  expiresAt: number;
}

interface RefreshRecord {
  /** The access token issued with it; a refresh must name it in `token`. */
  accessToken: string;
}

const refusal = (status: 400 | 401, error: TokenRefusal['body']['error'], description: string): TokenRefusal => ({
  status,
  body: { error, error_description: description },
});

/** Compares secrets in constant time (hashing first evens out the lengths). */
function sameSecret(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

/** Opaque, unguessable tokens from the OS's random source, as a real token server would issue. */
function newToken(): string {
  return randomBytes(24).toString('base64url');
}

/** Issues, rotates, checks and expires tokens. */
export class TokenStore {
  private readonly access = new Map<string, AccessRecord>();
  private readonly refresh = new Map<string, RefreshRecord>();

  constructor(private readonly policy: TokenPolicy) {}

  /** Handles one token request (already parsed from the form). */
  grant(form: TokenForm): GrantOutcome {
    const grantType = form.grant_type;
    if (grantType !== 'client_credentials' && grantType !== 'refresh_token') {
      const r =
        grantType === undefined || grantType === ''
          ? refusal(400, 'invalid_request', 'grant_type is missing')
          : refusal(400, 'invalid_request', 'grant_type must be client_credentials or refresh_token');
      return { ok: false, grant: 'other', refusal: r };
    }
    const fail = (r: TokenRefusal): GrantOutcome => ({ ok: false, grant: grantType, refusal: r });
    if (!form.client_id || !form.client_secret) return fail(refusal(400, 'invalid_request', 'client_id and client_secret are required'));
    if (!sameSecret(form.client_id, this.policy.clientId) || !sameSecret(form.client_secret, this.policy.clientSecret))
      return fail(refusal(401, 'invalid_client', 'Unknown client or wrong client secret'));

    if (grantType === 'client_credentials') {
      if (this.policy.rejectCredentials()) return fail(refusal(401, 'invalid_client', 'The client credentials were rejected'));
      return { ok: true, grant: grantType, body: this.issue() };
    }

    if (!form.refresh_token || !form.token) return fail(refusal(400, 'invalid_request', 'token and refresh_token are required'));
    if (this.policy.refuseRefresh()) return fail(refusal(400, 'invalid_grant', 'Refresh is not possible now; request a new token'));
    const record = this.refresh.get(form.refresh_token);
    if (!record) return fail(refusal(400, 'invalid_grant', 'The refresh token is unknown or was already used'));
    if (record.accessToken !== form.token) return fail(refusal(400, 'invalid_grant', 'The token does not belong to this refresh token'));
    this.refresh.delete(form.refresh_token);
    return { ok: true, grant: grantType, body: this.issue() };
  }

  /** Checks an access token presented to the order service. */
  check(accessToken: string): TokenCheck {
    const record = this.access.get(accessToken);
    if (!record) return 'unknown';
    return this.policy.now() >= record.expiresAt ? 'expired' : 'valid';
  }

  /** Expires every access token issued so far; their refresh tokens stay usable. */
  expireAll(): number {
    const now = this.policy.now();
    for (const record of this.access.values()) record.expiresAt = Math.min(record.expiresAt, now);
    return this.access.size;
  }

  private issue(): TokenResponseBody {
    const issuedAt = this.policy.now();
    const accessToken = newToken();
    const refreshToken = newToken();
    const expiresAt = issuedAt + this.policy.ttlSeconds * 1000;
    this.access.set(accessToken, { expiresAt });
    this.refresh.set(refreshToken, { accessToken });
    return {
      access_token: accessToken,
      refresh_token: refreshToken,
      token_type: 'O-Bearer',
      expires_in: this.policy.ttlSeconds,
      expires_at: expiresAt + (this.policy.clockOffsetMs?.() ?? 0),
      issued_at: issuedAt + (this.policy.clockOffsetMs?.() ?? 0),
    };
  }
}
