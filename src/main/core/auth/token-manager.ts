/**
 * The token manager: hands out the Authorization header for the order service, gets and refreshes
 * tokens from the token server, and keeps at most ONE token request in flight whatever the number
 * of waiting callers. Tokens live in memory and in the vault; every token and the client secret
 * are registered as secrets so no log line or message can carry them.
 */
import { fail, ok, type Problem, type Result } from '../../../shared/result';
import { systemTimers, type Timers } from '../time';
import type { TokenSource } from '../api/token-source';
import { silentLogger, type Logger } from '../log/logger';
import { secrets as processSecrets, type SecretRegistry } from '../log/redact';
import { refreshTime, type TokenTiming } from './expiry';
import { RefreshSchedule } from './refresh-schedule';
import { clientCredentialsSchema } from './stored-tokens';
import type { TokenGrant } from './token-endpoint';
import { grantedTokens, TokenRequests, unavailable, vaultProblem, type GrantedAnswer } from './token-request';
import {
  CREDENTIALS_REJECTED_MESSAGE,
  NO_CREDENTIALS_MESSAGE,
  type CredentialsState,
  type Held,
  type SavedCredentials,
  type TokenStatus,
} from './token-status';
import type { ClientCredentials, CredentialVault, StoredTokens } from './vault';

// What the manager reports is its interface too: said where its callers have always found it.
export { CREDENTIALS_REJECTED_MESSAGE, NO_CREDENTIALS_MESSAGE, type CredentialsState, type SavedCredentials, type TokenStatus };

export interface TokenManagerOptions {
  /** `{auth_url}` of the token server. */
  readonly authUrl: string;
  readonly vault: CredentialVault;
  readonly fetch?: typeof fetch;
  /** Wall clock (epoch ms). */
  readonly now?: () => number;
  /** Uniform [0, 1): jitter of the refresh time. */
  readonly random?: () => number;
  readonly timers?: Timers;
  /** Deadline of one token request. Default 15 s. */
  readonly requestTimeoutMs?: number;
  /** Refresh this long before expiry... Default 5 min. */
  readonly refreshMarginMs?: number;
  /** ...plus up to this much more, at random. Default 2 min. */
  readonly refreshJitterMs?: number;
  /** After a failed refresh ahead of expiry, wait this long before trying again. Default 30 s. */
  readonly retryDelayMs?: number;
  /** Refresh on a timer ahead of expiry (otherwise only when a caller asks after the refresh time). Default true. */
  readonly proactive?: boolean;
  readonly logger?: Logger;
  /** Told each time a token measured the clock difference anew (TokenStatus.clockSkewMs). */
  readonly onClockSkew?: (skewMs: number | null) => void;
  /** Registry that learns every token and secret. Default: the process-wide one. */
  readonly secrets?: SecretRegistry;
}

const sameCredentials = (a: ClientCredentials, b: ClientCredentials): boolean =>
  a.clientId === b.clientId && a.clientSecret === b.clientSecret;

/** Gets, caches and refreshes tokens; implements the order service client's TokenSource. */
export class TokenManager implements TokenSource {
  private held: Held | null = null;
  private flight: Promise<Result<Held>> | null = null;
  private loaded = false;
  private loading: Promise<void> | null = null;
  private rejectedCredentials: ClientCredentials | null = null;
  private credentialsState: CredentialsState = 'unknown';
  private clockSkew: number | null = null;
  // As measured, believed or not: the token server's witness of the clock (core/time/service-clock).
  private issuedSkew: number | null = null;
  private lastProblem: Problem | null = null;
  private closed = false;
  private readonly lifecycle = new AbortController();

  private readonly now: () => number;
  private readonly random: () => number;
  private readonly marginMs: number;
  private readonly jitterMs: number;
  private readonly log: Logger;
  private readonly secrets: SecretRegistry;
  private readonly requests: TokenRequests;
  private readonly refresh: RefreshSchedule;

  constructor(private readonly options: TokenManagerOptions) {
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    const timers: Timers = options.timers ?? systemTimers;
    this.marginMs = options.refreshMarginMs ?? 5 * 60_000;
    this.jitterMs = options.refreshJitterMs ?? 2 * 60_000;
    this.log = (options.logger ?? silentLogger).child('auth');
    this.secrets = options.secrets ?? processSecrets;
    this.requests = new TokenRequests({
      authUrl: options.authUrl,
      fetch: options.fetch ?? ((input, init) => fetch(input, init)),
      timers,
      now: this.now,
      timeoutMs: options.requestTimeoutMs ?? 15_000,
      secrets: this.secrets,
      signal: this.lifecycle.signal,
    });
    this.refresh = new RefreshSchedule({
      timers,
      now: this.now,
      retryDelayMs: options.retryDelayMs ?? 30_000,
      proactive: options.proactive ?? true,
      log: this.log,
      held: () => this.held,
      inFlight: () => this.flight !== null,
      obtain: () => this.obtain(),
    });
  }

