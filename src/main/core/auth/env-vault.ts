/**
 * A vault for the CLI and CI: the client id and secret come from PACKDESK_CLIENT_ID and
 * PACKDESK_CLIENT_SECRET; tokens are kept in memory only, so nothing is written anywhere.
 */
import { ProblemError } from '../../../shared/result';
import { secrets as processSecrets, type SecretRegistry } from '../log/redact';
import { clientCredentialsSchema } from './stored-tokens';
import type { ClientCredentials, CredentialVault, StoredTokens, VaultHealth } from './vault';

export const ENV_CLIENT_ID = 'PACKDESK_CLIENT_ID';
export const ENV_CLIENT_SECRET = 'PACKDESK_CLIENT_SECRET';

/** Reads credentials from environment variables; refuses to save new ones. */
export class EnvVault implements CredentialVault {
  private tokens: StoredTokens | null = null;

  constructor(
    private readonly env: Readonly<Record<string, string | undefined>> = process.env,
    private readonly registry: SecretRegistry = processSecrets,
  ) {}

  /** The credentials from the environment, or null when either variable is unset or empty. */
  async getCredentials(): Promise<ClientCredentials | null> {
    const parsed = clientCredentialsSchema().safeParse({ clientId: this.env[ENV_CLIENT_ID], clientSecret: this.env[ENV_CLIENT_SECRET] });
    if (!parsed.success) return null;
    this.registry.add(parsed.data.clientSecret);
    return parsed.data;
  }

  /** Environment variables cannot be written from here; says where to set them instead. */
  async setCredentials(_credentials: ClientCredentials): Promise<void> {
    throw new ProblemError({
      kind: 'invalid',
      code: 'ENV_CREDENTIALS',
      message: `Credentials come from the ${ENV_CLIENT_ID} and ${ENV_CLIENT_SECRET} environment variables here; change them there.`,
    });
  }

  /** The tokens obtained during this run, or null. */
  async getTokens(): Promise<StoredTokens | null> {
    return this.tokens;
  }

  /** Keeps the tokens in memory (or forgets them with null). */
  async setTokens(tokens: StoredTokens | null): Promise<void> {
    this.tokens = tokens;
  }

  /** Forgets the tokens; the credentials stay in the environment. */
  async clear(): Promise<void> {
    this.tokens = null;
  }

  /** Whether both variables are set. */
  async health(): Promise<VaultHealth> {
    if ((await this.getCredentials()) === null)
      return { ok: false, message: `${ENV_CLIENT_ID} and ${ENV_CLIENT_SECRET} must both be set to a non-empty value.` };
    return { ok: true, message: `Credentials come from ${ENV_CLIENT_ID} and ${ENV_CLIENT_SECRET}; tokens are kept in memory only.` };
  }
}
