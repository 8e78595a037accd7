/**
 * The manager PIN. Only a scrypt hash with a random salt is stored (`<dataDir>/pin.json`), never
 * the PIN. Wrong guesses are counted on disk, so restarting the app does not reset the lockout:
 * after MAX_FREE_FAILURES wrong PINs every further try is refused for a delay that doubles.
 */
import { randomBytes as nodeRandomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { fail, ok, type Result } from '../../../shared/result';
import { readJsonFile, writeFileAtomic } from '../settings/files';
import { oneAtATime } from '../serial';

/** Wrong PINs allowed before the lockout starts. */
export const MAX_FREE_FAILURES = 5;
/** First lockout; each further wrong PIN doubles it, up to LOCKOUT_MAX_MS. */
export const LOCKOUT_BASE_MS = 30_000;
export const LOCKOUT_MAX_MS = 60 * 60_000;

const PIN_FORMAT = /^\d{4,8}$/;
const KEY_LENGTH = 32;

// N=2^15 takes ~50-100 ms on a counter PC: slow enough to make an offline guess of every 4-8 digit
// PIN expensive, fast enough for a manager waiting on a tap.
const DEFAULT_COST = { N: 1 << 15, r: 8, p: 1 } as const;

const PinFileSchema = z.object({
  version: z.literal(1),
  algorithm: z.literal('scrypt'),
  N: z.number().int().positive(),
  r: z.number().int().positive(),
  p: z.number().int().positive(),
  salt: z.string().min(1),
  // A short or empty hash would make every PIN "match"; only a full-length key is accepted.
  hash: z.string().refine((h) => Buffer.from(h, 'base64').length === KEY_LENGTH, 'hash has the wrong length'),
  failures: z.number().int().min(0),
  lockedUntil: z.number().nullable(),
});
type PinFile = z.infer<typeof PinFileSchema>;

type Counters = Pick<PinFile, 'failures' | 'lockedUntil'>;
const NO_FAILURES: Counters = { failures: 0, lockedUntil: null };

export interface PinStoreOptions {
  /** Path of pin.json. */
  file: string;
  now?: () => number;
  randomBytes?: (size: number) => Buffer;
  /** scrypt cost; tests may lower it. */
  cost?: { N: number; r: number; p: number };
}

export interface PinStore {
  /** Whether a manager PIN has been set. */
  isSet(): boolean;
  /** Checks a PIN: ok(true) when right; a Problem when wrong, locked out, or no PIN is set. */
  check(pin: string): Promise<Result<true>>;
  /** Whether the PIN is right, for `pin.verify`: a wrong PIN is ok(false); lockout and "not set" are problems. */
  verify(pin: string): Promise<Result<boolean>>;
  /** Sets the PIN; `currentPin` is required once a PIN exists. */
  set(newPin: string, currentPin?: string): Promise<Result<true>>;
  /** Epoch ms until which PIN entry is refused, or null. */
  lockedUntil(): number | null;
  /**
   * Whether `pin` is the manager PIN, counting no wrong guess: only for a manager who has already
   * given the PIN (a packer's PIN may not equal it), never for letting anyone in.
   */
  matches(pin: string): Promise<boolean>;
}

/** Opens the PIN store; an unreadable pin.json is reported, never silently treated as "no PIN". */
export function openPinStore(options: PinStoreOptions): Result<PinStore> {
  const now = options.now ?? Date.now;
  const random = options.randomBytes ?? nodeRandomBytes;
  const cost = options.cost ?? DEFAULT_COST;

  const read = readJsonFile(options.file, PinFileSchema);
  if (read.kind === 'unreadable')
    // Treating a damaged PIN file as "no PIN" would let anyone set a new one; refuse instead.
    return fail(
      'permanent',
      `The manager PIN file (${options.file}) cannot be read: ${read.message}. Ask support to reset the PIN.`,
      'PIN_FILE_UNREADABLE',
    );
  let record: PinFile | null = read.kind === 'ok' ? read.value : null;
  // Every check is serialised, so parallel guesses cannot race past the failure counter.
  const serial = oneAtATime();

  const state = (): Counters => record ?? NO_FAILURES;
  const save = (): void => {
    if (record) writeFileAtomic(options.file, `${JSON.stringify(record)}\n`, 0o600);
  };

  const lockProblem = (until: number): Result<never> => {
    const seconds = Math.max(1, Math.ceil((until - now()) / 1000));
    const wait = seconds >= 120 ? `${Math.ceil(seconds / 60)} minutes` : `${seconds} seconds`;
    return fail('auth', `Too many wrong PINs. Try again in ${wait}.`, 'PIN_LOCKED', { minutes: Math.ceil(seconds / 60), seconds });
  };

  /** Compares against the stored hash and updates the counters; ok(false) for a wrong PIN. */
  const compare = async (pin: string): Promise<Result<boolean>> => {
    const s = state();
    if (s.lockedUntil !== null && now() < s.lockedUntil) return lockProblem(s.lockedUntil);
    if (!record) return fail('invalid', 'No manager PIN is set yet. Set one in settings first.', 'PIN_NOT_SET');
    const expected = Buffer.from(record.hash, 'base64');
    const right =
      PIN_FORMAT.test(pin) &&
      timingSafeEqual(await derive(pin, Buffer.from(record.salt, 'base64'), record, expected.length), expected);
    if (right) {
      record = { ...record, failures: 0, lockedUntil: null };
    } else {
      const failures = record.failures + 1;
      record = { ...record, failures, lockedUntil: lockoutAfter(failures, now()) };
    }
    save();
    return ok(right);
  };

  const wrongPin = (): Result<never> => {
    const s = state();
    if (s.lockedUntil !== null && now() < s.lockedUntil) return lockProblem(s.lockedUntil);
    const left = MAX_FREE_FAILURES - s.failures;
    return fail('auth', left > 1 ? 'Wrong PIN.' : 'Wrong PIN. One more wrong PIN locks PIN entry for a while.', 'PIN_WRONG', {
      triesLeft: Math.max(0, left),
    });
  };

  return ok({
    isSet: () => record !== null,
    lockedUntil: () => state().lockedUntil,
    matches: (pin) =>
      serial(async () => {
        if (!record || !PIN_FORMAT.test(pin)) return false;
        const expected = Buffer.from(record.hash, 'base64');
        return timingSafeEqual(await derive(pin, Buffer.from(record.salt, 'base64'), record, expected.length), expected);
      }),
    verify: (pin) => serial(() => compare(pin)),
    check: (pin) =>
      serial(async () => {
        const r = await compare(pin);
        if (!r.ok) return r;
        return r.value ? ok(true as const) : wrongPin();
      }),
    set: (newPin, currentPin) =>
      serial(async () => {
        if (!PIN_FORMAT.test(newPin)) return fail('invalid', 'The new PIN must be 4 to 8 digits.', 'PIN_FORMAT');
        if (record) {
          if (currentPin === undefined)
            return fail('invalid', 'Enter the current manager PIN to change it.', 'PIN_REQUIRED');
          const r = await compare(currentPin);
          if (!r.ok) return r;
          if (!r.value) return wrongPin();
        }
        const salt = random(16);
        const hash = await derive(newPin, salt, cost, KEY_LENGTH);
        record = {
          version: 1,
          algorithm: 'scrypt',
          ...cost,
          salt: salt.toString('base64'),
          hash: hash.toString('base64'),
          failures: 0,
          lockedUntil: null,
        };
        save();
        return ok(true as const);
      }),
  });
}

/** When PIN entry unlocks after `failures` wrong PINs in a row, or null while under the limit. */
export function lockoutAfter(failures: number, now: number): number | null {
  if (failures < MAX_FREE_FAILURES) return null;
  const doublings = Math.min(failures - MAX_FREE_FAILURES, 20);
  return now + Math.min(LOCKOUT_BASE_MS * 2 ** doublings, LOCKOUT_MAX_MS);
}

function derive(pin: string, salt: Buffer, cost: { N: number; r: number; p: number }, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // maxmem must cover 128 * N * r bytes, which the default (32 MiB) does not for N=2^15, r=8.
    scrypt(pin, salt, length, { ...cost, maxmem: 256 * cost.N * cost.r }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}
