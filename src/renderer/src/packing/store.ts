/** Scan to pack on screen: each order's counts as the engine holds them, and the question open about one. */
import { create } from 'zustand';
import type { PackState } from '../../../shared/ipc';

/** A question scan to pack is asking: which item an unknown barcode is, or what to do with units not scanned. */
export type PackQuestion =
  | { readonly kind: 'teach'; readonly orderId: string; readonly code: string }
  | { readonly kind: 'unscanned'; readonly orderId: string };

interface PackingStore {
  states: ReadonlyMap<string, PackState>;
  question: PackQuestion | null;
  /** The last product scanned on an order that is not in it (shown loudly above the list). */
  stranger: { readonly orderId: string; readonly code: string } | null;
  put(state: PackState): void;
  ask(question: PackQuestion | null): void;
  strange(stranger: { orderId: string; code: string } | null): void;
}

export const usePacking = create<PackingStore>()((set) => ({
  states: new Map(),
  question: null,
  stranger: null,
  put: (state) => set((s) => ({ states: new Map(s.states).set(state.orderId, state) })),
  ask: (question) => set({ question }),
  strange: (stranger) => set({ stranger }),
}));

/** Units scanned of one item. */
export function scannedOf(state: PackState | undefined, itemId: string): number {
  return state?.items.find((i) => i.itemId === itemId)?.scanned ?? 0;
}
