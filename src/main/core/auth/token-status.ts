/**
 * What the token manager reports about itself (doctor, the status bar, the settings screen) and the
 * token it holds. Kept apart from the manager so a reader of the status does not read the flight.
 */
import type { Problem } from '../../../shared/result';
import type { StoredTokens } from './vault';

/** What the token server last said about the saved credentials. */
export type CredentialsState = 'unknown' | 'ok' | 'missing' | 'rejected';

/** A snapshot for `packdesk doctor` and the status bar; holds no secret. */
export interface TokenStatus {
  readonly credentials: CredentialsState;
  readonly hasToken: boolean;
  /** Local-clock epoch ms, or null without a token. */
  readonly expiresAt: number | null;
  readonly refreshAt: number | null;
  /** Local clock minus the token server's clock (ms, network delay included), from the last token. */
  readonly clockSkewMs: number | null;
  readonly lastProblem: Problem | null;
  /** Token requests sent by this manager since it started. */
  readonly tokenRequests: number;
}

/** Result of saving new credentials: whether the token server accepted them. */
export interface SavedCredentials {
  /** False when they were saved without being checked (token server unreachable). */
  readonly verified: boolean;
  readonly message: string;
}

/** The token in use, with the header it makes and when to refresh it. */
export interface Held {
  readonly tokens: StoredTokens;
  readonly header: string;
  readonly refreshAt: number;
  /** The order service refused it; the refresh token may still be good. */
  readonly invalid: boolean;
}

export const CREDENTIALS_REJECTED_MESSAGE =
  "The token server refused this terminal's client id and secret; a manager must enter new ones.";
export const NO_CREDENTIALS_MESSAGE =
  'No credentials saved: a manager must enter the client id and secret from the e-mail in settings.';
