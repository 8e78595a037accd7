/**
 * The OS keychain vault (through keychain-binding.ts: Secret Service on Linux, Credential Manager
 * on Windows, Keychain on macOS). Each environment has its own service name so training, staging and production
 * credentials never mix. Where no keychain works, every call fails with one clear message; there
 * is deliberately no plain-file fallback.
 */
import { randomBytes } from 'node:crypto';
import { ProblemError } from '../../../shared/result';
import { systemTimers, type Timers } from '../time';
import { silentLogger, type Logger } from '../log/logger';
import { secrets as processSecrets, type SecretRegistry } from '../log/redact';
import { clientCredentialsSchema, storedTokensSchema } from './stored-tokens';
import type { ClientCredentials, CredentialVault, StoredTokens, VaultHealth } from './vault';
import { type KeychainBinding, loadKeychainBinding } from './keychain-binding';


export interface KeytarVaultOptions {
  /** training, staging or production: part of the service name. */
  readonly environment: string;
  /** Base service name. Default `Packdesk`. */
  readonly service?: string;
  /** Loads the keychain binding; injected by tests. Default: keytar, lazily, so a missing libsecret is a message, not a crash. */
  readonly loadBinding?: () => Promise<KeychainBinding>;
  /** How long to wait for the keychain (a locked keyring may never answer). Default 10 s. */
  readonly timeoutMs?: number;
  readonly timers?: Timers;
  readonly platform?: NodeJS.Platform;
  readonly logger?: Logger;
  readonly secrets?: SecretRegistry;
}

export const ACCOUNT_CLIENT_ID = 'client-id';
export const ACCOUNT_CLIENT_SECRET = 'client-secret';
export const ACCOUNT_TOKENS = 'tokens';
const ACCOUNT_HEALTH = 'health-check';

/** The message shown on screen and in `packdesk doctor` when Linux has no usable Secret Service. */
export const NO_SECRET_SERVICE_MESSAGE =
  'No keychain (Secret Service) is available on this machine; credentials cannot be stored. Install and unlock gnome-keyring.';


/** The keychain service name for an environment, e.g. `Packdesk-production`. */
export function keychainService(environment: string, service = 'Packdesk'): string {
  const env = environment.trim().toLowerCase();
  if (!/^[a-z0-9-]+$/.test(env)) throw new Error(`Invalid environment name for the keychain: "${environment}"`);
  return `${service}-${env}`;
}

/** Credentials and tokens in the OS keychain. */
export class KeytarVault implements CredentialVault {
  /** The keychain service name used for this environment. */
  readonly service: string;
  private binding: Promise<KeychainBinding> | null = null;
  private readonly timeoutMs: number;
  private readonly timers: Timers;
  private readonly platform: NodeJS.Platform;
  private readonly log: Logger;
  private readonly registry: SecretRegistry;

  constructor(private readonly options: KeytarVaultOptions) {
    this.service = keychainService(options.environment, options.service);
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.timers = options.timers ?? systemTimers;
    this.platform = options.platform ?? process.platform;
    this.log = (options.logger ?? silentLogger).child('vault');
    this.registry = options.secrets ?? processSecrets;
  }

  /** The client id and secret, or null when none (or only half) are saved. */
  async getCredentials(): Promise<ClientCredentials | null> {
    const clientId = await this.run('read the credentials', (k) => k.getPassword(this.service, ACCOUNT_CLIENT_ID));
    const clientSecret = await this.run('read the credentials', (k) => k.getPassword(this.service, ACCOUNT_CLIENT_SECRET));
    this.registry.add(clientSecret);
    const parsed = clientCredentialsSchema().safeParse({ clientId, clientSecret });
    return parsed.success ? parsed.data : null;
  }

  /** Saves (replaces) the client id and secret in the keychain. */
  async setCredentials(credentials: ClientCredentials): Promise<void> {
    const parsed = clientCredentialsSchema().safeParse(credentials);
    if (!parsed.success)
      throw new ProblemError({ kind: 'invalid', code: 'INVALID_CREDENTIALS', message: `These credentials cannot be saved: ${parsed.error.issues[0]?.message ?? 'invalid'}` });
    this.registry.add(parsed.data.clientSecret);
    await this.run('save the credentials', (k) => k.setPassword(this.service, ACCOUNT_CLIENT_ID, parsed.data.clientId));
    await this.run('save the credentials', (k) => k.setPassword(this.service, ACCOUNT_CLIENT_SECRET, parsed.data.clientSecret));
  }

