/** Where the CLI's settings come from: flags first, then PACKDESK_* environment variables, each through a schema. */
import os from 'node:os';
import { z } from 'zod';
import { EnvironmentSchema, type Environment } from '../shared/ipc';
import { fail, ok, type Result } from '../shared/result';
import { type CredentialVault, ENV_CLIENT_ID, ENV_CLIENT_SECRET, EnvVault, KeytarVault } from '../main/core/auth';
import { checkAddress } from '../main/core/settings/addresses';
import type { Parsed } from './args';

export type Env = Readonly<Record<string, string | undefined>>;

export interface CliConfig {
  readonly dataDir: string;
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
  const dataDir = pick('data-dir', 'PACKDESK_DATA_DIR');
  if (!dataDir) return fail('invalid', 'No data folder: set PACKDESK_DATA_DIR or pass --data-dir DIR', 'CONFIG');
  const environment = EnvironmentSchema.safeParse((pick('environment', 'PACKDESK_ENVIRONMENT') ?? 'production').toLowerCase());
  if (!environment.success) return fail('invalid', 'PACKDESK_ENVIRONMENT / --environment must be training, staging or production', 'CONFIG');
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
  return ok({
    dataDir,
    serviceProviderId: provider?.data ?? null,
    ...urls,
    environment: environment.data,
    terminalId: terminal.data,
    credentialsFrom: env[ENV_CLIENT_ID] !== undefined || env[ENV_CLIENT_SECRET] !== undefined ? 'environment' : 'keychain',
  });
}

/** The vault the config names: the environment variables when either is set, else the OS keychain. */
export function vaultFor(config: CliConfig, env: Env): CredentialVault {
  return config.credentialsFrom === 'environment' ? new EnvVault(env) : new KeytarVault({ environment: config.environment });
}
