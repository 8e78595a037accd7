/** How the terminal stands: sync, intake, the app's own facts; and the commands that read them. */
import { z } from 'zod';
import { builtOnce } from '../on-first-use';
import { EnvironmentSchema } from './settings';
import { emptySchema, wordsSchema } from './shapes';

export const syncStatusSchema = builtOnce(() => z.object({
  connectivity: z.enum(['online', 'offline', 'unknown']),
  /** Taps queued or sending. */
  waiting: z.number().int(),
  /** Taps the service refused, holding their orders. */
  failed: z.number().int(),
  /** Taps refused after a try that got no answer: they may already be applied; a person checks. */
  toCheck: z.number().int(),
  oldestWaitingAt: z.number().nullable(),
  lastSuccessAt: z.number().nullable(),
  credentials: z.enum(['ok', 'missing', 'rejected']),
  /** A waiting tap older than the backlog threshold. */
  backlogAlarm: z.boolean(),
  /**
   * This terminal's clock minus the order service's, as its two witnesses tell it (the token's
   * issued_at, the service's Date header; whole seconds), or null before either has spoken.
   * Countdowns to the service's promised times subtract it, so they hold on a computer whose
   * clock is wrong.
   */
  clockSkewMs: z.number().nullable(),
  /** The engine's one sentence on what matters most, in English (the CLI's, and the fallback). */
  message: z.string().nullable(),
  /** The same sentence by code and values, for the renderer to say in the staff's language. */
  notice: wordsSchema().nullable().optional(),
}));

export type SyncStatus = z.infer<ReturnType<typeof syncStatusSchema>>;


/** Order intake: whether new orders are being checked, and when they last were. */
export const intakeStatusSchema = builtOnce(() => z.object({
  /** ok: polling; retrying: the last pass stopped (backing off); offline: the service cannot be reached;
   * noAccess: the service refused a read call (until the settings change); notConfigured: no service provider id;
   * storage: the data file takes no writes (a full disk), tried again on the timer. */
  condition: z.enum(['ok', 'retrying', 'offline', 'noAccess', 'notConfigured', 'storage']),
  /** When the last complete pass finished (every changed order stored): "orders last checked". */
  lastCompleteAt: z.number().nullable(),
  /** The end of the last window read completely (service clock). */
  cursorAt: z.number().nullable(),
  lastTriedAt: z.number().nullable(),
  nextAt: z.number().nullable(),
  intervalMs: z.number().int(),
  message: z.string().nullable(),
  /** Ids `changes` listed whose bodies are not stored yet (asked again with backoff, never dropped). */
  stillToFetch: z.number().int().min(0),
  /** The last pass stopped at its page cap with new orders: a backlog being read, the next pass soon (not a fault). */
  catchingUp: z.boolean().optional(),
}));

export type IntakeStatus = z.infer<ReturnType<typeof intakeStatusSchema>>;


export const appInfoSchema = builtOnce(() => z.object({
  version: z.string(),
  environment: EnvironmentSchema,
  shell: z.enum(['electron', 'web']),
  terminalId: z.string(),
  keychain: z.object({ ok: z.boolean(), message: z.string(), checking: z.boolean().optional() }),
  pinSet: z.boolean(),
}));

export type AppInfo = z.infer<ReturnType<typeof appInfoSchema>>;


/** The status commands: name -> payload schema and result schema (built on first use by the contract). */
export const statusCommands = {
  'app.info': () => ({ payload: emptySchema(), result: appInfoSchema() }),
  'sync.status': () => ({ payload: emptySchema(), result: syncStatusSchema() }),
  'intake.status': () => ({ payload: emptySchema(), result: intakeStatusSchema() }),
  /** Checks for new orders now (one full pass); answers the status after it. */
  'intake.checkNow': () => ({ payload: emptySchema(), result: intakeStatusSchema() }),
};
