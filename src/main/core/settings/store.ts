/**
 * Terminal settings, kept as JSON in `<dataDir>/settings.json`. The file holds the environment,
 * the manager's preferences and the addresses remembered per environment; never a secret (those
 * live in the keychain). A copy is kept beside it (`settings.backup.json`). A file that cannot be
 * read is set aside under a new name and reported, loudly and until a manager saves settings; what
 * can be read is kept: the backup first, else the environment read from the damaged text. A
 * damaged file never stops the terminal from starting, and never moves a production terminal to
 * training by itself. The file's own schema, and how it becomes the settings the screens see, are
 * in settings-file.ts.
 */
import { existsSync, renameSync } from 'node:fs';
import type { Environment, Settings } from '../../../shared/ipc';
import { readJsonFile, writeFileAtomic } from './files';
import { definedOnly, type Addresses, type Preferences } from './preferences';
import {
  backupOf,
  EMPTY_SETTINGS_FILE,
  fileFromHeld,
  heldFromFile,
  PreferencesSchema,
  readText,
  salvageEnvironment,
  SettingsFileSchema,
  viewOf,
  type SettingsFile,
} from './settings-file';

// Where their callers have always found them.
export { DEFAULT_PREFERENCES, type Addresses, type Preferences } from './preferences';
export { salvageEnvironment, savedEnvironment, settingsFileProblem } from './settings-file';

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
  /** The same, until a manager saves settings (also after a restart): for the sync bar and doctor. */
  problem(): string | null;
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
  let file: SettingsFile = EMPTY_SETTINGS_FILE;

  const backupFile = backupOf(options.file);
  const read = readJsonFile(options.file, SettingsFileSchema);
  let recoveredNow = false;
  const backupWhenMissing = read.kind === 'missing' ? readJsonFile(backupFile, SettingsFileSchema) : null;
  if (read.kind === 'ok') file = read.value;
  else if (backupWhenMissing?.kind === 'ok') {
    // The file is gone but its copy is not (deleted by hand, lost by the disk): not a new terminal.
    file = {
      ...backupWhenMissing.value,
      recovered: {
        at: now(),
        message: `The settings file was missing; the copy saved with it (${backupWhenMissing.value.environment}, with its addresses) is in use. A manager must check Settings.`,
      },
    };
    recoveredNow = true;
  } else if (read.kind === 'unreadable') {
    const damaged = readText(options.file);
    const aside = setAside(options.file, now());
    const backup = readJsonFile(backupFile, SettingsFileSchema);
    const salvaged = backup.kind === 'ok' ? null : salvageEnvironment(damaged);
    if (backup.kind === 'ok') file = { ...backup.value, recovered: undefined };
    else if (salvaged) file = { ...file, environment: salvaged };
    const kept =
      backup.kind === 'ok'
        ? `The settings saved before it (${backup.value.environment}, with its addresses) are in use; preferences may be older. `
        : salvaged
          ? `The terminal stays on ${salvaged}, as the damaged file said; its addresses and preferences are the defaults until a manager enters them. `
          : 'The environment could not be read from it: the terminal runs in training until a manager chooses the environment in Settings. '
    file = {
      ...file,
      recovered: {
        at: now(),
        message:
          `The settings file could not be read (${read.message}). ${kept}A manager must check Settings. ` +
          (aside ? `The old file was kept as ${aside}.` : 'The old file could not be moved aside.'),
      },
    };
    recoveredNow = true;
  }
  loadProblem = file.recovered?.message ?? null;
  let recovered = file.recovered;

  const held = heldFromFile(file);
  let preferences: Preferences = held.preferences;
  let environment: Environment = held.environment;
  const addresses: { staging?: Addresses; production?: Addresses } = held.addresses;
  let training: Addresses = { authUrl: '', baseUrl: '' };

  const override = options.override ?? {};
  if (override.environment) environment = override.environment;
  preferences = { ...preferences, ...definedOnly(pickPreferences(override)) };
  if (override.authUrl !== undefined && override.baseUrl !== undefined && environment !== 'training')
    addresses[environment] = { authUrl: override.authUrl, baseUrl: override.baseUrl };

  const save = (): void => {
    const out = fileFromHeld({ environment, preferences, addresses }, recovered);
    const text = `${JSON.stringify(out, null, 2)}\n`;
    writeFileAtomic(options.file, text);
    writeFileAtomic(backupFile, text);
  };
  // What was recovered is written at once: the next start must not find no file and begin in training.
  if (recoveredNow) {
    try {
      save();
    } catch {
      // Said already; the terminal runs on what was recovered and tries again at the next save.
    }
  }

  const store: SettingsStore = {
    loadProblem,
    problem: () => recovered?.message ?? null,
    get() {
      return viewOf({ environment, preferences, addresses }, training);
    },
    update(patch) {
      preferences = PreferencesSchema.parse({ ...preferences, ...definedOnly(patch) });
      recovered = undefined; // a manager has looked at the settings
      save();
      return store.get();
    },
    switchTo(next, where) {
      environment = next;
      if (next !== 'training' && where) addresses[next] = { ...where };
      recovered = undefined;
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
