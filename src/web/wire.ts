/**
 * Frames of the harness WebSocket, which carries the IPC contract of `src/shared/ipc/`
 * between the page (bridge.ts) and the Node host (server.ts). Both ends parse what they receive.
 */
import { z } from 'zod';
import { replySchema } from '../shared/ipc';

export { BRIDGE_PATH, CONTRACT_PATH, IPC_PATH } from './paths';
/** Largest frame accepted either way. */
export const MAX_FRAME_BYTES = 1024 * 1024;

/** Page -> host: run a command. `id` pairs the reply with the call. */
export const InvokeFrameSchema = z
  .object({
    type: z.literal('invoke'),
    id: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    command: z.string().max(100),
    payload: z.unknown(),
  })
  .strict();
export type InvokeFrame = z.infer<typeof InvokeFrameSchema>;

/** Host -> page: a command's reply, or an event. */
export const ServerFrameSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('reply'), id: z.number().int(), reply: replySchema() }),
  z.object({ type: z.literal('event'), event: z.string(), body: z.unknown() }),
]);
export type ServerFrame = z.infer<typeof ServerFrameSchema>;
