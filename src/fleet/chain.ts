/**
 * How a store hub joins the chain's central NATS system: as a leaf node, with the chain's
 * credentials file and TLS (outside training), in its own JetStream domain (the store's id). Read
 * from the hub's chain settings with this schema; the hub's nats.conf writer turns it into a
 * `leafnodes { remotes }` block. A store without it behaves as before.
 */
import { z } from 'zod';
import { StoreIdSchema } from './north';

export const ChainLinkSchema = z
  .object({
    storeId: StoreIdSchema,
    /** The centre's leaf node address: `tls://host:7422` (or `nats-leaf://` in training). */
    url: z.string().regex(/^(tls|nats-leaf|nats):\/\/[^\s"]+$/, 'address: tls://host:port'),
    /** The store's leaf credentials file (JWT and nkey seed) issued by the chain. */
    credentialsPath: z.string().min(1).nullable(),
    /** The chain's CA certificate, when its servers' certificates are not signed by a public CA. */
    caPath: z.string().min(1).nullable(),
    /** Training mode (a practice centre on this PC): credentials and TLS may be left out. */
    training: z.boolean(),
  })
  .strict()
  .superRefine((link, ctx) => {
    if (link.training) return;
    if (!link.credentialsPath) ctx.addIssue({ code: 'custom', message: 'The chain link needs the store’s credentials file', path: ['credentialsPath'] });
    if (!link.url.startsWith('tls://')) ctx.addIssue({ code: 'custom', message: 'The chain link must use TLS (tls://host:port)', path: ['url'] });
  });
export type ChainLink = z.infer<typeof ChainLinkSchema>;

/**
 * Subjects the centre may not send into the store: the store's buckets (orders, claims, taps) and
 * its stream admin, so the centre can read what the store keeps for it but never tap or change it.
 */
export function southDenied(storeId: string): string[] {
  return ['$KV.>', `$JS.${storeId}.API.STREAM.>`, '$JS.API.STREAM.>', '$JS.API.DIRECT.>', `$JS.${storeId}.API.DIRECT.>`];
}
