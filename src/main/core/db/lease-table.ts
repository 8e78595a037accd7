/** SQL for the sender lease: the one row saying which process sends this data file's queue. */
import type { Database } from 'better-sqlite3';
import { z } from 'zod';

const LeaseRowSchema = z.object({ holder: z.string(), pid: z.number().int(), taken_at: z.number().int() });

/** Who holds the lease. */
export interface LeaseRow {
  readonly holder: string;
  readonly pid: number;
  readonly takenAt: number;
}

export type LeaseTable = ReturnType<typeof createLeaseTable>;

/** Prepared statements for the lease; the caller runs them inside one IMMEDIATE transaction. */
export function createLeaseTable(db: Database) {
  const s = {
    get: db.prepare(`SELECT holder, pid, taken_at FROM sender_lease WHERE id = 1`),
    take: db.prepare(
      `INSERT INTO sender_lease (id, holder, pid, taken_at) VALUES (1, @holder, @pid, @now)
       ON CONFLICT (id) DO UPDATE SET holder = excluded.holder, pid = excluded.pid, taken_at = excluded.taken_at`,
    ),
    release: db.prepare(`DELETE FROM sender_lease WHERE id = 1 AND holder = ?`),
  };
  return {
    /** The current holder, or null when nobody holds it. */
    get(): LeaseRow | null {
      const raw = s.get.get();
      if (raw === undefined) return null;
      const r = LeaseRowSchema.parse(raw);
      return { holder: r.holder, pid: r.pid, takenAt: r.taken_at };
    },
    /** Writes `holder` as the holder, whoever held it before. */
    take(holder: string, pid: number, now: number): void {
      s.take.run({ holder, pid, now });
    },
    /** Gives the lease up if `holder` still holds it; true when it did. */
    release(holder: string): boolean {
      return s.release.run(holder).changes === 1;
    },
  };
}
