/**
 * Moving a hub made before accounts came in (every bucket and stream in nats-server's global
 * account, `$G`) to today's layout, before its nats-server starts: the buckets go to the counters'
 * account and the chain streams to the chain's account, folders moved as they are, nothing lost.
 * nats-server keeps each account's streams in `<store dir>/jetstream/<account>/streams/<stream>`.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { CHAIN_STREAMS } from '../registry';
import { CHAIN_ACCOUNT, STORE_ACCOUNT } from './accounts';

const GLOBAL_ACCOUNT = '$G';

export interface LayoutMove {
  /** Streams moved into the counters' account (the buckets'). */
  readonly store: readonly string[];
  /** Chain streams moved into the chain's account. */
  readonly chain: readonly string[];
}

/** Moves an old hub's streams into the two accounts; null when there was nothing to move. Run only while nats-server is stopped. */
export function moveToAccounts(storeDir: string): LayoutMove | null {
  const root = path.join(storeDir, 'jetstream');
  const old = path.join(root, GLOBAL_ACCOUNT, 'streams');
  if (!existsSync(old)) return null;
  const chainNames = new Set<string>(Object.values(CHAIN_STREAMS).map((s) => s.name));
  const moved = { store: [] as string[], chain: [] as string[] };
  for (const stream of readdirSync(old)) {
    const account = chainNames.has(stream) ? CHAIN_ACCOUNT : STORE_ACCOUNT;
    const target = path.join(root, account, 'streams', stream);
    // Already there (a move cut short, then a start): the account's copy is the newer one.
    if (existsSync(target)) continue;
    mkdirSync(path.dirname(target), { recursive: true });
    renameSync(path.join(old, stream), target);
    (account === CHAIN_ACCOUNT ? moved.chain : moved.store).push(stream);
  }
  // A stream the account already had stays where it was, for support to look at; nothing is deleted.
  if (readdirSync(old).length === 0) rmSync(path.join(root, GLOBAL_ACCOUNT), { recursive: true, force: true });
  return moved;
}
