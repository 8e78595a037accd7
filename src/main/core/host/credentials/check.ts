/**
 * Checks a client id and secret with a token server before anything is saved or switched: a
 * manager typing credentials from the e-mail learns at once whether they work. Whatever the
 * answer, the secret and the token obtained stay in this process (registered as secrets).
 */
import { systemTimers } from '../../time';
import { requestToken } from '../../auth/token-endpoint';
import type { ClientCredentials } from '../../auth/vault';
import type { SecretRegistry } from '../../log';

export type CredentialCheck =
  | { readonly kind: 'accepted' }
  | { readonly kind: 'refused'; readonly message: string }
  | { readonly kind: 'unreachable'; readonly message: string };

export interface CredentialCheckOptions {
  readonly registry: SecretRegistry;
  readonly now: () => number;
  readonly fetch?: typeof fetch;
  readonly timeoutMs?: number;
}

/** One client_credentials request to `authUrl` with the candidate credentials. */
export async function checkCredentials(authUrl: string, credentials: ClientCredentials, options: CredentialCheckOptions): Promise<CredentialCheck> {
  options.registry.add(credentials.clientSecret);
  const answer = await requestToken(credentials, { grantType: 'client_credentials' }, {
    authUrl,
    fetch: options.fetch ?? globalThis.fetch,
    timers: systemTimers,
    now: options.now,
    timeoutMs: options.timeoutMs ?? 15_000,
    secrets: options.registry,
  });
  if (answer.kind === 'granted') {
    // The token is not kept (the engine gets its own), but it is a secret all the same.
    options.registry.add(answer.token.access_token);
    options.registry.add(answer.token.refresh_token);
    return { kind: 'accepted' };
  }
  if (answer.kind === 'refused')
    return {
      kind: 'refused',
      message: `The token server refused this client id and secret (${answer.reason}); nothing was saved. Check them against the e-mail.`,
    };
  return { kind: 'unreachable', message: `${answer.message}. Nothing was saved; try again when the token server can be reached.` };
}
