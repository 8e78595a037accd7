/**
 * The whole view of one order for a screen that shows its body. The store holds every order's
 * queue row but whole views only of orders already read; a missing one is read from the engine
 * (and the screen draws again when it arrives). A tap on its way shows the view foreseen for it
 * (store/orders.ts `predicted`) until the engine's arrives. Null id: nothing wanted.
 */
import { useEffect } from 'react';
import type { OrderView } from '../../../shared/ipc';
import { loadOrder } from '../intents';
import { holdView, shownView, useOrders } from '../store/orders';

export function useOrderView(orderId: string | null): OrderView | undefined {
  const view = useOrders((s) => (orderId === null ? undefined : shownView(s, orderId)));
  // Read again when the row changes (a newer list dropped the view, or the order came back).
  const row = useOrders((s) => (orderId === null ? undefined : s.byId.get(orderId)));
  // Kept while this screen shows it, however many other orders events bring meanwhile.
  useEffect(() => (orderId === null ? undefined : holdView(orderId)), [orderId]);
  useEffect(() => {
    if (orderId !== null && view === undefined && row !== undefined) void loadOrder(orderId);
  }, [orderId, view, row]);
  return view;
}

/** Whether the screen shows a view foreseen for a tap the engine has not answered yet. */
export function useIsPredicted(orderId: string | null): boolean {
  return useOrders((s) => orderId !== null && s.predicted.has(orderId));
}
