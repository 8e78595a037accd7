/** The chain link's commands. */
import { z } from 'zod';
import { CHAIN_FILE_MAX_CHARS, chainStatusSchema } from '../chain';
import { emptySchema, pinSchema } from './shapes';

/** The chain commands: name -> payload schema and result schema (built on first use by the contract). */
export const chainCommands = {
  /** Settings -> Chain: the store's link to the chain's centre (on a counter: as the hub PC says it). */
  'chain.status': () => ({ payload: emptySchema(), result: chainStatusSchema() }),
  /**
   * Links the store hub to the chain's centre (manager, on the hub PC). The files arrive as text,
   * capped; each field is checked in words by the main side (chainFieldErrors), which keeps the
   * credentials and never sends them back.
   */
  'chain.link': () => ({
    payload: z
      .object({
        pin: pinSchema(),
        link: z
          .object({
            storeId: z.string().max(200),
            url: z.string().max(400),
            credentials: z.string().max(CHAIN_FILE_MAX_CHARS).nullable(),
            ca: z.string().max(CHAIN_FILE_MAX_CHARS).nullable(),
          })
          .strict(),
      })
      .strict(),
    result: chainStatusSchema(),
  }),
  /** Unlinks the store hub from the chain: its credentials removed (manager, on the hub PC). */
  'chain.unlink': () => ({ payload: z.object({ pin: pinSchema() }).strict(), result: chainStatusSchema() }),
};
