/**
 * The store's packers (issue 24): the staff list a manager keeps, their badges and personal PINs,
 * and who is packing at this counter now. Every tap and audited move is stamped with that name
 * (outbox `packer`); a store that keeps no list runs on the counter's name, as before.
 *
 * A personal PIN is stored only as scrypt(PIN, a salt shared by many packers), so a typed PIN finds
 * its packer by deriving once per salt and looking the hash up: a per-packer salt would mean one
 * slow derivation per packer for every sign-in. A sign-in derives with at most MAX_PIN_DERIVATIONS
 * salts, however many the list holds: the store's salt (in a store hub, one made from the hub's
 * pinned certificate fingerprint, the same on every counter: storeSaltOf), this file's own salt,
 * then the most used others. New PINs are made with the store's salt (this file's own without a
 * hub); a PIN that signs in with another salt is made again with the store's (the PIN is known
 * then) and shared, so a store's PINs come to one salt. Before, every distinct salt cost one
 * derivation: 150 entries written into the hub, each with a salt of its own, made a sign-in (or a
 * wrong PIN) take 7.4 s. With a store hub the list is the store's (`merge`, `sharedList`). A packer's PIN may never be the
 * manager's (asked of the PIN store without counting a wrong guess: only a manager, PIN already
 * given, sets packers' PINs), nor another packer's. No PIN reaches a log or the screen; PIN hashes
 * travel only inside the store hub (TLS, the store's secret), never to the renderer or north.
 */
import { createHash, randomBytes as nodeRandomBytes, randomUUID, scrypt } from 'node:crypto';
import { z } from 'zod';
import { builtOnce } from '../../../shared/on-first-use';
import { BADGE_ALPHABET, BADGE_PREFIX, isBadgeCode, normalBadge, PACKER_NAME_MAX } from '../../../shared/staff';
import { fail, ok, type Result } from '../../../shared/result';
import type { StaffRow, Store } from '../db';

/** One packer as screens see it: never the PIN's hash. */
export interface StaffMember {
  readonly id: number;
  readonly name: string;
  readonly badge: string;
  readonly hasPin: boolean;
}

/** Who is packing at this counter now. */
export interface Packer {
  readonly id: number;
  readonly name: string;
}

/**
 * One packer as the store's counters share them through the hub: by uid, the newest change winning,
 * a removal (`removedAt`) winning over any change. Main process and hub only: it holds the PIN hash.
 */
export const sharedMemberSchema = builtOnce(() => z.object({
  uid: z.string().min(1).max(64),
  name: z.string().min(1).max(PACKER_NAME_MAX + 8),
  badge: z.string().min(1).max(32),
  pinHash: z.string().max(200).nullable(),
  /** The salt of `pinHash` (base64); null with no PIN. */
  pinSalt: z.string().max(200).nullable(),
  addedAt: z.number().int(),
  updatedAt: z.number().int(),
  /** Taken off the list then; the other fields are the packer's last. */
  removedAt: z.number().int().nullable(),
}));
export type SharedMember = z.infer<ReturnType<typeof sharedMemberSchema>>;

/**
 * The port through which the store hub shares the staff list between counters (host/hub/). One
 * counter needs none: the list is this counter's data file.
 */
export interface StaffSharing {
  /** A member was added, renamed, given a PIN or a badge, or removed at this counter (or renamed here to settle a clash of names). */
  changed(member: SharedMember): void;
  /** The store's PIN salt (storeSaltOf the hub's fingerprint), or null while this counter is in no hub. */
  storeSalt?(): string | null;
}

/** A store's PIN salt: the same on every counter of a store hub, from the hub certificate's fingerprint its join code pins. */
export function storeSaltOf(fingerprint: string): string {
  return createHash('sha256').update(`packdesk-pin-salt\u0000${fingerprint}`).digest().subarray(0, 16).toString('base64');
}

