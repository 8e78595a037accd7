/**
 * `credentials.save`: a manager points the terminal at training, staging or production. For a real
 * service the addresses are checked, the credentials tested against its token server, and only
 * then stored in that environment's vault and the engine restarted against the new service.
 * Refused credentials change nothing. The secret never comes back: only "saved" or "rejected".
 */
import type { Environment } from '../../../../shared/ipc';
import { fail, ok, ProblemError, type Result } from '../../../../shared/result';
import { hostOf } from '../../api/http';
import type { ClientCredentials, CredentialVault } from '../../auth';
import { secrets, type Logger } from '../../log';
import { checkAddress, type Addresses, type SettingsStore } from '../../settings';
import { checkCredentials } from './check';
import type { Runtime } from '../runtime';

export interface CredentialsRequest {
  readonly environment: Environment;
  readonly authUrl?: string | undefined;
  readonly baseUrl?: string | undefined;
  readonly clientId?: string | undefined;
  readonly clientSecret?: string | undefined;
}

export type CredentialsAnswer = { result: 'saved' | 'rejected'; message: string; code?: string; values?: Record<string, string | number> };

export interface SaveCredentialsDeps {
  readonly runtime: Runtime;
  readonly settings: SettingsStore;
  readonly vault: (env: Environment) => CredentialVault;
  readonly log: Logger;
  readonly now: () => number;
  /** Called after a switch (the keychain to watch may have changed). */
  readonly switched: (env: Environment) => void;
}

/** Checks, saves and switches; a Problem for what a manager must fix, `rejected` for refused credentials. */
export async function saveCredentials(deps: SaveCredentialsDeps, request: CredentialsRequest): Promise<Result<CredentialsAnswer>> {
  const env = request.environment;
  if (request.clientSecret) secrets.add(request.clientSecret);
  if (env === 'training') {
    // Training has its own practice credentials and addresses; whatever was typed is not used.
    await deps.runtime.switchTo('training', null);
    deps.switched('training');
    return ok({ result: 'saved', message: 'Training mode: practice orders on the service built into Packdesk. Nothing is sent to the marketplace.', code: 'TRAINING' });
  }

  const addresses = resolveAddresses(deps.settings, env, request);
  if (!addresses.ok) return addresses;
  const credentials = await resolveCredentials(deps.vault(env), env, request);
  if (!credentials.ok) return credentials;

  const check = await checkCredentials(addresses.value.authUrl, credentials.value, { registry: secrets, now: deps.now });
  if (check.kind === 'refused') {
    deps.log.warn('new credentials refused by the token server; nothing saved', { environment: env, tokenServer: hostOf(addresses.value.authUrl) });
    return ok({ result: 'rejected', message: check.message, code: 'CREDENTIALS_REFUSED' });
  }
  if (check.kind === 'unreachable') return fail('transient', check.message, 'TOKEN_SERVER_UNREACHABLE');

  try {
    await deps.vault(env).setCredentials(credentials.value);
    // Tokens of the old credentials (or of the old server) must not be offered to the new one.
    await deps.vault(env).setTokens(null);
  } catch (err) {
    return problemOf(err, 'The credentials could not be stored in the keychain.');
  }
  await deps.runtime.switchTo(env, addresses.value);
  deps.runtime.engine()?.credentialsChanged();
  deps.switched(env);
  deps.log.info('credentials saved and service switched', {
    environment: env,
    tokenServer: hostOf(addresses.value.authUrl),
    orderService: hostOf(addresses.value.baseUrl),
  });
  const problem = deps.runtime.problem();
  if (problem) return fail('transient', `The credentials were saved, but the terminal could not start: ${problem}`, 'ENGINE_UNAVAILABLE');
  return ok({
    result: 'saved',
    message: `Saved. This terminal now works with ${env} (${hostOf(addresses.value.baseUrl)}).`,
    code: 'SAVED',
    values: { environment: env },
  });
}

/** The addresses typed, else the ones saved for that environment before; checked (https in production). */
function resolveAddresses(settings: SettingsStore, env: Environment, request: CredentialsRequest): Result<Addresses> {
  const remembered = settings.addressesFor(env);
  const rawAuth = request.authUrl ?? remembered?.authUrl;
  const rawBase = request.baseUrl ?? remembered?.baseUrl;
  if (!rawAuth || !rawBase) return fail('invalid', `Enter the token server and order service addresses for ${env}.`, 'ADDRESS_MISSING', {
      environment: env,
    });
  const authUrl = checkAddress(env, 'token server', rawAuth);
  if (!authUrl.ok) return authUrl;
  const baseUrl = checkAddress(env, 'order service', rawBase);
  if (!baseUrl.ok) return baseUrl;
  return ok({ authUrl: authUrl.value, baseUrl: baseUrl.value });
}

/** The credentials typed, else the ones already in this environment's vault. */
async function resolveCredentials(vault: CredentialVault, env: Environment, request: CredentialsRequest): Promise<Result<ClientCredentials>> {
  if ((request.clientId === undefined) !== (request.clientSecret === undefined))
    return fail('invalid', 'Enter both the client id and the client secret from the e-mail.', 'CREDENTIALS_INCOMPLETE');
  if (request.clientId !== undefined && request.clientSecret !== undefined)
    return ok({ clientId: request.clientId, clientSecret: request.clientSecret });
  try {
    const saved = await vault.getCredentials();
    if (saved) return ok(saved);
  } catch (err) {
    return problemOf(err, 'The keychain could not be read.');
  }
  return fail('invalid', `No credentials are saved for ${env}: enter the client id and secret from the e-mail.`, 'CREDENTIALS_MISSING', {
    environment: env,
  });
}

/** A ProblemError's own words (vault errors are written for people), or a plain fallback. */
function problemOf<T>(err: unknown, fallback: string): Result<T> {
  if (err instanceof ProblemError) return { ok: false, problem: err.problem };
  return fail('transient', fallback, 'INTERNAL');
}
