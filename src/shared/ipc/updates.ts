/** Self-update as the screens show it, and its commands. */
import { z } from 'zod';
import { builtOnce } from '../on-first-use';
import { emptySchema, okSchema, pinSchema } from './shapes';

export const updateStatusSchema = builtOnce(() => z.object({
  state: z.enum(['idle', 'checking', 'downloading', 'ready', 'installing', 'error', 'disabled']),
  currentVersion: z.string(),
  availableVersion: z.string().nullable(),
  message: z.string().nullable(),
  lastCheckAt: z.number().nullable(),
}));

export type UpdateStatus = z.infer<ReturnType<typeof updateStatusSchema>>;


/** The updates commands: name -> payload schema and result schema (built on first use by the contract). */
export const updatesCommands = {
  'updates.status': () => ({ payload: emptySchema(), result: updateStatusSchema() }),
  'updates.installNow': () => ({ payload: z.object({ pin: pinSchema() }).strict(), result: okSchema() }),
};