export interface StaffOptions {
  readonly store: Store;
  readonly now: () => number;
  readonly randomBytes?: (size: number) => Buffer;
  /** True when `pin` is the manager's PIN (a check that counts no wrong guess); absent: no manager PIN to compare. */
  readonly isManagerPin?: (pin: string) => Promise<boolean>;
  /** scrypt cost; tests may lower it. */
  readonly cost?: { N: number; r: number; p: number };
  readonly sharing?: StaffSharing;
  /** Told whenever the signed-in packer changes, and when the list gains or loses a packer (whether the store keeps names). */
  readonly onChange?: (packer: Packer | null) => void;
}

/** Key derivations a typed PIN costs at most (a sign-in, a wrong PIN, a PIN checked before it is given). */
export const MAX_PIN_DERIVATIONS = 3;

/** Wrong personal PINs in a row before sign-in by PIN pauses. */
export const PIN_TRIES = 5;
/** How long sign-in by PIN pauses after PIN_TRIES wrong ones, ms (a badge still signs in). */
export const PIN_PAUSE_MS = 30_000;

const PIN_FORMAT = /^\d{4,8}$/;
// Cheaper than the manager PIN's 2^15: a sign-in is one derivation while the packer waits, and a
// personal PIN guards who is named on a tap, not the terminal's settings.
const DEFAULT_COST = { N: 1 << 14, r: 8, p: 1 } as const;

export type Staff = ReturnType<typeof createStaff>;

