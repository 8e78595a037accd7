/**
 * The document laid out for print: one packing slip or one pick list at a time. It stays in the
 * page after printing (hidden on screen), so a test or a trainee can still render the page to PDF.
 */
import { create } from 'zustand';
import type { ShiftReport } from '../../../shared/ipc';
import type { BarPattern } from './barcode';
import type { PackingSlip } from './slip';
import type { PickList } from './pickList';

export type PrintJob =
  | { readonly document: 'packingSlip'; readonly slip: PackingSlip; readonly barcode: BarPattern | null; readonly at: number }
  | { readonly document: 'pickList'; readonly list: PickList; readonly at: number }
  /** The store hub's join code, for the manager to keep and other counters to scan. */
  | { readonly document: 'joinSlip'; readonly code: string; readonly barcodeSvg: string; readonly at: number }
  | { readonly document: 'shiftSummary'; readonly report: ShiftReport; readonly at: number }
  /** Packers' badges (Settings -> Staff): a name and the badge code's bars each. */
  | { readonly document: 'badges'; readonly badges: readonly BadgeCard[]; readonly at: number };

/** One packer's badge as printed. */
export interface BadgeCard {
  readonly name: string;
  readonly badge: string;
  readonly barcode: BarPattern | null;
}

interface PrintStore {
  job: PrintJob | null;
  /** The laid-out height of the job's document, in mm, once measured. */
  heightMm: number | null;
  show(job: PrintJob): void;
  measured(heightMm: number): void;
}

export const usePrint = create<PrintStore>()((set) => ({
  job: null,
  heightMm: null,
  show: (job) => set({ job, heightMm: null }),
  measured: (heightMm) => set({ heightMm }),
}));
