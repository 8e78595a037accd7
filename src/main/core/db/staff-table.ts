/** SQL for the store's staff list, its PIN salt and its removals. The rules (hashing, badges, sign-in, the store-wide merge) live in core/staff. */
import type { Database } from 'better-sqlite3';
import { z } from 'zod';
import { builtOnce } from '../../../shared/on-first-use';

/** One packer as stored. `pinHash` never leaves the main process (the store hub excepted: core/staff). */
export interface StaffRow {
  readonly id: number;
  /** The packer's id across the store's counters. */
  readonly uid: string;
  readonly name: string;
  readonly badge: string;
  readonly pinHash: string | null;
  /** The salt `pinHash` was made with; null: this file's own (staff_key). */
  readonly pinSalt: string | null;
  readonly addedAt: number;
  /** When the packer was last added, renamed, given a PIN or a badge (the newest change wins store-wide). */
  readonly updatedAt: number;
}

const rowSchema = builtOnce(() => z.object({
  id: z.number().int(),
  uid: z.string().min(1),
  name: z.string().min(1),
  badge: z.string().min(1),
  pin_hash: z.string().nullable(),
  pin_salt: z.string().nullable(),
  added_at: z.number().int(),
  updated_at: z.number().int().nullable(),
}));

const parse = (raw: unknown): StaffRow => {
  const r = rowSchema().parse(raw);
  return { id: r.id, uid: r.uid, name: r.name, badge: r.badge, pinHash: r.pin_hash, pinSalt: r.pin_salt, addedAt: r.added_at, updatedAt: r.updated_at ?? r.added_at };
};
const one = (raw: unknown): StaffRow | null => (raw === undefined ? null : parse(raw));

export type StaffTable = ReturnType<typeof createStaffTable>;

