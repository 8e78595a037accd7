/**
 * How a store hub joins the chain's central NATS system: as a leaf node, with the chain's
 * credentials file and TLS (outside training), in its own JetStream domain (the store's id). Read
 * from the hub's chain settings with this schema; the hub's nats.conf writer turns it into a
 * `leafnodes { remotes }` block. A store without it behaves as before.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { CLAIMS_BUCKET } from '../main/core/hub/claims';
import { COUNTER_NAMES_BUCKET } from '../main/core/hub/counter-names';
import { LEASE_BUCKET } from '../main/core/hub/lease';
import { PRESENCE_BUCKET } from '../main/core/hub/presence';
import { ORDERS_BUCKET } from '../main/core/hub/shared-orders';
import { TAPS_BUCKET } from '../main/core/hub/shared-taps';
import { HUB_INBOX_PREFIX } from '../shared/hub';
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

/** The store hub's KV buckets: order bodies (customers' names, phones, addresses), taps, claims, presence, names, the lease. */
const HUB_BUCKETS = [ORDERS_BUCKET, TAPS_BUCKET, CLAIMS_BUCKET, PRESENCE_BUCKET, COUNTER_NAMES_BUCKET, LEASE_BUCKET];

/**
 * Subjects the centre may not send into the store: Packdesk's subjects, the store's buckets
 * (orders, claims, taps) and its stream admin, so the centre can read what the store keeps for it but never tap or change it;
 * and no consumer on a bucket's stream, which would read its bodies. What remains open is the
 * consumer API on the store's own PACKDESK_NORTH (sourced by the centre) and PACKDESK_OPEN (the
 * fleet page's drill-down). A deny list: a new bucket must be added to HUB_BUCKETS.
 */
export function southDenied(storeId: string): string[] {
  const consumerApi = `$JS.${storeId}.API.CONSUMER`;
  return [
    '$KV.>',
    // Packdesk's own subjects: nothing the centre (or another store through it) publishes lands in
    // this store's streams. Without it a store's PACKDESK_NORTH also kept every other store's messages.
    'packdesk.>',
    `$JS.${storeId}.API.STREAM.>`,
    '$JS.API.STREAM.>',
    '$JS.API.DIRECT.>',
    `$JS.${storeId}.API.DIRECT.>`,
    ...HUB_BUCKETS.flatMap((bucket) => [`${consumerApi}.*.KV_${bucket}`, `${consumerApi}.*.KV_${bucket}.>`, `${consumerApi}.*.*.KV_${bucket}.>`]),
  ];
}

/**
 * Subjects the store never sends to the centre, whoever there subscribes to them: bucket writes
 * (an order body put into the hub), counters' inboxes (KV watch deliveries, API replies) and the
 * hub's JetStream advisories (stream and consumer names).
 */
export function northDenied(): string[] {
  return ['$KV.>', `${HUB_INBOX_PREFIX}.>`, '$JS.EVENT.>'];
}

/** Where a hub keeps its chain link: beside nats.conf, in the hub's folder of the data folder. */
export function chainLinkPath(hubDir: string): string {
  return path.join(hubDir, 'chain.json');
}

/** The hub's chain link, or null when the store is not in a chain (or the file does not parse: said in `problem`). */
export function readChainLink(hubDir: string): { link: ChainLink | null; problem: string | null } {
  const file = chainLinkPath(hubDir);
  if (!existsSync(file)) return { link: null, problem: null };
  try {
    const parsed = ChainLinkSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (parsed.success) return { link: parsed.data, problem: null };
    return { link: null, problem: `The chain settings in ${file} are not usable: ${parsed.error.issues.map((i) => i.message).join('; ')}` };
  } catch (error) {
    return { link: null, problem: `The chain settings in ${file} cannot be read: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** Saves (or, with null, removes) the hub's chain link; nats.conf is rewritten from it by the hub's config writer. */
export function writeChainLink(hubDir: string, link: ChainLink | null): void {
  const file = chainLinkPath(hubDir);
  if (link === null) rmSync(file, { force: true });
  else writeFileSync(file, `${JSON.stringify(ChainLinkSchema.parse(link), null, 2)}\n`, { mode: 0o600 });
}