  /** The `Authorization` header value for the order service, getting a token first if needed. */
  async authorization(signal?: AbortSignal): Promise<Result<string>> {
    if (!this.loaded) await this.load();
    const held = this.held;
    if (held && !held.invalid) {
      const now = this.now();
      if (now < held.tokens.expiresAt) {
        // Still valid: answer at once; a refresh ahead of expiry runs behind the caller's back.
        if (now >= held.refreshAt) this.refresh.refreshInBackground(now);
        return ok(held.header);
      }
    }
    return this.headerOf(this.wait(this.obtain(), signal));
  }

  /**
   * Reports that the order service refused `authorizationUsed` (401/412) and resolves with the
   * header to retry with. However many callers report the same header, one token request is made.
   */
  async rejected(authorizationUsed: string, signal?: AbortSignal): Promise<Result<string>> {
    if (!this.loaded) await this.load();
    if (this.flight) return this.headerOf(this.wait(this.flight, signal));
    const held = this.held;
    if (held && !held.invalid && held.header !== authorizationUsed && this.now() < held.tokens.expiresAt)
      return ok(held.header); // someone already replaced the refused token
    if (held && held.header === authorizationUsed && !held.invalid) {
      this.held = { ...held, invalid: true };
      this.log.info('order service refused the token; getting a new one');
    }
    return this.headerOf(this.wait(this.obtain(), signal));
  }

  /**
   * Checks new credentials with the token server and saves them in the vault when accepted (or
   * when the token server cannot be reached to check them). Refused credentials are not saved.
   */
  async saveCredentials(credentials: ClientCredentials, signal?: AbortSignal): Promise<Result<SavedCredentials>> {
    const parsed = clientCredentialsSchema().safeParse(credentials);
    if (!parsed.success) return fail('invalid', `These credentials cannot be used: ${parsed.error.issues[0]?.message ?? 'invalid'}`, 'INVALID_CREDENTIALS');
    const candidate = parsed.data;
    this.secrets.add(candidate.clientSecret);
    if (!this.loaded) await this.load();
    // Join the single-flight queue: nobody else talks to the token server while we check these.
    while (this.flight) await this.flight;
    const run = this.check(candidate).catch((error: unknown) => {
      const problem = fail<never>('transient', `Unexpected failure while checking the credentials: ${this.scrub(error)}`, 'TOKEN_UNEXPECTED');
      return { saved: problem, held: problem };
    });
    const flight: Promise<Result<Held>> = run
      .then((r) => r.held)
      .finally(() => {
        if (this.flight === flight) this.flight = null;
      });
    this.flight = flight;
    const done = await this.wait(run.then((r) => ok(r.saved)), signal);
    return done.ok ? done.value : done;
  }

  /** Forgets the tokens (memory and vault), e.g. when switching environments; keeps the credentials. */
  async forget(): Promise<void> {
    while (this.flight) await this.flight;
    this.held = null;
    this.clockSkew = null;
    this.issuedSkew = null;
    this.tellClockSkew();
    this.refresh.clear();
    await this.persist(null);
  }

  /** Local clock minus the token server's clock (ms, network delay included), or null if unknown. */
  clockSkewMs(): number | null {
    return this.clockSkew;
  }

  /**
   * Local clock minus the token server's as the last token measured it (receive time less
   * `issued_at`), however large: one witness of the clock, believed with the order service's
   * `Date` (core/time/service-clock). Null without a token or `issued_at`.
   */
  issuedSkewMs(): number | null {
    return this.issuedSkew;
  }

  /**
   * The order service's clock as this terminal best knows it: its own, less the difference the
   * last token measured (kept with the saved tokens, so known after a restart). A terminal with
   * no token yet gets one first: the caller is about to call the service with it anyway. Its own
   * clock when no token can be had; after such a failure the caller's own call does the asking,
   * so a token server that is down is not asked twice per read. The network delay in the
   * difference puts it a little behind, never ahead.
   */
  async serviceNow(): Promise<number> {
    await this.load();
    if (this.clockSkew === null && this.held === null && this.lastProblem === null) await this.authorization();
    return this.now() - (this.clockSkew ?? 0);
  }

  /** A snapshot without secrets, for doctor and the status bar. */
  status(): TokenStatus {
    const held = this.held && !this.held.invalid ? this.held : null;
    return {
      credentials: this.credentialsState,
      hasToken: held !== null && this.now() < held.tokens.expiresAt,
      expiresAt: held?.tokens.expiresAt ?? null,
      refreshAt: held?.refreshAt ?? null,
      clockSkewMs: this.clockSkew,
      lastProblem: this.lastProblem,
      tokenRequests: this.requests.count,
    };
  }

