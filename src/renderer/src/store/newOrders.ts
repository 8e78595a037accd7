/**
 * New orders nobody has looked at yet: orders that came in by themselves while this screen ran and
 * still wait for Accept. Each stays "new" (alert sounding, highlighted, counted) until it is
 * accepted or cancelled, here or elsewhere, or someone says "I have seen it" on it: opening it is
 * not enough (a tap meant for another row would silence it).
 */
import { create } from 'zustand';
import type { OrderView } from '../../../shared/ipc';

interface NewOrdersStore {
  /** Ids in the order they arrived. */
  ids: readonly string[];
  /** Orders that changed: those new to the screen and waiting for Accept become new; others stop being new. */
  noteChanged(views: readonly OrderView[], known: (id: string) => boolean): void;
  /** Someone said "I have seen it" on the order. */
  seen(id: string): void;
}

const waitsForAccept = (v: OrderView): boolean => v.order !== null && v.nextStep?.key === 'ACCEPT';

export const useNewOrders = create<NewOrdersStore>()((set, get) => ({
  ids: [],
  noteChanged(views, known) {
    const current = new Set(get().ids);
    let changed = false;
    for (const v of views) {
      if (waitsForAccept(v)) {
        // An order the screen knew only by number counts too: its items just came in.
        const before = known(v.id);
        if (!current.has(v.id) && !before) {
          current.add(v.id);
          changed = true;
        }
      } else if (current.delete(v.id)) changed = true;
    }
    if (changed) set({ ids: [...current] });
  },
  seen(id) {
    if (get().ids.includes(id)) set({ ids: get().ids.filter((x) => x !== id) });
  },
}));
