/**
 * The token request as the manager sees it: sending one (counted, for the status), what a granted
 * answer gives to keep, and the problem a failed one is said as. The manager keeps only the single
 * flight and its state; what an answer means lives here.
 */
import { fail, ProblemError, type Problem, type Result } from '../../../shared/result';
import { TOKEN_SERVER_FAULT, TOKEN_UNUSABLE } from '../api/token-source';
import { CERTIFICATE_UNTRUSTED } from '../api/http';
import type { Logger } from '../log/logger';
import { toEpochMs, tokenExpiry, type TokenTiming } from './expiry';
import { requestToken, type TokenAnswer, type TokenGrant, type TokenRequestContext } from './token-endpoint';
import type { ClientCredentials, StoredTokens } from './vault';

export type GrantedAnswer = Extract<TokenAnswer, { kind: 'granted' }>;
export type TransientAnswer = Extract<TokenAnswer, { kind: 'transient' }>;

/** As for one token request, with the manager's lifecycle signal: closing abandons a request in flight. */
export type TokenRequestsOptions = TokenRequestContext & { readonly signal: AbortSignal };

/** Sends token requests and counts them (TokenStatus.tokenRequests). */
export class TokenRequests {
  private sent = 0;

  constructor(private readonly options: TokenRequestsOptions) {}

  get count(): number {
    return this.sent;
  }

  send(credentials: ClientCredentials, grant: TokenGrant): Promise<TokenAnswer> {
    this.sent += 1;
    return requestToken(credentials, grant, this.options);
  }
}

/** What a granted answer gives to keep: the tokens, their timing, and the clock difference it measured. */
export interface GrantedTokens {
  readonly tokens: StoredTokens;
  readonly timing: TokenTiming;
  /** Receive time less `issued_at`, however large (or the believed difference without `issued_at`). */
  readonly issuedSkewMs: number | null;
}

export function grantedTokens(answer: GrantedAnswer, previousRefresh?: string): GrantedTokens {
  const { token, receivedAt } = answer;
  const timing = tokenExpiry(token, receivedAt);
  // Without a new refresh token, the old one stays valid (OAuth 2.0, section 6).
  const refreshToken = token.refresh_token ?? previousRefresh;
  const tokens: StoredTokens = {
    accessToken: token.access_token,
    tokenType: token.token_type,
    expiresAt: timing.expiresAt,
    ...(refreshToken ? { refreshToken } : {}),
    ...(timing.clockSkewMs !== undefined ? { clockSkewMs: timing.clockSkewMs } : {}),
  };
  const issued = token.issued_at === undefined ? Number.NaN : receivedAt - toEpochMs(token.issued_at);
  return { tokens, timing, issuedSkewMs: Number.isFinite(issued) ? issued : (timing.clockSkewMs ?? null) };
}

/**
 * No token now. A wrong token server address is an auth problem (a person must fix the settings;
 * retrying will not help); anything else is transient.
 */
export function unavailable(answer: TransientAnswer, log: Logger): Result<never> {
  if (answer.unusable) {
    log.warn('token server issued a token that cannot be sent', { status: answer.status });
    return fail('auth', answer.message, TOKEN_UNUSABLE);
  }
  // Said as what it is, not as the network: retrying cannot mend a certificate this computer refuses.
  if (answer.certificate) return fail('transient', answer.message, CERTIFICATE_UNTRUSTED);
  // The token server answered, just not with a token: the network is fine, so this must not read as "offline".
  if (!answer.misdirected && answer.status !== undefined) return fail('transient', answer.message, TOKEN_SERVER_FAULT);
  if (!answer.misdirected) return fail('transient', answer.message, 'TOKEN_SERVER_UNAVAILABLE');
  log.warn('token server address answers like no token server', { status: answer.status });
  return fail('auth', answer.message, 'TOKEN_SERVER_ADDRESS');
}

/** The problem a vault failure is said as; `scrub` keeps secrets out of the message. */
export function vaultProblem(error: unknown, scrub: (error: unknown) => string): Problem {
  if (error instanceof ProblemError) return error.problem;
  return { kind: 'auth', code: 'VAULT_UNAVAILABLE', message: `The credential store could not be used: ${scrub(error)}` };
}