  /** Resolves when no token request is in flight. */
  async whenIdle(): Promise<void> {
    while (this.flight) await this.flight;
  }

  /** Stops the refresh timer and abandons a token request in flight. */
  async close(): Promise<void> {
    this.closed = true;
    this.refresh.stop();
    this.lifecycle.abort();
    await this.whenIdle();
  }

  // ---- single flight ------------------------------------------------------------------------

  /** Tells the listener the clock difference now known; a listener that throws is logged, never the caller's problem. */
  private tellClockSkew(): void {
    try {
      this.options.onClockSkew?.(this.clockSkew);
    } catch (e) {
      this.log.warn('clock skew listener failed', { error: e });
    }
  }

  private obtain(): Promise<Result<Held>> {
    if (this.flight) return this.flight;
    if (this.closed) return Promise.resolve(fail('transient', 'Packdesk is shutting down', 'CLOSED'));
    const flight: Promise<Result<Held>> = this.fetchTokens()
      .catch((error: unknown) =>
        fail<Held>('transient', `Unexpected failure while getting a token: ${this.scrub(error)}`, 'TOKEN_UNEXPECTED'),
      )
      .then((result) => {
        if (!result.ok) this.lastProblem = result.problem;
        return result;
      })
      .finally(() => {
        if (this.flight === flight) this.flight = null;
      });
    this.flight = flight;
    return flight;
  }

  /** The one sequence of token requests a flight makes: refresh, else client_credentials. */
  private async fetchTokens(): Promise<Result<Held>> {
    const credentials = await this.readCredentials();
    if (!credentials.ok) return credentials;
    const creds = credentials.value;
    if (this.rejectedCredentials && sameCredentials(this.rejectedCredentials, creds))
      // Already refused: asking again with the same ones would only hammer the token server.
      return fail('auth', CREDENTIALS_REJECTED_MESSAGE, 'CREDENTIALS_REJECTED');

    const previous = this.held;
    if (previous?.tokens.refreshToken) {
      const grant: TokenGrant = {
        grantType: 'refresh_token',
        accessToken: previous.tokens.accessToken,
        refreshToken: previous.tokens.refreshToken,
      };
      const answer = await this.requests.send(creds, grant);
      if (answer.kind === 'granted') return this.adopt(answer, 'refresh_token', previous.tokens.refreshToken);
      if (answer.kind === 'transient') return unavailable(answer, this.log);
      this.log.info('token server refused the refresh; asking for a new token with the client credentials', { reason: answer.reason });
    }

    const answer = await this.requests.send(creds, { grantType: 'client_credentials' });
    if (answer.kind === 'granted') return this.adopt(answer, 'client_credentials');
    if (answer.kind === 'transient') return unavailable(answer, this.log);
    this.rejectedCredentials = creds;
    this.credentialsState = 'rejected';
    this.log.warn('token server refused the client credentials', { reason: answer.reason });
    return fail('auth', CREDENTIALS_REJECTED_MESSAGE, 'CREDENTIALS_REJECTED');
  }

  /** The flight run by saveCredentials: one client_credentials request with the candidate. */
  private async check(candidate: ClientCredentials): Promise<{ saved: Result<SavedCredentials>; held: Result<Held> }> {
    const answer = await this.requests.send(candidate, { grantType: 'client_credentials' });
    if (answer.kind === 'refused') {
      this.log.warn('token server refused the new client credentials; they were not saved', { reason: answer.reason });
      const problem = fail<never>('auth', "The token server refused this client id and secret; nothing was saved. Check them against the e-mail.", 'CREDENTIALS_REJECTED');
      return { saved: problem, held: fail('auth', 'New credentials were refused', 'CREDENTIALS_REJECTED') };
    }
    if (answer.kind === 'transient' && (answer.misdirected || answer.unusable))
      return { saved: fail('auth', `${answer.message} Nothing was saved.`, 'TOKEN_SERVER_ADDRESS'), held: unavailable(answer, this.log) };
    try {
      await this.options.vault.setCredentials(candidate);
    } catch (error) {
      const problem = vaultProblem(error, (e) => this.scrub(e));
      return { saved: fail(problem.kind, problem.message, problem.code), held: fail(problem.kind, problem.message, problem.code) };
    }
    // The old tokens belong to the old credentials.
    this.held = null;
    this.refresh.clear();
    this.rejectedCredentials = null;
    this.credentialsState = 'unknown';
    if (answer.kind === 'transient') {
      await this.persist(null);
      const message = `Credentials saved, but not checked: ${answer.message}. They will be checked on the next update.`;
      return { saved: ok({ verified: false, message }), held: fail('transient', answer.message, 'TOKEN_SERVER_UNAVAILABLE') };
    }
    const held = await this.adopt(answer, 'client_credentials');
    return { saved: ok({ verified: true, message: 'Credentials saved; the token server accepted them.' }), held };
  }

