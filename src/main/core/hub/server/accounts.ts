/**
 * The hub's accounts and chain link, written into nats.conf from the registry (../registry.ts).
 *
 * Two accounts on one nats-server:
 * - STORE: the counters (the store's secret), every KV bucket. It exports to CHAIN, and to nothing
 *   else, the store's own subjects that feed the chain streams (`packdesk.north.<store>.>`,
 *   `packdesk.open.<store>`) and imports nothing.
 * - CHAIN (only when the store is in a chain): the chain streams, fed by those imports, and the
 *   leaf link to the centre, bound to this account. Its one local user is the hub PC's keeper (a
 *   password made afresh at each start of the app, never written down), which makes the streams
 *   and clears consumers the chain may not keep.
 *
 * So nothing of STORE is reachable over the link by construction: whatever the centre runs and
 * however it is configured, it meets an account that holds only what goes north. On top, the link
 * refuses what the centre need not do inside CHAIN (nats-server 2.9's leaf remotes take deny lists
 * only): anything but making an ephemeral push consumer on a chain stream, deleting it, and the
 * flow control of a source. See docs/fleet.md, "What the chain link reaches".
 */
import type { ChainLink } from '../chain/link';
import { CHAIN_STREAMS, type ChainStreamDeclaration, feedSubject } from '../registry';

/** The counters' account: every bucket. */
export const STORE_ACCOUNT = 'STORE';
/** The chain link's account: the chain streams only. */
export const CHAIN_ACCOUNT = 'CHAIN';
/** The hub PC's own user in CHAIN (makes the chain streams, clears consumers). */
export const KEEPER_USER = 'packdesk-keeper';
/** The keeper's replies come back here; never sent over the link. */
export const KEEPER_INBOX_PREFIX = '_PDKEEP';
/** What CHAIN may hold: the chain streams, their consumers (the centre's source and drill-downs), its files. */
export const CHAIN_LIMITS = { streams: Object.keys(CHAIN_STREAMS).length, consumers: 32, fileBytes: 1024 * 1024 * 1024, memoryBytes: 16 * 1024 * 1024 } as const;

const chainStreams = (): readonly ChainStreamDeclaration[] => Object.values(CHAIN_STREAMS);
const q = (text: string): string => JSON.stringify(text);

export interface AccountsOptions {
  /** The counters' user name and its bcrypted password (the store's secret). */
  readonly user: string;
  readonly passwordHash: string;
  readonly chain: ChainLink | null;
  /** The keeper's bcrypted password for this run; null: no keeper can log in (a file written outside the app). */
  readonly keeperHash: string | null;
}

/** The `accounts` block: STORE always, CHAIN with its imports and keeper when the store is in a chain. */
export function accountsBlock(options: AccountsOptions): string {
  const storeId = options.chain?.storeId ?? null;
  const store = [
    '    jetstream: enabled',
    `    users: [ { user: ${q(options.user)}, password: ${q(options.passwordHash)} } ]`,
    // The wall around the buckets: STORE exports only the feed subjects, and only as streams (out to
    // CHAIN), never a service, so nothing published in CHAIN (where the link lands) reaches a bucket.
    // A write from the centre, `$KV.<bucket>.<key>` or through the domain `$JS.<store>.API.$KV.<bucket>.<key>`
    // (which nats-server maps to `$KV.<bucket>.<key>` in CHAIN), lands nowhere: CHAIN has no bucket.
    // Proved by test/fleet/bucket-writes.test.ts: with `{ service: "$KV.>", accounts: [CHAIN] }` added here
    // and imported by CHAIN, and the `$KV` entries out of southRefused, the isolation probes' put through
    // the domain lands (ALLOWED); with either of the two kept, it is refused.
    ...(storeId ? [`    exports: [ ${chainStreams().map((s) => `{ stream: ${q(feedSubject(s, storeId))}, accounts: [${CHAIN_ACCOUNT}] }`).join(', ')} ]`] : []),
  ];
  const blocks = [`  ${STORE_ACCOUNT} {\n${store.join('\n')}\n  }`];
  if (storeId) {
    const keeper = options.keeperHash
      ? `    users: [ { user: ${q(KEEPER_USER)}, password: ${q(options.keeperHash)}, permissions: { publish: { allow: ["$JS.API.>"] }, subscribe: { allow: [${q(`${KEEPER_INBOX_PREFIX}.>`)}] } } } ]`
      : '    users: []';
    const chain = [
      `    jetstream: { max_streams: ${CHAIN_LIMITS.streams}, max_consumers: ${CHAIN_LIMITS.consumers}, max_file: ${CHAIN_LIMITS.fileBytes}, max_mem: ${CHAIN_LIMITS.memoryBytes} }`,
      keeper,
      `    imports: [ ${chainStreams().map((s) => `{ stream: { account: ${STORE_ACCOUNT}, subject: ${q(feedSubject(s, storeId))} } }`).join(', ')} ]`,
    ];
    blocks.push(`  ${CHAIN_ACCOUNT} {\n${chain.join('\n')}\n  }`);
  }
  return `accounts {\n${blocks.join('\n')}\n}`;
}

