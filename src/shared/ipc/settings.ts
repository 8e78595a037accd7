/**
 * The terminal's settings as the screens edit them, and the commands that guard them (manager PIN,
 * credentials, kiosk, support bundle).
 */
import { z } from 'zod';
import { builtOnce } from '../on-first-use';
import { LANGUAGE_CODES } from '../languages';
import { DEFAULT_ORDER_ID_PATTERN } from '../orderIdPattern';
import { paperSchema } from './print';
import { emptySchema, okSchema, pinSchema } from './shapes';

export const EnvironmentSchema = z.enum(['training', 'staging', 'production']);

export type Environment = z.infer<typeof EnvironmentSchema>;


/** True when `source` is a regular expression this JavaScript engine accepts. */
function compilesAsPattern(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}

export { DEFAULT_ORDER_ID_PATTERN };


export const settingsSchema = builtOnce(() => z.object({
  environment: EnvironmentSchema,
  authUrl: z.string(),
  baseUrl: z.string(),
  undoWindowMs: z.number().int().min(0).max(60_000),
  concurrency: z.number().int().min(1).max(16),
  kiosk: z.boolean(),
  autoLaunch: z.boolean(),
  sounds: z.boolean(),
  updateChannel: z.enum(['stable', 'beta']),
  scannerPrefix: z.string().max(8),
  /** What an order id looks like (a regular expression): a scanned code that does not match is never opened as a new order. */
  orderIdPattern: z
    .string()
    .min(1)
    .max(200)
    .refine((source) => compilesAsPattern(source), 'Order id pattern must be a valid regular expression'),
  quietHour: z.number().int().min(0).max(23).nullable(),
  paper: paperSchema(),
  /** The printer's system name; null: ask with the print dialog each time. */
  printer: z.string().trim().min(1).max(256).nullable(),
  /** Print the packing slip as soon as an order is marked PACKED on this terminal. */
  autoPrintSlip: z.boolean(),
  /** The slip shows the customer's whole phone number; otherwise only its last four digits (it rides on the bag). */
  slipWholePhone: z.boolean(),
  /** The store's service provider id (`serviceProvider.id` in orders): intake polls `changes` for it; '' = not set. */
  serviceProviderId: z.string().trim().max(128),
  /** How often intake checks for new orders; never more often than every 10 s. */
  intakeIntervalMs: z.number().int().min(1_000).max(600_000),
  /** How often a new order's alert sounds again until someone opens or accepts it. */
  alertRepeatMs: z.number().int().min(5_000).max(300_000),
  /** Loudness of the new-order alert: it can be turned down, never off during a shift. */
  alertVolume: z.number().min(0.2).max(1),
  /** The terminal's language for its staff, chosen by a manager (a packer may switch for a shift). */
  language: z.enum(LANGUAGE_CODES),
  /** After Accept, the order screen asks for each unit to be scanned before Mark packed (issue 24); off: packed by eye, as before. */
  scanToPack: z.boolean(),
  /** With a store hub: a claim ("being packed at Counter 2") lapses after this long without a tap on the order. */
  claimQuietMs: z.number().int().min(60_000).max(4 * 3_600_000),
}));

export type Settings = z.infer<ReturnType<typeof settingsSchema>>;


/** The settings commands: name -> payload schema and result schema (built on first use by the contract). */
export const settingsCommands = {
  'settings.get': () => ({ payload: emptySchema(), result: settingsSchema() }),
  'settings.update': () => ({
    payload: z.object({ pin: pinSchema(), patch: settingsSchema().omit({ environment: true, authUrl: true, baseUrl: true }).partial().strict() }).strict(),
    result: settingsSchema(),
  }),
  /** Write-only: the secret goes in, only saved/rejected comes out. */
  'credentials.save': () => ({
    payload: z
      .object({
        pin: pinSchema(),
        environment: EnvironmentSchema,
        authUrl: z.string().url().max(2048).optional(),
        baseUrl: z.string().url().max(2048).optional(),
        clientId: z.string().trim().min(1).max(512).optional(),
        // One of only spaces is as empty as none (the vaults refuse it too); not trimmed otherwise.
        clientSecret: z.string().min(1).max(4096).regex(/\S/, 'the client secret is empty').optional(),
        /** The store's service provider id, from the same e-mail as the credentials. */
        serviceProviderId: z.string().trim().min(1).max(128).optional(),
      })
      .strict(),
    result: z.object({
      result: z.enum(['saved', 'rejected']),
      /** English words (the fallback); `code` and `values` say the same for the renderer to word. */
      message: z.string(),
      code: z.string().optional(),
      values: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
    }),
  }),
  'pin.verify': () => ({ payload: z.object({ pin: pinSchema() }).strict(), result: z.object({ valid: z.boolean() }) }),
  'pin.set': () => ({ payload: z.object({ currentPin: pinSchema().optional(), newPin: pinSchema() }).strict(), result: okSchema() }),
  'support.exportBundle': () => ({ payload: z.object({ pin: pinSchema() }).strict(), result: z.object({ path: z.string() }) }),
  'kiosk.leave': () => ({ payload: z.object({ pin: pinSchema() }).strict(), result: okSchema() }),
};
