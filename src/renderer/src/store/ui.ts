/**
 * Where the packer is and what the screen is telling them: the current screen, the queue
 * filter, one notice (a refusal in plain words, or a confirmation), the undo offer for the
 * latest tap, and a counter that makes the screen shake on a refusal.
 */
import { create } from 'zustand';
import type { Action } from '../../../shared/protocol/schemas';
import type { Wording } from '../i18n/words';
import type { StepFilterKey } from './orders';

export type Screen =
  | { readonly name: 'queue' }
  | { readonly name: 'order'; readonly orderId: string }
  | { readonly name: 'outbox' }
  | { readonly name: 'settings' }
  | { readonly name: 'shift' }
  | { readonly name: 'search' };

/** The queue's views beside its steps: orders past their promised PACKED time, and orders finished today. */
export type QueueView = StepFilterKey | 'ALL' | 'LATE' | 'DONE_TODAY';

export type NoticeTone = 'error' | 'info' | 'success';

export interface Notice {
  readonly tone: NoticeTone;
  /** How to word it, not words: the notice line words it in the language shown, again after a switch. */
  readonly words: Wording;
  /** Distinguishes two notices with the same words, so each one is announced; a switch keeps it. */
  readonly id: number;
}

export interface UndoOffer {
  readonly entryId: number;
  readonly orderId: string;
  /** What the tap does: the undo bar words it in the language shown. */
  readonly action: Action;
  /** The engine's English words for it (the fallback). */
  readonly summary: string;
  /** End of the undo window (epoch ms): the engine does not send before. */
  readonly sendAfter: number;
}

/** A scanned code that is not an order id, offered as the open order's invoice number. */
export interface InvoiceOffer {
  readonly orderId: string;
  readonly code: string;
}

interface UiStore {
  screen: Screen;
  /** Where Back goes from outbox and settings. */
  previous: Screen;
  filter: QueueView;
  notice: Notice | null;
  undo: UndoOffer | null;
  invoiceOffer: InvoiceOffer | null;
  buzzes: number;
  /** Bumped when an order is opened by scan or typed number: its big button takes focus again. */
  focusRequests: number;
  /** Open modal dialogs: while one is open, refusals show inside it (the page behind is dimmed). */
  dialogs: number;
  dialogOpened(): void;
  dialogClosed(): void;
  show(screen: Screen): void;
  /** Opens an order and puts the keyboard focus on its next step. */
  openOrder(orderId: string): void;
  back(): void;
  setFilter(filter: QueueView): void;
  say(tone: NoticeTone, words: Wording): void;
  clearNotice(): void;
  offerUndo(offer: UndoOffer | null): void;
  offerInvoice(offer: InvoiceOffer | null): void;
  buzz(): void;
}

let noticeIds = 0;

/** The id the next notice will be above: a dialog opened now shows only refusals said after it (Dialog). */
export function lastNoticeId(): number {
  return noticeIds;
}

export const useUi = create<UiStore>()((set) => ({
  screen: { name: 'queue' },
  previous: { name: 'queue' },
  filter: 'ALL',
  notice: null,
  undo: null,
  invoiceOffer: null,
  buzzes: 0,
  focusRequests: 0,
  dialogs: 0,
  dialogOpened: () => set((s) => ({ dialogs: s.dialogs + 1 })),
  dialogClosed: () => set((s) => ({ dialogs: Math.max(0, s.dialogs - 1) })),
  openOrder: (orderId) => {
    useUi.getState().show({ name: 'order', orderId });
    set((s) => ({ focusRequests: s.focusRequests + 1 }));
  },
  show: (screen) =>
    set((s) => ({
      screen,
      // Outbox and settings return to where the packer was; an order returns to the queue (or the search it came from).
      previous: s.screen.name === 'outbox' || s.screen.name === 'settings' || s.screen.name === 'shift' ? s.previous : s.screen,
      notice: null,
      invoiceOffer: null,
    })),
  back: () =>
    set((s) => ({
      // An order opened from the Orders search goes back to it (the search is kept: components/search/query.ts).
      screen: s.screen.name === 'order' ? (s.previous.name === 'search' ? s.previous : { name: 'queue' }) : s.previous,
      previous: { name: 'queue' },
      notice: null,
      invoiceOffer: null,
    })),
  setFilter: (filter) => set({ filter }),
  say: (tone, words) => set({ notice: { tone, words, id: ++noticeIds } }),
  clearNotice: () => set({ notice: null }),
  offerUndo: (undo) => set({ undo }),
  offerInvoice: (invoiceOffer) => set({ invoiceOffer }),
  buzz: () => set((s) => ({ buzzes: s.buzzes + 1 })),
}));