/**
 * What the centre may not send into CHAIN. Open: making an ephemeral push consumer on a chain
 * stream (`CONSUMER.CREATE.<stream>`, which nats-server refuses with a durable name) and deleting
 * one, and a source's flow control (`$JS.FC.>`). Everything else of the JetStream API is named
 * here, with the domain and without, and every publish that could land in a chain stream.
 */
export function southRefused(storeId: string): string[] {
  const api = `$JS.${storeId}.API`;
  return [
    'packdesk.>',
    // With the account wall (accountsBlock), one of three layers against a write into a bucket on `$KV`:
    // nats-server 2.9 itself denies `$KV.>` (and `$JS.API.>`, `$OBJ.>`) both ways on a link whose account's
    // JetStream is not extended over it, on the hub and the centre ("JetStream Not Extended, adding deny"),
    // whatever this list says. Through the domain, `${api}.$KV.>` below and the wall are the two layers.
    // test/fleet/bucket-writes.test.ts takes them away one by one until the write lands.
    '$KV.>',
    '$O.>',
    '$SYS.>',
    '$JS.ACK.>',
    '$JS.API.>',
    `${api}.INFO`,
    ...['STREAM', 'DIRECT', 'ACCOUNT', 'META', 'SERVER', '$KV', '$OBJ'].map((part) => `${api}.${part}.>`),
    ...['DURABLE', 'MSG', 'LIST', 'NAMES', 'INFO', 'LEADER', 'PAUSE', 'UNPIN', 'RESET'].map((verb) => `${api}.CONSUMER.${verb}.>`),
    // The named forms of CREATE take a durable name; only the plain `CREATE.<stream>` stays open.
    `${api}.CONSUMER.CREATE.*.>`,
  ];
}

/** What CHAIN never sends north, whoever at the centre subscribes: its own traffic, only consumer deliveries and answers go. */
export function northRefused(): string[] {
  return ['packdesk.>', '$KV.>', '$JS.API.>', '$JS.EVENT.>', '$SYS.>', `${KEEPER_INBOX_PREFIX}.>`];
}

/** The `leafnodes` block joining the chain's centre, bound to CHAIN. */
export function leafnodesBlock(chain: ChainLink, confPath: (file: string) => string): string {
  const lines = [`      url: ${q(chain.url)}`, `      account: ${CHAIN_ACCOUNT}`];
  if (chain.credentialsPath) lines.push(`      credentials: ${confPath(chain.credentialsPath)}`);
  if (chain.caPath) lines.push(`      tls { ca_file: ${confPath(chain.caPath)} }`);
  lines.push(`      deny_imports: ${JSON.stringify(southRefused(chain.storeId))}`);
  lines.push(`      deny_exports: ${JSON.stringify(northRefused())}`);
  return `leafnodes {\n  remotes [\n    {\n${lines.join('\n')}\n    }\n  ]\n}`;
}