  /** Takes a granted token into use: memory, secrets registry, vault, refresh timer. */
  private async adopt(answer: GrantedAnswer, grant: TokenGrant['grantType'], previousRefresh?: string): Promise<Result<Held>> {
    this.secrets.add(answer.token.access_token);
    this.secrets.add(answer.token.refresh_token);
    const { tokens, timing, issuedSkewMs } = grantedTokens(answer, previousRefresh);
    const held = this.hold(tokens, timing);
    this.clockSkew = timing.clockSkewMs ?? null;
    this.issuedSkew = issuedSkewMs;
    this.tellClockSkew();
    this.credentialsState = 'ok';
    this.rejectedCredentials = null;
    this.lastProblem = null;
    this.refresh.granted();
    this.log.info('token obtained', {
      grant,
      expiresInSeconds: Math.round(timing.lifetimeMs / 1000),
      ...(timing.clockSkewMs !== undefined ? { clockSkewMs: timing.clockSkewMs } : {}),
    });
    if (timing.clockSkewMs !== undefined && Math.abs(timing.clockSkewMs) > 5 * 60_000)
      this.log.warn("this terminal's clock differs from the token server's", { clockSkewMs: timing.clockSkewMs });
    await this.persist(tokens);
    return ok(held);
  }

  private hold(tokens: StoredTokens, timing: Pick<TokenTiming, 'expiresAt' | 'lifetimeMs'>): Held {
    const held: Held = {
      tokens,
      header: `${tokens.tokenType} ${tokens.accessToken}`,
      refreshAt: refreshTime(timing, this.marginMs, this.jitterMs, this.random),
      invalid: false,
    };
    this.held = held;
    this.refresh.schedule(held.refreshAt);
    return held;
  }

  // ---- vault --------------------------------------------------------------------------------

  private load(): Promise<void> {
    this.loading ??= (async () => {
      try {
        const tokens = await this.options.vault.getTokens();
        if (tokens && !this.held) {
          this.secrets.add(tokens.accessToken);
          this.secrets.add(tokens.refreshToken);
          const lifetimeMs = Math.max(0, tokens.expiresAt - this.now());
          this.hold(tokens, { expiresAt: tokens.expiresAt, lifetimeMs });
          if (tokens.clockSkewMs !== undefined && this.clockSkew === null) {
            this.clockSkew = tokens.clockSkewMs;
            this.issuedSkew = tokens.clockSkewMs;
            this.tellClockSkew();
          }
        }
      } catch (error) {
        this.log.warn('saved tokens could not be read; a new token will be requested', { problem: vaultProblem(error, (e) => this.scrub(e)).message });
      } finally {
        this.loaded = true;
      }
    })();
    return this.loading;
  }

  private async readCredentials(): Promise<Result<ClientCredentials>> {
    let credentials: ClientCredentials | null;
    try {
      credentials = await this.options.vault.getCredentials();
    } catch (error) {
      const problem = vaultProblem(error, (e) => this.scrub(e));
      return fail(problem.kind, problem.message, problem.code);
    }
    if (!credentials) {
      this.credentialsState = 'missing';
      return fail('auth', NO_CREDENTIALS_MESSAGE, 'NO_CREDENTIALS');
    }
    this.secrets.add(credentials.clientSecret);
    return ok(credentials);
  }

  private async persist(tokens: StoredTokens | null): Promise<void> {
    try {
      await this.options.vault.setTokens(tokens);
    } catch (error) {
      // The token still works from memory; only a restart would need a new one.
      this.log.warn('tokens could not be saved in the vault', { problem: vaultProblem(error, (e) => this.scrub(e)).message });
    }
  }

  // ---- helpers ------------------------------------------------------------------------------

  private async headerOf(result: Promise<Result<Held>>): Promise<Result<string>> {
    const r = await result;
    return r.ok ? ok(r.value.header) : r;
  }

  /** Waits for a shared flight; the caller's signal ends only its own wait, never the shared request. */
  private wait<T>(promise: Promise<Result<T>>, signal?: AbortSignal): Promise<Result<T>> {
    if (!signal) return promise;
    const cancelled = (): Result<T> => fail('transient', 'Waiting for a token was cancelled', 'CANCELLED');
    if (signal.aborted) return Promise.resolve(cancelled());
    return new Promise((resolve) => {
      const onAbort = (): void => resolve(cancelled());
      signal.addEventListener('abort', onAbort, { once: true });
      void promise.then((result) => {
        signal.removeEventListener('abort', onAbort);
        resolve(result);
      });
    });
  }

  private scrub(error: unknown): string {
    return this.secrets.redactText(error instanceof Error ? error.message : String(error)).slice(0, 300);
  }
}
