/**
 * Terminal settings, kept as JSON in `<dataDir>/settings.json`. The file holds the environment,
 * the manager's preferences and the addresses remembered per environment; never a secret (those
 * live in the keychain). A file that cannot be read is set aside under a new name and reported,
 * and the defaults are used, so a damaged file never stops the terminal from starting.
 */
import { existsSync, renameSync } from 'node:fs';
import { z } from 'zod';
import { DEFAULT_ORDER_ID_PATTERN, EnvironmentSchema, SettingsSchema, type Environment, type Settings } from '../../../shared/ipc';
import { readJsonFile, writeFileAtomic } from './files';

/** The preferences a manager edits with `settings.update` (everything but environment and addresses). */
export type Preferences = Omit<Settings, 'environment' | 'authUrl' | 'baseUrl'>;
export type Addresses = { readonly authUrl: string; readonly baseUrl: string };

export const DEFAULT_PREFERENCES: Preferences = {
  undoWindowMs: 5_000,
  concurrency: 4,
  kiosk: false,
  autoLaunch: false,
  sounds: true,
  updateChannel: 'stable',
  scannerPrefix: '',
  orderIdPattern: DEFAULT_ORDER_ID_PATTERN,
  quietHour: null,
  paper: 'thermal80',
  printer: null,
  autoPrintSlip: false,
  slipWholePhone: false,
  serviceProviderId: '',
  intakeIntervalMs: 30_000,
  alertRepeatMs: 20_000,
  alertVolume: 1,
  language: 'en',
};

const PreferencesSchema = SettingsSchema.omit({ environment: true, authUrl: true, baseUrl: true });
const AddressesSchema = z.object({ authUrl: z.string(), baseUrl: z.string() });

// Preferences are partial on disk, so a file from an older version (fewer keys) still loads;
// unknown keys from a newer version are dropped rather than refused.
const SettingsFileSchema = z.object({
  version: z.literal(1),
  environment: EnvironmentSchema,
  preferences: PreferencesSchema.partial(),
  addresses: z.object({ staging: AddressesSchema.optional(), production: AddressesSchema.optional() }),
});
type SettingsFile = z.infer<typeof SettingsFileSchema>;

export interface SettingsStore {
  /** The effective settings; in training the addresses are the in-app sandbox's. */
  get(): Settings;
  /** Applies and saves a preference patch. */
  update(patch: Partial<Preferences>): Settings;
  /** Switches environment (remembering its addresses) and saves. */
  switchTo(environment: Environment, addresses: Addresses | null): Settings;
  /** The addresses last saved for an environment, or null. */
  addressesFor(environment: Environment): Addresses | null;
  /** Sets where training mode's sandbox listens this run (not saved: the port changes every run). */
  setTrainingAddresses(addresses: Addresses): void;
  /** What went wrong reading the file at start (it was set aside), or null. */
  readonly loadProblem: string | null;
}

export interface SettingsStoreOptions {
  file: string;
  /** Values laid over the file at start (tests, the harness forcing training). */
  override?: Partial<Settings>;
  now?: () => number;
}

/** Loads settings.json (defaults when missing; set aside and reported when unreadable). */
export function openSettingsStore(options: SettingsStoreOptions): SettingsStore {
  const now = options.now ?? Date.now;
  let loadProblem: string | null = null;
  let file: SettingsFile = { version: 1, environment: 'training', preferences: {}, addresses: {} };

  const read = readJsonFile(options.file, SettingsFileSchema);
  if (read.kind === 'ok') file = read.value;
  else if (read.kind === 'unreadable') {
    const aside = setAside(options.file, now());
    loadProblem =
      `The settings file could not be read (${read.message}); default settings are in use. ` +
      (aside ? `The old file was kept as ${aside}.` : 'The old file could not be moved aside.');
  }

  let preferences: Preferences = { ...DEFAULT_PREFERENCES, ...definedOnly(file.preferences) };
  let environment: Environment = file.environment;
  const addresses: { staging?: Addresses; production?: Addresses } = { ...file.addresses };
  let training: Addresses = { authUrl: '', baseUrl: '' };

  const override = options.override ?? {};
  if (override.environment) environment = override.environment;
  preferences = { ...preferences, ...definedOnly(pickPreferences(override)) };
  if (override.authUrl !== undefined && override.baseUrl !== undefined && environment !== 'training')
    addresses[environment] = { authUrl: override.authUrl, baseUrl: override.baseUrl };

  const save = (): void => {
    const out: SettingsFile = { version: 1, environment, preferences, addresses };
    writeFileAtomic(options.file, `${JSON.stringify(out, null, 2)}\n`);
  };

  const store: SettingsStore = {
    loadProblem,
    get() {
      const where = environment === 'training' ? training : (addresses[environment] ?? { authUrl: '', baseUrl: '' });
      return SettingsSchema.parse({ environment, ...where, ...preferences });
    },
    update(patch) {
      preferences = PreferencesSchema.parse({ ...preferences, ...definedOnly(patch) });
      save();
      return store.get();
    },
    switchTo(next, where) {
      environment = next;
      if (next !== 'training' && where) addresses[next] = { ...where };
      save();
      return store.get();
    },
    addressesFor(env) {
      if (env === 'training') return training.authUrl ? training : null;
      return addresses[env] ?? null;
    },
    setTrainingAddresses(where) {
      training = { ...where };
    },
  };
  return store;
}

function pickPreferences(s: Partial<Settings>): Partial<Preferences> {
  const { environment: _e, authUrl: _a, baseUrl: _b, ...rest } = s;
  return rest;
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Renames an unreadable file to `<name>.corrupt-<time>`; returns the new name, or null if that failed. */
function setAside(file: string, at: number): string | null {
  const aside = `${file}.corrupt-${new Date(at).toISOString().replace(/[:.]/g, '-')}`;
  try {
    if (!existsSync(file)) return null;
    renameSync(file, aside);
    return aside;
  } catch {
    return null;
  }
}
