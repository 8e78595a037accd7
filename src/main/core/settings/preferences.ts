/** The preferences a manager edits, and what a new terminal starts with. */
import { DEFAULT_ORDER_ID_PATTERN, type Settings } from '../../../shared/ipc';

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
  // Off until a manager turns it on (Settings -> Staff): a store that packs by eye keeps doing so.
  scanToPack: false,
  claimQuietMs: 15 * 60_000,
};

/** The keys of `o` whose value is not undefined: a patch or a file leaves the rest as they are. */
export function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
