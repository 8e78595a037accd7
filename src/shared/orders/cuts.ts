/**
 * The items this terminal cut, as an order's view carries them ("was 3: Item unavailable"): one
 * rule for the engine's view (from the outbox's cuts) and for the renderer's foreseen one.
 */
import type { ItemCut } from '../ipc';
import type { Order } from '../protocol/schemas';

/** `cuts` with one more: an item cut before keeps its place and its count before the first cut, and takes the new reason. */
export function addCut(cuts: readonly ItemCut[], cut: ItemCut): ItemCut[] {
  const earlier = cuts.find((c) => c.itemId === cut.itemId);
  if (!earlier) return [...cuts, cut];
  return cuts.map((c) => (c === earlier ? { ...cut, was: earlier.was } : c));
}

/** The cuts to show on `order`: an item whose count is back at what it was (the service restored it) says nothing. */
export function cutsShownOn(order: Order | null, cuts: readonly ItemCut[]): ItemCut[] {
  return cuts.filter((c) => {
    const count = order?.items.find((i) => i.itemId === c.itemId)?.quantity.count;
    return count !== undefined && count !== c.was;
  });
}
