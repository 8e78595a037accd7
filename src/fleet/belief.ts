/**
 * What the centre believes of a north message: a store only about itself. The fleet stream sources
 * each store's north stream through the store's domain, and nats-server stamps every message it
 * sources with the source it came from (`Nats-Stream-Source: PACKDESK_NORTH:<hash of the source's
 * API prefix> <seq>`, replacing any such header the sender wrote). So a message is taken as store
 * S's only when that stamp names S's own source, S is a store the fleet sources, its subject and
 * its storeId both say S, and (for a counter) its version is a plain release number. Anything
 * else is dropped and counted, never shown: one store cannot speak for another, a store not added
 * is not listed, and "99.0.0-evil" cannot make the chain's counters look old. See docs/fleet.md.
 */
import { createHash } from 'node:crypto';
import { NORTH_STREAM } from '../main/core/hub/registry';
import { type NorthMessage, NorthMessageSchema, northSubject, type StoreId } from '../main/core/hub/chain/north';
import type { Refusal } from './refusals';

/** A version a counter may report: a plain release number. */
export const RELEASE_VERSION = /^\d{1,6}\.\d{1,6}\.\d{1,6}$/;

const HASH_DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** nats-server's short hash of a name (its `getHash`: SHA-256, the first 8 bytes each as one of 62 digits). */
function serverHash(name: string): string {
  const sum = createHash('sha256').update(name).digest();
  let out = '';
  for (let i = 0; i < 8; i += 1) out += HASH_DIGITS[sum[i]! % HASH_DIGITS.length];
  return out;
}

/** The stamp nats-server puts on a message the fleet stream sourced from this store's stream (the hub's north stream unless named). */
export function sourceTag(storeId: StoreId, streamName: string = NORTH_STREAM): string {
  return `${streamName}:${serverHash(`$JS.${storeId}.API`)}`;
}

/** A message as the fleet stream holds it. */
export interface StoredNorth {
  readonly subject: string;
  readonly data: Uint8Array;
  /** The `Nats-Stream-Source` header's value, if any. */
  readonly source: string | null;
}

export type Belief = { readonly ok: true; readonly message: NorthMessage } | { readonly ok: false; readonly why: Refusal };

/** Tells a message's store by its source stamp, for the stores the fleet sources (and the stream each is read from). */
export function storeOfSource(sources: readonly { readonly storeId: StoreId; readonly name?: string }[]): (source: string | null) => StoreId | null {
  const byTag = new Map(sources.map((s) => [sourceTag(s.storeId, s.name), s.storeId] as const));
  return (source) => (source ? (byTag.get(source.split(' ')[0]!) ?? null) : null);
}

/** Whether the centre believes this message, and what it says when it does. */
export function believe(stored: StoredNorth, storeOf: (source: string | null) => StoreId | null): Belief {
  const store = storeOf(stored.source);
  if (store === null) return { ok: false, why: 'not-sourced' };
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(stored.data));
  } catch {
    return { ok: false, why: 'unreadable' };
  }
  const parsed = NorthMessageSchema.safeParse(json);
  if (!parsed.success) return { ok: false, why: 'unreadable' };
  const message = parsed.data;
  if (message.storeId !== store || northSubject(message) !== stored.subject) return { ok: false, why: 'other-store' };
  if (message.kind === 'counter' && !RELEASE_VERSION.test(message.version)) return { ok: false, why: 'version' };
  return { ok: true, message };
}
