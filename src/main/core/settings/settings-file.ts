/**
 * `settings.json` on disk: its own schema (what is stored, under which name, in which version of
 * the file) and the translation between it and the settings the screens see (the IPC view). The
 * two are kept apart so that a change to what the screens are sent cannot change, or lose, what a
 * terminal has stored: a preference is stored only once it is named here.
 *
 * Version 1 is the format every Packdesk so far has written:
 *   { version: 1, environment, preferences: { ...some or all preferences }, addresses: { staging?, production? }, recovered? }
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { EnvironmentSchema, settingsSchema, type Environment, type Settings } from '../../../shared/ipc';
import { readJsonFile } from './files';
import { DEFAULT_PREFERENCES, definedOnly, type Addresses, type Preferences } from './preferences';

export const SETTINGS_FILE_VERSION = 1;

// A stored value the screens would refuse is refused here too, in the same words; so each
// preference is checked by the view's rule for it. Which preferences are stored, and under which
// name, is this file's: a preference the view gains is a type error here until it is named.
const rule = settingsSchema().shape;
const storedPreferences = {
  undoWindowMs: rule.undoWindowMs,
  concurrency: rule.concurrency,
  kiosk: rule.kiosk,
  autoLaunch: rule.autoLaunch,
  sounds: rule.sounds,
  updateChannel: rule.updateChannel,
  scannerPrefix: rule.scannerPrefix,
  orderIdPattern: rule.orderIdPattern,
  quietHour: rule.quietHour,
  paper: rule.paper,
  printer: rule.printer,
  autoPrintSlip: rule.autoPrintSlip,
  slipWholePhone: rule.slipWholePhone,
  serviceProviderId: rule.serviceProviderId,
  intakeIntervalMs: rule.intakeIntervalMs,
  alertRepeatMs: rule.alertRepeatMs,
  alertVolume: rule.alertVolume,
  language: rule.language,
  scanToPack: rule.scanToPack,
  claimQuietMs: rule.claimQuietMs,
} satisfies { [K in keyof Preferences]: z.ZodType<Preferences[K]> };

/** The preferences as a whole, each by its rule: what `settings.update` leaves after a patch. */
export const PreferencesSchema = z.object(storedPreferences);

const StoredAddressesSchema = z.object({ authUrl: z.string(), baseUrl: z.string() });

// Preferences are partial on disk, so a file from an older version (fewer keys) still loads;
// unknown keys from a newer version are dropped rather than refused.
export const SettingsFileSchema = z.object({
  version: z.literal(SETTINGS_FILE_VERSION),
  environment: EnvironmentSchema,
  preferences: PreferencesSchema.partial(),
  addresses: z.object({ staging: StoredAddressesSchema.optional(), production: StoredAddressesSchema.optional() }),
  // Set when the file was rebuilt from a damaged one; cleared when a manager saves settings, so the
  // warning outlives a restart.
  recovered: z.object({ at: z.number(), message: z.string().max(2000) }).optional(),
});
export type SettingsFile = z.infer<typeof SettingsFileSchema>;

/** What a terminal holds of its settings, read from the file or about to be written to it. */
export interface HeldSettings {
  readonly environment: Environment;
  readonly preferences: Preferences;
  readonly addresses: { staging?: Addresses; production?: Addresses };
}

/** The file a new terminal would write: training, nothing stored yet. */
export const EMPTY_SETTINGS_FILE: SettingsFile = { version: SETTINGS_FILE_VERSION, environment: 'training', preferences: {}, addresses: {} };

/** The file's settings as the terminal holds them: preferences it does not store are the defaults. */
export function heldFromFile(file: SettingsFile): HeldSettings {
  return {
    environment: file.environment,
    preferences: { ...DEFAULT_PREFERENCES, ...definedOnly(file.preferences) },
    addresses: { ...file.addresses },
  };
}

/** The file that stores `held` (with the note of a recovery a manager has not yet looked at). */
export function fileFromHeld(held: HeldSettings, recovered: SettingsFile['recovered']): SettingsFile {
  return {
    version: SETTINGS_FILE_VERSION,
    environment: held.environment,
    preferences: held.preferences,
    addresses: held.addresses,
    ...(recovered ? { recovered } : {}),
  };
}

/** The settings the screens see: the environment's addresses (training's are this run's sandbox) and the preferences. */
export function viewOf(held: HeldSettings, training: Addresses): Settings {
  const where = held.environment === 'training' ? training : (held.addresses[held.environment] ?? { authUrl: '', baseUrl: '' });
  return settingsSchema().parse({ environment: held.environment, ...where, ...held.preferences });
}

/** Where the copy of a settings file is kept. */
export function backupOf(file: string): string {
  return file.replace(/\.json$/, '') + '.backup.json';
}

export function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** The environment a damaged settings file still names (its first `"environment": "…"`), or null. */
export function salvageEnvironment(text: string): Environment | null {
  const named = /"environment"\s*:\s*"([a-z]+)"/.exec(text)?.[1];
  const parsed = EnvironmentSchema.safeParse(named);
  return parsed.success ? parsed.data : null;
}

/**
 * The environment the app's settings file names, as the app would start with it (the file, else its
 * copy, else what a damaged file still names), or null when neither says; never changes a file.
 */
export function savedEnvironment(file: string): Environment | null {
  const read = readJsonFile(file, SettingsFileSchema);
  if (read.kind === 'ok') return read.value.environment;
  const backup = readJsonFile(backupOf(file), SettingsFileSchema);
  if (backup.kind === 'ok') return backup.value.environment;
  return read.kind === 'unreadable' ? salvageEnvironment(readText(file)) : null;
}

/** What is wrong with the settings file in `dataDir` (unreadable, or rebuilt and not yet checked by a manager), or null; never changes it. */
export function settingsFileProblem(file: string): string | null {
  const read = readJsonFile(file, SettingsFileSchema);
  if (read.kind === 'missing') return null;
  if (read.kind === 'unreadable') return `${file} could not be read (${read.message}); the app will set it aside and keep what it can`;
  return read.value.recovered ? read.value.recovered.message : null;
}
