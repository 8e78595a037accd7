/**
 * The centre's side of a store's drill-down: reads the newest open-orders list a store hub keeps
 * (core/hub/chain/open-orders.ts) live through the store's domain, with an ephemeral push consumer
 * on its PACKDESK_OPEN (all the store's chain link lets the centre do), deleted after. Never a
 * copy at the centre. See docs/fleet.md.
 */
import { createInbox, nanos, type NatsConnection } from '@nats-io/transport-node';
import { OPEN_STREAM, type OpenOrders, OpenOrdersSchema } from '../main/core/hub/chain/open-orders';
import { StoreIdSchema } from '../main/core/hub/chain/north';
import { DELIVER_PREFIX, safeJson } from './central';

/** How long the centre waits for a store's answer (over a WAN link, through its hub). */
const DRILL_TIMEOUT_MS = 5_000;

/** What the centre learned of a store's open orders, in words when it could not read them. */
export type DrillReading =
  | { readonly state: 'ok'; readonly list: OpenOrders }
  | { readonly state: 'cut-off' | 'not-published' | 'unreadable'; readonly words: string };

/**
 * Reads a store's newest open-orders list live through its domain, as the centre: an ephemeral
 * push consumer on the store's PACKDESK_OPEN (the consumer API is what the leaf link lets through),
 * delivering the last message to an inbox here, then deleted.
 */
export async function readOpenOrders(nc: NatsConnection, storeId: string, timeoutMs = DRILL_TIMEOUT_MS): Promise<DrillReading> {
  const id = StoreIdSchema.parse(storeId);
  const api = `$JS.${id}.API`;
  // Under the store's delivery prefix: the subject its account at the centre lets through to the fleet's (docs/fleet.md).
  const inbox = `${DELIVER_PREFIX}.${id}.${createInbox().split('.').pop()!}`;
  const sub = nc.subscribe(inbox, { max: 1 });
  const first = (async () => {
    for await (const m of sub) return m.data;
    return null;
  })();
  const config = { deliver_subject: inbox, deliver_policy: 'last', ack_policy: 'none', inactive_threshold: nanos(10_000), mem_storage: true, num_replicas: 1 };
  let name: string | null = null;
  try {
    let reply;
    try {
      reply = await nc.request(`${api}.CONSUMER.CREATE.${OPEN_STREAM}`, JSON.stringify({ stream_name: OPEN_STREAM, config }), { timeout: timeoutMs });
    } catch (error) {
      // No responders: nobody at the centre hears the store's domain (the link is down). A timeout: it did not answer in time.
      const noOne = error instanceof Error && /no responders|503/i.test(`${error.message} ${String((error as { code?: unknown }).code ?? '')} ${String(error.cause ?? '')}`);
      const why = noOne ? 'cannot be reached from the centre now: its link to the centre is down or its hub PC is off' : `did not answer within ${Math.round(timeoutMs / 1000)} s: its link to the centre is down or very slow`;
      return { state: 'cut-off', words: `Store ${id} ${why}. Its last figures are in the table.` };
    }
    const answer = safeJson(reply.data) as { name?: string; error?: { err_code?: number; description?: string } } | null;
    if (answer?.error) {
      if (answer.error.err_code === 10059) return { state: 'not-published', words: `Store ${id} has not published its open orders yet (its hub PC may run an older Packdesk, or has just started).` };
      return { state: 'unreadable', words: `Store ${id} answered but would not show its open orders: ${answer.error.description ?? 'no reason given'}.` };
    }
    name = answer?.name ?? null;
    const data = await Promise.race([first, new Promise<null>((r) => setTimeout(() => r(null), timeoutMs))]);
    if (data === null) return { state: 'not-published', words: `Store ${id} has not published its open orders yet (its hub PC may run an older Packdesk, or has just started).` };
    const parsed = OpenOrdersSchema.safeParse(safeJson(data));
    if (!parsed.success || parsed.data.storeId !== id) return { state: 'unreadable', words: `Store ${id} sent an open-orders list this page cannot read (a newer or older Packdesk?).` };
    return { state: 'ok', list: parsed.data };
  } finally {
    sub.unsubscribe();
    if (name) nc.publish(`${api}.CONSUMER.DELETE.${OPEN_STREAM}.${name}`, '');
  }
}