  /** The saved tokens, or null when none are saved or what is saved does not parse. */
  async getTokens(): Promise<StoredTokens | null> {
    const text = await this.run('read the tokens', (k) => k.getPassword(this.service, ACCOUNT_TOKENS));
    if (text === null) return null;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      this.log.warn('saved tokens are not JSON; ignoring them');
      return null;
    }
    const parsed = storedTokensSchema().safeParse(json);
    if (!parsed.success) {
      this.log.warn('saved tokens do not have the expected shape; ignoring them');
      return null;
    }
    this.registry.add(parsed.data.accessToken);
    this.registry.add(parsed.data.refreshToken);
    return parsed.data;
  }

  /** Saves the tokens as JSON, or deletes them with null. */
  async setTokens(tokens: StoredTokens | null): Promise<void> {
    if (tokens === null) {
      await this.run('delete the tokens', (k) => k.deletePassword(this.service, ACCOUNT_TOKENS));
      return;
    }
    const value = storedTokensSchema().parse(tokens);
    await this.run('save the tokens', (k) => k.setPassword(this.service, ACCOUNT_TOKENS, JSON.stringify(value)));
  }

  /** Deletes the credentials and tokens of this environment. */
  async clear(): Promise<void> {
    for (const account of [ACCOUNT_CLIENT_ID, ACCOUNT_CLIENT_SECRET, ACCOUNT_TOKENS])
      await this.run('delete the credentials', (k) => k.deletePassword(this.service, account));
  }

  /** Checks the keychain really works by writing, reading back and deleting a throw-away value. */
  async health(): Promise<VaultHealth> {
    const probe = randomBytes(12).toString('hex');
    try {
      await this.run('check the keychain', (k) => k.setPassword(this.service, ACCOUNT_HEALTH, probe));
      const back = await this.run('check the keychain', (k) => k.getPassword(this.service, ACCOUNT_HEALTH));
      await this.run('check the keychain', (k) => k.deletePassword(this.service, ACCOUNT_HEALTH));
      if (back !== probe)
        return { ok: false, message: 'The keychain accepted a value but gave a different one back; credentials cannot be stored safely.' };
      return { ok: true, message: `The keychain works; credentials are kept under "${this.service}".` };
    } catch (error) {
      return { ok: false, message: error instanceof Error ? error.message : String(error) };
    }
  }

  /** Runs one keychain call with a deadline, turning every failure into the one clear message. */
  private async run<T>(doing: string, call: (keytar: KeychainBinding) => Promise<T>): Promise<T> {
    let handle: unknown;
    const timeout = new Promise<never>((_, reject) => {
      handle = this.timers.setTimeout(
        () => reject(this.unavailable(doing, `the keychain did not answer within ${Math.round(this.timeoutMs / 1000)} s; it may be locked`)),
        this.timeoutMs,
      );
    });
    try {
      this.binding ??= (this.options.loadBinding ?? loadKeychainBinding)();
      const keytar = await Promise.race([this.binding, timeout]);
      return await Promise.race([call(keytar), timeout]);
    } catch (error) {
      if (error instanceof ProblemError) throw error;
      // Forget a failed load so a later call (after gnome-keyring is installed/started) tries again.
      this.binding = null;
      const detail = this.registry.redactText(error instanceof Error ? error.message : String(error)).slice(0, 300);
      this.log.warn('keychain call failed', { doing, detail });
      throw this.unavailable(doing, detail);
    } finally {
      this.timers.clearTimeout(handle);
    }
  }

  private unavailable(doing: string, detail: string): ProblemError {
    const headline =
      this.platform === 'linux' ? NO_SECRET_SERVICE_MESSAGE : 'The system keychain cannot be used on this machine; credentials cannot be stored.';
    return new ProblemError({ kind: 'auth', code: 'NO_KEYCHAIN', message: `${headline} (Could not ${doing}: ${detail}.)` });
  }
}
