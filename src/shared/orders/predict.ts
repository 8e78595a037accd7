/**
 * What an order's view will be once the engine has taken one more tap: the same rules the engine
 * projects with (actionFor, applyAction, nextStep), applied by the renderer to the view it
 * already shows. The screen draws this in the frame after the tap instead of a frame after the
 * engine's answer arrives (Chromium hands a page no message until it has drawn the frame that
 * follows a click, so an answer, however fast, always lands a frame late). The engine's own view
 * replaces it as soon as it arrives; a refused tap drops it.
 */
import { applyAction, nextStep, promisedPackedAt } from '../fulfilment';
import type { OrderView } from '../ipc';
import { actionFor, type ActionInput } from '../protocol/actions';
import { addCut, cutsShownOn } from './cuts';

/**
 * The view after `input` is queued, or null when the tap cannot be foreseen with confidence: the
 * engine would refuse it, or the order has taps that failed or may have been applied (the engine
 * decides those cases from rows the view does not carry).
 */
export function predictTap(view: OrderView, input: ActionInput, now: number): OrderView | null {
  if (view.failed > 0 || view.mayBeApplied || view.needsRefresh) return null;
  const action = actionFor(input);
  if (!action.ok) return null;
  if (view.order === null) {
    // Without the service's answer the only tap is Accept, and once it waits nothing more is next.
    const accept = action.value.type === 'ORDER_STATE_UPDATE' && action.value.orderState === 'ACCEPTED';
    if (!accept || view.waiting > 0 || view.nextStep?.key !== 'ACCEPT') return null;
    return { ...view, nextStep: null, waiting: view.waiting + 1 };
  }
  const applied = applyAction(view.order, action.value, now);
  if (!applied.ok) return null;
  const next: OrderView = {
    ...view,
    order: applied.value,
    nextStep: nextStep(applied.value),
    waiting: view.waiting + 1,
    promisedPackedAt: promisedPackedAt(applied.value) ?? null,
  };
  const cut = action.value;
  if (cut.type === 'ITEM_UNIT_UPDATE') {
    // The engine keeps the count the packer saw with the tap: the one this view shows.
    const was = view.order.items.find((i) => i.itemId === cut.itemId)?.quantity.count;
    const shown = was === undefined ? [] : cutsShownOn(applied.value, addCut(view.cuts ?? [], { itemId: cut.itemId, was, reason: cut.reason }));
    if (shown.length > 0) next.cuts = shown;
    else delete next.cuts;
  }
  return next;
}
