/**
 * An order view as a counter of a store with a hub shows it: other counters' taps that their
 * outboxes have not sent yet are laid over the order (so Accept on Counter 1 moves the order on
 * Counter 2 at once, and silences its new-order alert), and the order's claim is attached. The
 * engine's own view is untouched: only taps this counter made are ever sent from here.
 */
import { nextStep, projectOrder, promisedPackedAt, showsEffect } from '../../../shared/fulfilment';
import type { Claim, SharedTap } from '../../../shared/hub';
import type { ElsewhereTap, OrderView } from '../../../shared/ipc';

/** How long a tap another counter has sent keeps being laid over a body that does not show it yet (its answer travels through the hub). */
export const SENT_TAP_BRIDGE_MS = 2 * 60_000;

/** What the layering reads of the hub. */
export interface HubView {
  claimOf(orderId: string): Claim | null;
  tapsOf(orderId: string): readonly SharedTap[];
}

/** `view` with the hub's word on it: other counters' unsent taps applied and listed, and the live claim. */
export function withHub(view: OrderView, hub: HubView, counterId: string, now: number): OrderView {
  const claim = hub.claimOf(view.id);
  const live = claim !== null && claim.expiresAt > now ? claim : null;
  const others = hub
    .tapsOf(view.id)
    .filter((t) => t.counterId !== counterId)
    .sort((a, b) => a.queuedAt - b.queuedAt);
  const shown = others.filter((t) => t.state === 'waiting' || t.state === 'failed');
  if (!live && others.length === 0) return view;

  let order = view.order;
  if (order) {
    const base = order;
    const layered = others.filter(
      (t) => t.state === 'waiting' || (t.state === 'sent' && t.sentAt !== null && now - t.sentAt < SENT_TAP_BRIDGE_MS && !showsEffect(base, t.action)),
    );
    if (layered.length > 0) order = projectOrder(base, layered.map((t) => t.action), now).order;
  }
  const changed = order !== view.order;
  return {
    ...view,
    ...(changed ? { order, nextStep: order ? nextStep(order) : view.nextStep, promisedPackedAt: promisedPackedAt(order ?? undefined) ?? null } : {}),
    ...(live ? { claim: { ...live, here: live.counterId === counterId } } : {}),
    ...(shown.length > 0 ? { elsewhere: shown.map(elsewhereTap) } : {}),
  };
}

function elsewhereTap(t: SharedTap): ElsewhereTap {
  return { counterName: t.counterName, summary: t.summary, action: t.action, state: t.state, queuedAt: t.queuedAt };
}
