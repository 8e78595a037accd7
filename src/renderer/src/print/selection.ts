/** The orders picked on the queue for a pick list. */
import { create } from 'zustand';

interface PickSelection {
  ids: ReadonlySet<string>;
  toggle(id: string): void;
  clear(): void;
  /** Orders that left the terminal are no longer ticked. */
  drop(ids: readonly string[]): void;
}

export const usePickSelection = create<PickSelection>()((set) => ({
  ids: new Set(),
  toggle: (id) =>
    set((s) => {
      const ids = new Set(s.ids);
      if (!ids.delete(id)) ids.add(id);
      return { ids };
    }),
  clear: () => set({ ids: new Set() }),
  drop: (gone) =>
    set((s) => {
      if (!gone.some((id) => s.ids.has(id))) return s;
      const ids = new Set(s.ids);
      for (const id of gone) ids.delete(id);
      return { ids };
    }),
}));
