/**
 * How a store hub joins the chain's central NATS system: as a leaf node, with the chain's
 * credentials file and TLS (outside training), in its own JetStream domain (the store's id). Read
 * from the hub's chain settings with this schema; the hub's nats.conf writer turns it into the
 * chain's account and a `leafnodes { remotes }` block bound to it (server/accounts.ts). A store
 * without it behaves as before.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
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
