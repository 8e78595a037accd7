/**
 * What the Orders search was asked, kept while the packer opens an order from it and comes back
 * (the screen itself is unmounted meanwhile): the text, the standing filter and the day.
 */
import { create } from 'zustand';
import type { SearchStanding } from '../../../../shared/ipc';

/** The day filter: any day, today, or a chosen day (YYYY-MM-DD). */
export type DayChoice = { readonly kind: 'any' } | { readonly kind: 'today' } | { readonly kind: 'day'; readonly day: string };

interface SearchQueryStore {
  text: string;
  standing: SearchStanding | 'all';
  day: DayChoice;
  set(patch: Partial<Pick<SearchQueryStore, 'text' | 'standing' | 'day'>>): void;
}

export const useSearchQuery = create<SearchQueryStore>()((set) => ({
  text: '',
  standing: 'all',
  day: { kind: 'any' },
  set: (patch) => set(patch),
}));

/** The day a choice names now, or undefined for any day. */
export function dayOfChoice(choice: DayChoice, today: string): string | undefined {
  if (choice.kind === 'any') return undefined;
  return choice.kind === 'today' ? today : choice.day;
}