/** Prepared statements for the staff list, wrapped in typed functions. */
export function createStaffTable(db: Database) {
  const s = {
    // A store has a few dozen packers at most: the whole list is the Settings screen's.
    list: db.prepare(`SELECT * FROM staff ORDER BY name COLLATE NOCASE, id`),
    get: db.prepare(`SELECT * FROM staff WHERE id = ?`),
    byUid: db.prepare(`SELECT * FROM staff WHERE uid = ?`),
    byBadge: db.prepare(`SELECT * FROM staff WHERE badge = ?`),
    byPinHash: db.prepare(`SELECT * FROM staff WHERE pin_hash = ?`),
    byName: db.prepare(`SELECT * FROM staff WHERE name = ? COLLATE NOCASE`),
    // The most used first: a store's own salts cover many packers, an entry with a salt of its own one.
    pinSalts: db.prepare(`SELECT pin_salt FROM staff WHERE pin_hash IS NOT NULL GROUP BY pin_salt ORDER BY COUNT(*) DESC, pin_salt LIMIT ?`).pluck(),
    count: db.prepare(`SELECT COUNT(*) FROM staff`).pluck(),
    usesSalt: db.prepare(`SELECT EXISTS (SELECT 1 FROM staff WHERE pin_hash IS NOT NULL AND pin_salt IS ?)`).pluck(),
    add: db.prepare(
      `INSERT INTO staff (uid, name, badge, pin_hash, pin_salt, added_at, updated_at)
       VALUES (@uid, @name, @badge, @pinHash, @pinSalt, @addedAt, @updatedAt) RETURNING *`,
    ),
    rename: db.prepare(`UPDATE staff SET name = ?, updated_at = ? WHERE id = ? RETURNING *`),
    setPin: db.prepare(`UPDATE staff SET pin_hash = ?, pin_salt = ?, updated_at = ? WHERE id = ? RETURNING *`),
    setBadge: db.prepare(`UPDATE staff SET badge = ?, updated_at = ? WHERE id = ? RETURNING *`),
    replace: db.prepare(
      `UPDATE staff SET name = @name, badge = @badge, pin_hash = @pinHash, pin_salt = @pinSalt, added_at = @addedAt, updated_at = @updatedAt
       WHERE uid = @uid RETURNING *`,
    ),
    remove: db.prepare(`DELETE FROM staff WHERE id = ?`),
    removeUid: db.prepare(`DELETE FROM staff WHERE uid = ?`),
    noteRemoved: db.prepare(
      `INSERT INTO staff_removed (uid, removed_at) VALUES (?, ?) ON CONFLICT (uid) DO UPDATE SET removed_at = max(removed_at, excluded.removed_at)`,
    ),
    removed: db.prepare(`SELECT uid, removed_at FROM staff_removed`),
    removedAt: db.prepare(`SELECT removed_at FROM staff_removed WHERE uid = ?`).pluck(),
    salt: db.prepare(`SELECT salt FROM staff_key WHERE id = 1`).pluck(),
    putSalt: db.prepare(`INSERT INTO staff_key (id, salt) VALUES (1, ?) ON CONFLICT (id) DO NOTHING`),
  };
  return {
    list: (): StaffRow[] => s.list.all().map(parse),
    get: (id: number): StaffRow | null => one(s.get.get(id)),
    byUid: (uid: string): StaffRow | null => one(s.byUid.get(uid)),
    byBadge: (badge: string): StaffRow | null => one(s.byBadge.get(badge)),
    byPinHash: (hash: string): StaffRow | null => one(s.byPinHash.get(hash)),
    /** The packer of that name, whatever its case, or null. */
    byName: (name: string): StaffRow | null => one(s.byName.get(name)),
    /** The `limit` salts the most of the list's PIN hashes were made with, the most used first (null: this file's own). */
    pinSalts: (limit: number): (string | null)[] => s.pinSalts.all(limit) as (string | null)[],
    count: (): number => Number(s.count.get()),
    /** Whether some PIN hash was made with `salt` (null: this file's own, as rows before version 13 hold it). */
    usesPinSalt: (salt: string | null): boolean => Number(s.usesSalt.get(salt)) === 1,
    add: (row: Omit<StaffRow, 'id'>): StaffRow => parse(s.add.get(row)),
    rename: (id: number, name: string, at: number): StaffRow | null => one(s.rename.get(name, at, id)),
    setPin: (id: number, pinHash: string | null, pinSalt: string | null, at: number): StaffRow | null => one(s.setPin.get(pinHash, pinSalt, at, id)),
    setBadge: (id: number, badge: string, at: number): StaffRow | null => one(s.setBadge.get(badge, at, id)),
    /** Overwrites the packer `row.uid` with another counter's newer word; null when this file has no such packer. */
    replace: (row: Omit<StaffRow, 'id'>): StaffRow | null => one(s.replace.get(row)),
    /** Takes a packer off the list and remembers it was, so that no counter brings them back. */
    remove(id: number, at: number): boolean {
      const row = one(s.get.get(id));
      if (!row) return false;
      s.remove.run(id);
      s.noteRemoved.run(row.uid, at);
      return true;
    },
    /** Another counter's removal: remembered whether or not this file had the packer. */
    removeUid(uid: string, at: number): boolean {
      s.noteRemoved.run(uid, at);
      return s.removeUid.run(uid).changes > 0;
    },
    /** Every packer taken off the list, as uid and when. */
    removed: (): { uid: string; removedAt: number }[] =>
      (s.removed.all() as { uid: string; removed_at: number }[]).map((r) => ({ uid: r.uid, removedAt: r.removed_at })),
    /** When the packer `uid` was taken off the list, or null. */
    removedAt: (uid: string): number | null => (s.removedAt.get(uid) as number | undefined) ?? null,
    /** The store's PIN salt, made with `fresh` the first time it is asked for (inside a transaction). */
    salt(fresh: () => string): string {
      s.putSalt.run(fresh());
      return String(s.salt.get());
    },
  };
}
