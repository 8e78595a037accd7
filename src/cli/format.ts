/** Plain-text output for people at a terminal; --json prints the views as they are. */
import type { OrderView, OutboxEntryView, SyncStatus } from '../shared/ipc';
import { printableId } from '../shared/protocol/orderId';

const time = (ms: number | null): string => (ms === null ? '-' : new Date(ms).toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z'));

/** One line per outbox entry. */
export function formatOutbox(entries: readonly OutboxEntryView[]): string {
  if (entries.length === 0) return 'The outbox is empty.\n';
  return (
    entries
      .map((e) => {
        const parts = [`#${e.id}`, e.state.padEnd(9), printableId(e.orderId), e.summary, `attempts ${e.attempts}`];
        if (e.state === 'queued' && e.nextAttemptAt !== null) parts.push(`next try ${time(e.nextAttemptAt)}`);
        if (e.mayBeApplied) parts.push('MAY ALREADY BE APPLIED');
        if (e.lastError) parts.push(`last error: ${e.lastError.code ? `${e.lastError.code}: ` : ''}${e.lastError.message}`);
        if (e.packer !== null) parts.push(`by ${e.packer}`);
        parts.push(`request ${e.requestId}`);
        return parts.join('  ');
      })
      .join('\n') + '\n'
  );
}

/** One line per order. */
export function formatOrders(orders: readonly OrderView[]): string {
  if (orders.length === 0) return 'No orders on this terminal.\n';
  return orders.map(orderLine).join('\n') + '\n';
}

function orderLine(o: OrderView): string {
  const parts = [printableId(o.id), (o.order?.orderState ?? 'not loaded yet').padEnd(14), `next: ${o.nextStep?.label ?? '-'}`];
  if (o.waiting > 0) parts.push(`${o.waiting} waiting to sync`);
  if (o.failed > 0) parts.push(`${o.failed} failed`);
  if (o.mayBeApplied) parts.push('a tap may already be applied');
  if (o.unreadable) parts.push('COULD NOT BE READ');
  else if (o.needsRefresh) parts.push('needs refresh');
  return parts.join('  ');
}

/** One order in detail. */
export function formatOrder(o: OrderView): string {
  const lines = [orderLine(o), `  added ${time(o.addedAt)}, last answer from the service ${time(o.syncedAt)}`];
  if (o.promisedPackedAt !== null) lines.push(`  packed promised by ${time(o.promisedPackedAt)}`);
  for (const f of o.order?.fulfillments ?? []) lines.push(`  fulfilment ${f.fulfillmentId} (${f.type}): ${f.fulfillmentState ?? '-'}`);
  for (const i of o.order?.items ?? []) lines.push(`  item ${i.itemId}: ${i.name ?? ''} x${i.quantity.count}`);
  return lines.join('\n') + '\n';
}

/** The status as one or two lines. */
export function formatStatus(s: SyncStatus): string {
  const line = `connectivity ${s.connectivity}, ${s.waiting} waiting, ${s.failed} failed, ${s.toCheck} to check, credentials ${s.credentials}${s.backlogAlarm ? ', BACKLOG ALARM' : ''}`;
  return s.message ? `${line}\n${s.message}\n` : `${line}\n`;
}
