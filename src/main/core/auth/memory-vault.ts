/** A vault that keeps everything in memory: tests, benchmarks, and the in-app training sandbox. */
import { secrets as processSecrets, type SecretRegistry } from '../log/redact';
import type { ClientCredentials, CredentialVault, StoredTokens, VaultHealth } from './vault';

/** Credentials and tokens in memory only; gone when the process ends. */
export class MemoryVault implements CredentialVault {
  private credentials: ClientCredentials | null;
  private tokens: StoredTokens | null;

  constructor(
    initial: { readonly credentials?: ClientCredentials; readonly tokens?: StoredTokens } = {},
    private readonly registry: SecretRegistry = processSecrets,
  ) {
    this.credentials = initial.credentials ?? null;
    this.tokens = initial.tokens ?? null;
    this.registry.add(this.credentials?.clientSecret);
  }

  /** The client id and secret, or null. */
  async getCredentials(): Promise<ClientCredentials | null> {
    return this.credentials;
  }

  /** Replaces the client id and secret. */
  async setCredentials(credentials: ClientCredentials): Promise<void> {
    this.registry.add(credentials.clientSecret);
    this.credentials = { clientId: credentials.clientId, clientSecret: credentials.clientSecret };
  }

  /** The last saved tokens, or null. */
  async getTokens(): Promise<StoredTokens | null> {
    return this.tokens;
  }

  /** Saves the tokens, or forgets them with null. */
  async setTokens(tokens: StoredTokens | null): Promise<void> {
    this.tokens = tokens;
  }

  /** Forgets credentials and tokens. */
  async clear(): Promise<void> {
    this.credentials = null;
    this.tokens = null;
  }

  /** Always works; says that nothing survives a restart. */
  async health(): Promise<VaultHealth> {
    return { ok: true, message: 'Credentials are kept in memory only and are forgotten when Packdesk stops.' };
  }
}
