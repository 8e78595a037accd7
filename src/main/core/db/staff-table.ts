/** SQL for the store's staff list and its PIN salt. The rules (hashing, badges, sign-in) live in core/staff. */
import type { Database } from 'better-sqlite3';
import { z } from 'zod';

/** One packer as stored. `pinHash` never leaves the main process. */
export interface StaffRow {
  readonly id: number;
  readonly name: string;
  readonly badge: string;
  readonly pinHash: string | null;
  readonly addedAt: number;
}

const RowSchema = z.object({
  id: z.number().int(),
  name: z.string().min(1),
  badge: z.string().min(1),
  pin_hash: z.string().nullable(),
  added_at: z.number().int(),
});

const parse = (raw: unknown): StaffRow => {
  const r = RowSchema.parse(raw);
  return { id: r.id, name: r.name, badge: r.badge, pinHash: r.pin_hash, addedAt: r.added_at };
};
const one = (raw: unknown): StaffRow | null => (raw === undefined ? null : parse(raw));

export type StaffTable = ReturnType<typeof createStaffTable>;

/** Prepared statements for the staff list, wrapped in typed functions. */
export function createStaffTable(db: Database) {
  const s = {
    // A store has a few dozen packers at most: the whole list is the Settings screen's.
    list: db.prepare(`SELECT * FROM staff ORDER BY name COLLATE NOCASE, id`),
    get: db.prepare(`SELECT * FROM staff WHERE id = ?`),
    byBadge: db.prepare(`SELECT * FROM staff WHERE badge = ?`),
    byPinHash: db.prepare(`SELECT * FROM staff WHERE pin_hash = ?`),
    byName: db.prepare(`SELECT * FROM staff WHERE name = ? COLLATE NOCASE`),
    count: db.prepare(`SELECT COUNT(*) FROM staff`).pluck(),
    add: db.prepare(`INSERT INTO staff (name, badge, pin_hash, added_at) VALUES (@name, @badge, @pinHash, @addedAt) RETURNING *`),
    rename: db.prepare(`UPDATE staff SET name = ? WHERE id = ? RETURNING *`),
    setPin: db.prepare(`UPDATE staff SET pin_hash = ? WHERE id = ? RETURNING *`),
    setBadge: db.prepare(`UPDATE staff SET badge = ? WHERE id = ? RETURNING *`),
    remove: db.prepare(`DELETE FROM staff WHERE id = ?`),
    salt: db.prepare(`SELECT salt FROM staff_key WHERE id = 1`).pluck(),
    putSalt: db.prepare(`INSERT INTO staff_key (id, salt) VALUES (1, ?) ON CONFLICT (id) DO NOTHING`),
  };
  return {
    list: (): StaffRow[] => s.list.all().map(parse),
    get: (id: number): StaffRow | null => one(s.get.get(id)),
    byBadge: (badge: string): StaffRow | null => one(s.byBadge.get(badge)),
    byPinHash: (hash: string): StaffRow | null => one(s.byPinHash.get(hash)),
    /** The packer of that name, whatever its case, or null. */
    byName: (name: string): StaffRow | null => one(s.byName.get(name)),
    count: (): number => Number(s.count.get()),
    add: (row: Omit<StaffRow, 'id'>): StaffRow => parse(s.add.get(row)),
    rename: (id: number, name: string): StaffRow | null => one(s.rename.get(name, id)),
    setPin: (id: number, pinHash: string | null): StaffRow | null => one(s.setPin.get(pinHash, id)),
    setBadge: (id: number, badge: string): StaffRow | null => one(s.setBadge.get(badge, id)),
    remove: (id: number): boolean => s.remove.run(id).changes > 0,
    /** The store's PIN salt, made with `fresh` the first time it is asked for (inside a transaction). */
    salt(fresh: () => string): string {
      s.putSalt.run(fresh());
      return String(s.salt.get());
    },
  };
}
