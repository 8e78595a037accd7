/** SQL for order intake's state: the cursor of the last complete window and a refusal of access. */
import type { Database } from 'better-sqlite3';
import { z } from 'zod';

/** Intake's stored state, typed. */
export interface IntakeState {
  /** toTimestamp of the last window whose every id was stored; null before the first complete pass. */
  readonly cursorTo: number | null;
  readonly lastPassAt: number | null;
  /** The service refused this client a read call: its words, and the settings they were said for. */
  readonly noAccess: { readonly message: string; readonly settings: string } | null;
}

const RowSchema = z.object({
  cursor_to: z.number().int().nullable(),
  last_pass_at: z.number().int().nullable(),
  no_access: z.string().nullable(),
  no_access_settings: z.string().nullable(),
});

export type IntakeTable = ReturnType<typeof createIntakeTable>;

/** Prepared statements for the intake row. */
export function createIntakeTable(db: Database) {
  const s = {
    get: db.prepare(`SELECT cursor_to, last_pass_at, no_access, no_access_settings FROM intake WHERE id = 1`),
    commit: db.prepare(`UPDATE intake SET cursor_to = @to, last_pass_at = @at WHERE id = 1`),
    noAccess: db.prepare(`UPDATE intake SET no_access = @message, no_access_settings = @settings WHERE id = 1`),
  };
  return {
    get(): IntakeState {
      const r = RowSchema.parse(s.get.get());
      return {
        cursorTo: r.cursor_to,
        lastPassAt: r.last_pass_at,
        noAccess: r.no_access !== null ? { message: r.no_access, settings: r.no_access_settings ?? '' } : null,
      };
    },
    /** Moves the cursor: every id of the window up to `to` is stored. */
    commit(to: number, at: number): void {
      s.commit.run({ to, at });
    },
    /** Records (or, with null, clears) a refusal of access. */
    setNoAccess(value: { message: string; settings: string } | null): void {
      s.noAccess.run({ message: value?.message ?? null, settings: value?.settings ?? null });
    },
  };
}
