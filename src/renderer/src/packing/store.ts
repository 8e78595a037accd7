/** Scan to pack on screen: each order's counts as the engine holds them, and the question open about one. */
import { create } from 'zustand';
import type { PackScanAnswer, PackState } from '../../../shared/ipc';

/** A product scanned on an order that does not hold it, with what the terminal knows of it (its name, the orders holding it). */
export interface Stranger {
  readonly orderId: string;
  readonly code: string;
  readonly product: PackScanAnswer['product'] | null;
}

/** A question scan to pack is asking: which item an unknown barcode is, or what to do with units not scanned. */
export type PackQuestion =
  | { readonly kind: 'teach'; readonly orderId: string; readonly code: string }
  | { readonly kind: 'unscanned'; readonly orderId: string };

interface PackingStore {
  states: ReadonlyMap<string, PackState>;
  question: PackQuestion | null;
  /** The last product scanned on an order that is not in it (shown loudly above the list). */
  stranger: Stranger | null;
  /**
   * Mark packed asked about units not scanned and the packer cut them all: the tap goes on, once,
   * for this order (NextStepButton), rather than waiting for Mark packed a second time.
   */
  packAfterCut: { readonly orderId: string; readonly n: number } | null;
  put(state: PackState): void;
  ask(question: PackQuestion | null): void;
  strange(stranger: Stranger | null): void;
  goOnPacking(orderId: string): void;
}

export const usePacking = create<PackingStore>()((set) => ({
  states: new Map(),
  question: null,
  stranger: null,
  packAfterCut: null,
  put: (state) => set((s) => ({ states: new Map(s.states).set(state.orderId, state) })),
  ask: (question) => set({ question }),
  strange: (stranger) => set({ stranger }),
  goOnPacking: (orderId) => set((s) => ({ packAfterCut: { orderId, n: (s.packAfterCut?.n ?? 0) + 1 } })),
}));

/** Units scanned of one item. */
export function scannedOf(state: PackState | undefined, itemId: string): number {
  return state?.items.find((i) => i.itemId === itemId)?.scanned ?? 0;
}
