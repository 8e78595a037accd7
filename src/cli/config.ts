/** Where the CLI's settings come from: flags first, then PACKDESK_* environment variables, each through a schema. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { EnvironmentSchema, type Environment } from '../shared/ipc';
import { fail, ok, type Result } from '../shared/result';
import { type CredentialVault, ENV_CLIENT_ID, ENV_CLIENT_SECRET, EnvVault, KeytarVault } from '../main/core/auth';
import { DATA_FILE_NAME } from '../main/core/db';
import { checkAddress } from '../main/core/settings/addresses';
import { savedEnvironment } from '../main/core/settings/store';
import type { Parsed } from './args';

export type Env = Readonly<Record<string, string | undefined>>;

export interface CliConfig {
  /** The folder given (--data-dir): the app's own (settings.json and update-status.json beside `environments/`), or an engine's. */
  readonly folder: string;
  /** The engine's folder, holding packdesk.sqlite and hub/: `<folder>/environments/<environment>` in the app's folder, else `folder`. */
  readonly dataDir: string;
  /** A packdesk.sqlite beside the app's `environments/` (an older packdesk made it): not the app's, never used. */
  readonly strayDataFile: string | null;
  readonly authUrl: string | null;
  readonly baseUrl: string | null;
  readonly environment: Environment;
  readonly terminalId: string;
  /** Where the client id and secret come from. */
  readonly credentialsFrom: 'environment' | 'keychain';
  /** The store's service provider id, for `changes`; null when not given. */
  readonly serviceProviderId: string | null;
}

const ProviderId = z.string().trim().min(1).max(128);
const TerminalId = z.string().trim().regex(/^[A-Za-z0-9@._-]{1,64}$/, 'letters, digits and @._- only, at most 64');

/** Resolves the configuration; a problem here is exit 3 (configuration). */
export function resolveConfig(flags: Parsed, env: Env): Result<CliConfig> {
  const pick = (flag: keyof Parsed['values'], variable: string): string | undefined => {
    const v = flags.values[flag] ?? env[variable];
    return v === undefined || v.trim() === '' ? undefined : v;
  };
  const folder = pick('data-dir', 'PACKDESK_DATA_DIR');
  if (!folder) return fail('invalid', 'No data folder: set PACKDESK_DATA_DIR or pass --data-dir DIR', 'CONFIG');
  const app = appEnvironments(folder);
  // As the app: the environment its settings name, unless one is asked for.
  const environment = EnvironmentSchema.safeParse((pick('environment', 'PACKDESK_ENVIRONMENT') ?? (app ? savedEnvironment(path.join(folder, 'settings.json')) : null) ?? 'production').toLowerCase());
  if (!environment.success) return fail('invalid', 'PACKDESK_ENVIRONMENT / --environment must be training, staging or production', 'CONFIG');
  const place = engineFolder(folder, app, environment.data);
  if (!place.ok) return place;
  const dataDir = place.value;
  const urls: Record<'authUrl' | 'baseUrl', string | null> = { authUrl: null, baseUrl: null };
  for (const [key, flag, variable, label] of [
    ['authUrl', 'auth-url', 'PACKDESK_AUTH_URL', 'token server'],
    ['baseUrl', 'base-url', 'PACKDESK_BASE_URL', 'order service'],
  ] as const) {
    const raw = pick(flag, variable);
    if (raw === undefined) continue;
    // The app's own rule: the client secret and tokens travel on these addresses, so production is https only.
    const checked = checkAddress(environment.data, label, raw);
    if (!checked.ok) return fail('invalid', `${variable} / --${flag}: ${checked.problem.message}`, 'CONFIG');
    urls[key] = checked.value;
  }
  const fallbackId = `cli-${os.hostname()}`.replace(/[^A-Za-z0-9@._-]/g, '-').slice(0, 64);
  const terminal = TerminalId.safeParse(pick('terminal-id', 'PACKDESK_TERMINAL_ID') ?? fallbackId);
  if (!terminal.success) return fail('invalid', `PACKDESK_TERMINAL_ID / --terminal-id: ${terminal.error.issues[0]?.message ?? 'invalid'}`, 'CONFIG');
  const rawProvider = pick('service-provider-id', 'PACKDESK_SERVICE_PROVIDER_ID');
  const provider = rawProvider === undefined ? null : ProviderId.safeParse(rawProvider);
  if (provider && !provider.success) return fail('invalid', 'PACKDESK_SERVICE_PROVIDER_ID / --service-provider-id: at most 128 characters', 'CONFIG');
  const stray = path.join(folder, DATA_FILE_NAME);
  return ok({
    folder,
    dataDir,
    strayDataFile: app && fs.existsSync(stray) ? stray : null,
    serviceProviderId: provider?.data ?? null,
    ...urls,
    environment: environment.data,
    terminalId: terminal.data,
    credentialsFrom: env[ENV_CLIENT_ID] !== undefined || env[ENV_CLIENT_SECRET] !== undefined ? 'environment' : 'keychain',
  });
}

/** The environments the app keeps in `folder` (`environments/<env>/packdesk.sqlite`), or null when it is not the app's folder. */
function appEnvironments(folder: string): Environment[] | null {
  const root = path.join(folder, 'environments');
  try {
    if (!fs.statSync(root).isDirectory()) return null;
  } catch {
    return null;
  }
  return EnvironmentSchema.options.filter((env) => fs.existsSync(path.join(root, env, DATA_FILE_NAME)));
}

/**
 * Where the engine's data file is, the way the app finds it: in the app's folder, the
 * environment's own folder, which must hold a data file already. The CLI never makes one there
 * (a typing mistake would look like a terminal without orders), nor beside `environments/`.
 */
function engineFolder(folder: string, app: Environment[] | null, environment: Environment): Result<string> {
  if (app === null) return ok(folder);
  if (app.includes(environment)) return ok(path.join(folder, 'environments', environment));
  const has = app.length > 0 ? `; it has ${app.join(' and ')}: pass --environment ${app[0]} (or set PACKDESK_ENVIRONMENT)` : '; the app has not used any environment here yet';
  return fail('invalid', `${folder} is the app's data folder, and it holds no ${environment} data file (environments/${environment}/${DATA_FILE_NAME})${has}. Nothing was created`, 'CONFIG');
}

/** The vault the config names: the environment variables when either is set, else the OS keychain. */
export function vaultFor(config: CliConfig, env: Env): CredentialVault {
  return config.credentialsFrom === 'environment' ? new EnvVault(env) : new KeytarVault({ environment: config.environment });
}
