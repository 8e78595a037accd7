/**
 * Where credentials and tokens are kept. The Electron app and the CLI use the OS keychain
 * (keytar); tests use the in-memory vault. Nothing here is ever written to SQLite or a log.
 */

export interface ClientCredentials {
  readonly clientId: string;
  readonly clientSecret: string;
}

export interface StoredTokens {
  readonly accessToken: string;
  readonly refreshToken?: string;
  readonly tokenType: string;
  /** Local-clock epoch ms at which the access token expires (already corrected for clock skew). */
  readonly expiresAt: number;
  /** This terminal's clock minus the token server's when the token came (TokenStatus.clockSkewMs). */
  readonly clockSkewMs?: number;
}

export interface VaultHealth {
  readonly ok: boolean;
  /** What a support person reads, e.g. "No Secret Service on this machine: install gnome-keyring". */
  readonly message: string;
  /** Set while the answer is not in yet, so the screen can say "checking" rather than "not working". */
  readonly checking?: boolean;
}

export interface CredentialVault {
  /** The client id and secret, or null when none are saved. */
  getCredentials(): Promise<ClientCredentials | null>;
  /** Saves (replaces) the client id and secret. */
  setCredentials(credentials: ClientCredentials): Promise<void>;
  /** The last tokens, or null. */
  getTokens(): Promise<StoredTokens | null>;
  /** Saves the tokens, or deletes them with null. */
  setTokens(tokens: StoredTokens | null): Promise<void>;
  /** Deletes credentials and tokens. */
  clear(): Promise<void>;
  /** Whether the store works here, in words. */
  health(): Promise<VaultHealth>;
}