/** Builds the staff list over an open store; the signed-in packer lives in memory (a restart asks again). */
export function createStaff(options: StaffOptions) {
  const { store } = options;
  const random = options.randomBytes ?? nodeRandomBytes;
  const cost = options.cost ?? DEFAULT_COST;
  let current: Packer | null = null;
  let wrongPins = 0;
  let pausedUntil = 0;

  const member = (r: StaffRow): StaffMember => ({ id: r.id, name: r.name, badge: r.badge, hasPin: r.pinHash !== null });
  // A removal keeps no PIN hash: the tombstone stays in the hub for good.
  const sharedOf = (r: StaffRow, removedAt: number | null): SharedMember => ({
    uid: r.uid,
    name: r.name,
    badge: r.badge,
    pinHash: removedAt === null ? r.pinHash : null,
    pinSalt: removedAt === null && r.pinHash !== null ? (r.pinSalt ?? ownSalt()) : null,
    addedAt: r.addedAt,
    updatedAt: removedAt ?? r.updatedAt,
    removedAt,
  });
  const share = (r: StaffRow, removedAt: number | null = null): void => options.sharing?.changed(sharedOf(r, removedAt));
  const setCurrent = (p: Packer | null): void => {
    current = p;
    options.onChange?.(p);
  };

  /** This file's PIN salt (base64), made the first time it is needed. */
  const ownSalt = (): string => store.transaction(() => store.staff.salt(() => random(16).toString('base64')));
  /** The salt new PINs are made with: the store's in a store hub, else this file's own. */
  const preferredSalt = (): string => options.sharing?.storeSalt?.() ?? ownSalt();
  const hashOf = (pin: string, salt: string): Promise<string> =>
    new Promise((resolve, reject) =>
      scrypt(pin, Buffer.from(salt, 'base64'), 32, { ...cost, maxmem: 256 * cost.N * cost.r }, (err, key) => (err ? reject(err) : resolve(key.toString('base64')))),
    );
  /** Every packer whose PIN is `pin` among the salts worth a derivation: at most MAX_PIN_DERIVATIONS, however many the list holds. */
  const holdersOf = async (pin: string): Promise<{ row: StaffRow; salt: string }[]> => {
    const own = ownSalt();
    // Only salts some PIN was made with: once a store's PINs are on its salt, one derivation.
    const used = (salt: string): boolean => store.staff.usesPinSalt(salt) || (salt === own && store.staff.usesPinSalt(null));
    const candidates = [preferredSalt(), own, ...store.staff.pinSalts(MAX_PIN_DERIVATIONS).map((x) => x ?? own)];
    const salts = [...new Set(candidates)].filter(used).slice(0, MAX_PIN_DERIVATIONS);
    const found = new Map<number, { row: StaffRow; salt: string }>();
    for (const salt of salts) {
      const row = store.staff.byPinHash(await hashOf(pin, salt));
      if (row) found.set(row.id, { row, salt });
    }
    return [...found.values()];
  };
  /** A PIN that signed in with a salt other than the store's is made again with it (the PIN is known now) and shared. */
  const toStoreSalt = async (pin: string, found: { row: StaffRow; salt: string }): Promise<void> => {
    const salt = preferredSalt();
    if (found.salt === salt) return;
    const hash = await hashOf(pin, salt);
    const moved = store.transaction(() => {
      const now = store.staff.get(found.row.id);
      // Changed meanwhile (another PIN given, the packer removed): left as it is.
      return now && now.pinHash === found.row.pinHash ? store.staff.setPin(now.id, hash, salt, Math.max(options.now(), now.updatedAt + 1)) : null;
    });
    if (moved) share(moved);
  };

  const newBadge = (): string => {
    for (;;) {
      const bytes = random(8);
      const code = BADGE_PREFIX + [...bytes].map((b) => BADGE_ALPHABET[b % 32]).join('');
      if (!store.staff.byBadge(code)) return code;
    }
  };

  const checkName = (raw: string, except: number | null): Result<string> => {
    const name = raw.trim().replace(/\s+/g, ' ');
    if (name.length === 0) return fail('invalid', 'Give the packer a name.', 'STAFF_NAME_EMPTY');
    if (name.length > PACKER_NAME_MAX) return fail('invalid', `A name is at most ${PACKER_NAME_MAX} characters.`, 'STAFF_NAME_LONG', { max: PACKER_NAME_MAX });
    const same = store.staff.byName(name);
    if (same && same.id !== except) return fail('invalid', `There is already a packer called ${same.name}.`, 'STAFF_NAME_TAKEN', { name: same.name });
    return ok(name);
  };

  /** `name (2)`, `name (3)`… : the first no packer has. */
  const freeName = (name: string): string => {
    const base = name.replace(/ \(\d+\)$/, '').slice(0, PACKER_NAME_MAX - 5);
    for (let n = 2; ; n++) if (!store.staff.byName(`${base} (${n})`)) return `${base} (${n})`;
  };

  /** The hash to store for a new personal PIN, or why it cannot be one. */
  const pinHashFor = async (pin: string, except: number | null): Promise<Result<string>> => {
    if (!PIN_FORMAT.test(pin)) return fail('invalid', 'A PIN is 4 to 8 digits.', 'PIN_FORMAT');
    if (options.isManagerPin && (await options.isManagerPin(pin)))
      return fail('invalid', "A packer's PIN cannot be the manager PIN. Choose another.", 'STAFF_PIN_IS_MANAGER');
    if ((await holdersOf(pin)).some((h) => h.row.id !== except)) return fail('invalid', 'Another packer has this PIN. Choose another.', 'STAFF_PIN_TAKEN');
    return ok(await hashOf(pin, preferredSalt()));
  };

  return {
    /** Every packer, by name. */
    list: (): StaffMember[] => store.staff.list().map(member),
    /** Whether the store keeps names at all (no list: the counter's name stands in). */
    named: (): boolean => store.staff.count() > 0,
    /** Who is packing at this counter now, or null. */
    current: (): Packer | null => current,
    /** The name taps are stamped with now (null: nobody signed in). */
    packerName: (): string | null => current?.name ?? null,

    /** Adds a packer with a new badge, and a personal PIN when given. */
    async add(name: string, pin?: string): Promise<Result<StaffMember>> {
      const n = checkName(name, null);
      if (!n.ok) return n;
      let pinHash: string | null = null;
      if (pin !== undefined) {
        const h = await pinHashFor(pin, null);
        if (!h.ok) return h;
        pinHash = h.value;
      }
      const row = store.transaction(() => {
        // Checked again inside the write: another add may have taken the name while the PIN was hashed.
        if (store.staff.byName(n.value)) return null;
        const at = options.now();
        return store.staff.add({
          uid: randomUUID(),
          name: n.value,
          badge: newBadge(),
          pinHash,
          pinSalt: pinHash === null ? null : preferredSalt(),
          addedAt: at,
          updatedAt: at,
        });
      });
      if (!row) return fail('invalid', `There is already a packer called ${n.value}.`, 'STAFF_NAME_TAKEN', { name: n.value });
      share(row);
      // The first name on the list changes what the counter says ("scan your badge").
      options.onChange?.(current);
      return ok(member(row));
    },

    /** Renames a packer, sets or clears their PIN (`pin` null), or prints them a new badge (the old one stops working). */
    async update(id: number, patch: { name?: string; pin?: string | null; newBadge?: boolean }): Promise<Result<StaffMember>> {
      const existing = store.staff.get(id);
      if (!existing) return fail('invalid', 'That packer is no longer on the list.', 'STAFF_NOT_FOUND');
      let name: string | undefined;
      if (patch.name !== undefined) {
        const n = checkName(patch.name, id);
        if (!n.ok) return n;
        name = n.value;
      }
      let pinHash: string | null | undefined;
      if (patch.pin === null) pinHash = null;
      else if (patch.pin !== undefined) {
        const h = await pinHashFor(patch.pin, id);
        if (!h.ok) return h;
        pinHash = h.value;
      }
      const row = store.transaction(() => {
        const at = options.now();
        let r = store.staff.get(id);
        if (r && name !== undefined) r = store.staff.rename(id, name, at);
        if (r && pinHash !== undefined) r = store.staff.setPin(id, pinHash, pinHash === null ? null : preferredSalt(), at);
        if (r && patch.newBadge) r = store.staff.setBadge(id, newBadge(), at);
        return r;
      });
      if (!row) return fail('invalid', 'That packer is no longer on the list.', 'STAFF_NOT_FOUND');
      if (current?.id === id) setCurrent({ id, name: row.name });
      share(row);
      return ok(member(row));
    },

    /** Takes a packer off the list (their badge and PIN stop working; their name stays on what they did). */
    remove(id: number): Result<true> {
      const at = options.now();
      const gone = store.transaction(() => {
        const row = store.staff.get(id);
        return row && store.staff.remove(id, at) ? row : null;
      });
      if (!gone) return fail('invalid', 'That packer is no longer on the list.', 'STAFF_NOT_FOUND');
      if (current?.id === id) setCurrent(null);
      else options.onChange?.(current);
      share(gone, at);
      return ok(true as const);
    },

    /** A badge scanned: its packer is packing now (one scan switches packers). */
    signInByBadge(code: string): Result<Packer> {
      if (!isBadgeCode(code)) return fail('invalid', 'That is not a packer badge.', 'BADGE_UNKNOWN');
      const row = store.staff.byBadge(normalBadge(code));
      if (!row) return fail('invalid', 'This badge is not on the staff list (a new one may have been printed).', 'BADGE_UNKNOWN');
      setCurrent({ id: row.id, name: row.name });
      return ok(current as Packer);
    },

    /** A personal PIN typed: its packer is packing now. After PIN_TRIES wrong ones, PIN sign-in pauses. */
    async signInByPin(pin: string): Promise<Result<Packer>> {
      const t = options.now();
      if (t < pausedUntil)
        return fail('auth', 'Too many wrong PINs. Scan your badge, or try again in a moment.', 'STAFF_PIN_PAUSED', {
          seconds: Math.ceil((pausedUntil - t) / 1000),
        });
      const rows = PIN_FORMAT.test(pin) ? await holdersOf(pin) : [];
      // Two lists kept apart, then joined in one store hub, may give two packers one PIN: say so.
      if (rows.length > 1) return fail('auth', 'Two packers have this PIN. Scan your badge; a manager gives one of them another PIN.', 'STAFF_PIN_SHARED');
      const found = rows[0];
      if (!found) {
        wrongPins += 1;
        if (wrongPins >= PIN_TRIES) {
          wrongPins = 0;
          pausedUntil = t + PIN_PAUSE_MS;
        }
        return fail('auth', 'No packer has this PIN.', 'STAFF_PIN_WRONG');
      }
      wrongPins = 0;
      setCurrent({ id: found.row.id, name: found.row.name });
      await toStoreSalt(pin, found).catch(() => undefined);
      return ok(current as Packer);
    },

    /** Nobody is packing at this counter now (taps are the counter's again). */
    signOut(): void {
      setCurrent(null);
    },

    /** True when some packer has this PIN (the manager PIN may not be set to one). */
    async isPackerPin(pin: string): Promise<boolean> {
      if (!PIN_FORMAT.test(pin) || store.staff.count() === 0) return false;
      return (await holdersOf(pin)).length > 0;
    },

    /** The list as the store hub shares it: every packer, and every one taken off it. */
    sharedList(): SharedMember[] {
      const rows = store.staff.list().map((r) => sharedOf(r, null));
      const gone: SharedMember[] = store.staff.removed().map(({ uid, removedAt }) => ({
        uid, name: '-', badge: '-', pinHash: null, pinSalt: null, addedAt: removedAt, updatedAt: removedAt, removedAt,
      }));
      return [...rows, ...gone];
    },

    /**
     * Another counter's word on a packer, heard through the store hub. A removal always wins (a
     * counter that was away never brings a packer back); otherwise the newest change wins. Two
     * packers of one name (lists kept apart before a counter joined) both stay: the one with the
     * greater uid is called "Name (2)" on every counter alike, and the counter that renames it
     * shares the rename. Answers whether this file changed.
     */
    merge(incoming: SharedMember): boolean {
      const parsed = sharedMemberSchema().safeParse(incoming);
      if (!parsed.success) return false;
      const m = parsed.data;
      const renamed: StaffRow[] = [];
      const changed = store.transaction((): boolean => {
        if (m.removedAt !== null) {
          const had = store.staff.byUid(m.uid);
          const was = store.staff.removedAt(m.uid);
          store.staff.removeUid(m.uid, m.removedAt);
          if (had && current?.id === had.id) current = null;
          return had !== null || was === null;
        }
        if (store.staff.removedAt(m.uid) !== null) return false;
        const mine = store.staff.byUid(m.uid);
        if (mine && mine.updatedAt >= m.updatedAt) return false;
        let name = m.name;
        const clash = store.staff.byName(name);
        if (clash && clash.uid !== m.uid) {
          if (clash.uid > m.uid) {
            const moved = store.staff.rename(clash.id, freeName(clash.name), Math.max(options.now(), clash.updatedAt + 1));
            if (moved) renamed.push(moved);
          } else name = freeName(name);
        }
        const badgeHolder = store.staff.byBadge(m.badge);
        if (badgeHolder && badgeHolder.uid !== m.uid) {
          const rebadged = store.staff.setBadge(badgeHolder.id, newBadge(), Math.max(options.now(), badgeHolder.updatedAt + 1));
          if (rebadged) renamed.push(rebadged);
        }
        const row = { uid: m.uid, name, badge: m.badge, pinHash: m.pinHash, pinSalt: m.pinSalt, addedAt: m.addedAt, updatedAt: m.updatedAt };
        const stored = mine ? store.staff.replace(row) : store.staff.add(row);
        if (stored && name !== m.name) renamed.push(stored);
        if (stored && current?.id === stored.id) current = { id: stored.id, name: stored.name };
        return true;
      });
      for (const r of renamed) share(r);
      if (changed) options.onChange?.(current);
      return changed;
    },
  };
}
