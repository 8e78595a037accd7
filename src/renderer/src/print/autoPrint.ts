/**
 * Prints the packing slip by itself when the packer marks an order PACKED on this terminal and
 * the setting asks for it. The outbox holds this terminal's own taps only, so a new PACKED entry
 * is exactly "packed here, just now"; orders packed elsewhere never print a slip here.
 */
import type { OutboxEntryView } from '../../../shared/ipc';
import { useOutbox } from '../store/outbox';
import { useStatus } from '../store/status';

/** True for a tap that marks a fulfilment PACKED. */
export function marksPacked(entry: OutboxEntryView): boolean {
  return entry.action.type === 'ORDER_FULFILMENT_STATE_UPDATE' && entry.action.fulfillmentState === 'PACKED';
}

/**
 * Watches the outbox for PACKED taps made from `since` on (entries already there at start are
 * old news) and calls `print` once per entry while auto-print is on. Returns the unsubscribe.
 */
export function watchPackedTaps(print: (orderId: string) => void, since: number): () => void {
  const seen = new Set<number>();
  const check = (byId: ReadonlyMap<number, OutboxEntryView>): void => {
    for (const entry of byId.values()) {
      if (seen.has(entry.id) || entry.createdAt < since || !marksPacked(entry)) continue;
      seen.add(entry.id);
      if (entry.state === 'discarded') continue;
      if (useStatus.getState().settings?.autoPrintSlip === true) print(entry.orderId);
    }
  };
  check(useOutbox.getState().byId);
  return useOutbox.subscribe((s, prev) => {
    if (s.byId !== prev.byId) check(s.byId);
  });
}
