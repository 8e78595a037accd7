/**
 * Printing a document: lay it out in the print root, measure it, then ask the shell to print
 * the page. In Electron the main process prints to the chosen printer (silently when one is set);
 * in the browser harness the shell answers `browser` and the page opens the browser's own print
 * dialog, where a trainee can pick a printer or Save as PDF.
 */
import { orderPhase } from '../../../shared/fulfilment/states';
import { command, loadOrder, refuse } from '../intents';
import { useStatus } from '../store/status';
import { useUi } from '../store/ui';
import { pickListOf } from './pickList';
import { packingSlipOf, type PackedBy } from './slip';
import { usePrint, type PrintJob } from './store';
import type { ShiftReport } from '../../../shared/ipc';

const MM_PER_CSS_PX = 25.4 / 96;

/** Prints the packing slip of one order; says why not when its details are not known yet. */
export async function printPackingSlip(orderId: string, now: () => number = Date.now): Promise<boolean> {
  const view = await loadOrder(orderId);
  const wholePhone = useStatus.getState().settings?.slipWholePhone ?? false;
  const slip = view ? packingSlipOf(view, { wholePhone, packedBy: await packedByOf(orderId) }) : null;
  if (!slip) {
    refuse((t) => t('print:notice.noDetails', { orderId }));
    return false;
  }
  // Nothing of a cancelled order goes in a bag: no slip for it (an auto-print included).
  if (view?.order && orderPhase(view.order) === 'CANCELLED') {
    refuse((t) => t('print:notice.cancelledOrder', { orderId }));
    return false;
  }
  // The encoder (about 200 kB with its font tables) loads on the first print, not at start:
  // the queue's first render waits for every byte of the main bundle.
  const { code128 } = await import('./barcode');
  return printJob({ document: 'packingSlip', slip, barcode: code128(slip.orderId), at: now() });
}

/** Prints the store hub's join slip: the code as text and as a barcode. */
export function printJoinSlip(code: string, barcodeSvg: string, now: () => number = Date.now): Promise<boolean> {
  return printJob({ document: 'joinSlip', code, barcodeSvg, at: now() });
}

/**
 * Who marked the order packed, here or at another counter of the store, as the engine recorded it:
 * the packer, else the counter by its name; null when neither is known (never a terminal id).
 */
async function packedByOf(orderId: string): Promise<PackedBy | null> {
  const reply = await command('packing.get', { orderId });
  if (!reply.ok) return null;
  if (reply.value.packedBy !== null) return { kind: 'packer', name: reply.value.packedBy };
  const at = reply.value.packedAt ?? null;
  return at !== null ? { kind: 'counter', counter: at } : null;
}

/** Prints packers' badges: each a name and the badge code as a Code 128 barcode the scanner reads. */
export async function printBadges(members: readonly { name: string; badge: string }[], now: () => number = Date.now): Promise<boolean> {
  const { code128 } = await import('./barcode');
  return printJob({ document: 'badges', badges: members.map((m) => ({ name: m.name, badge: m.badge, barcode: code128(m.badge) })), at: now() });
}

/** Prints the pick list of the given orders (those without details are left out). */
export async function printPickList(orderIds: readonly string[], now: () => number = Date.now): Promise<boolean> {
  // The queue holds rows; the items are in each order's whole view.
  const views = await Promise.all(orderIds.map((id) => loadOrder(id)));
  const list = pickListOf(views.map((v) => v ?? undefined));
  if (list.lines.length === 0) {
    refuse((t) => t('print:notice.nothingToPick'));
    return false;
  }
  return printJob({ document: 'pickList', list, at: now() });
}

/** Prints a day's shift summary on the terminal's paper (80 mm or A4). */
export async function printShiftSummary(report: ShiftReport, now: () => number = Date.now): Promise<boolean> {
  // The summary and its chart library load on first use; laid out before they came, it would be measured empty.
  await import('../components/print/ShiftSummary');
  return printJob({ document: 'shiftSummary', report, at: now() });
}

// One print at a time: the page holds one document, and a second job laid out while the first is
// still being handed to the printer (an auto-printed slip and a Print tap) would replace it.
let queue: Promise<unknown> = Promise.resolve();

function printJob(job: PrintJob): Promise<boolean> {
  const run = queue.then(() => printNow(job));
  queue = run.catch(() => undefined);
  return run;
}

async function printNow(job: PrintJob): Promise<boolean> {
  usePrint.getState().show(job);
  const heightMm = await laidOutHeightMm(job.document);
  usePrint.getState().measured(heightMm);
  const reply = await command('print.run', { document: job.document, contentHeightMm: heightMm });
  if (!reply.ok) {
    // The engine's sentence names the printer and the reason the system gave, which are not ours
    // to translate: shown as it came, in every language.
    const { message } = reply.problem;
    refuse(() => message);
    return false;
  }
  const ui = useUi.getState();
  if (reply.value.outcome !== 'cancelled') recordPrint(job, reply.value.outcome);
  switch (reply.value.outcome) {
    case 'printed':
      ui.say('success', (t) => t(SENT_WORDS[job.document]));
      return true;
    case 'cancelled':
      ui.say('info', (t) => t('print:notice.cancelled'));
      return false;
    case 'browser':
      // The browser's dialog prints this very page; print.css shows only the document.
      window.print();
      return true;
  }
}

const SENT_WORDS = { packingSlip: 'print:notice.slipSent', pickList: 'print:notice.pickListSent', shiftSummary: 'shiftReport:printSent', joinSlip: 'hub:code.printed', badges: 'staff:badges.sent' } as const;

/** Keeps a slip's or pick list's print in each of its orders' timelines (a failure to keep it is no reason to stop printing). */
function recordPrint(job: PrintJob, outcome: 'printed' | 'browser'): void {
  const orderIds = job.document === 'packingSlip' ? [job.slip.orderId] : job.document === 'pickList' ? job.list.orderIds : [];
  if (job.document === 'shiftSummary' || job.document === 'joinSlip' || job.document === 'badges') return;
  for (const orderId of orderIds) void command('prints.record', { orderId, document: job.document, outcome });
}

/** The print document's height once React has rendered it and the browser has laid it out. */
async function laidOutHeightMm(document_: PrintJob['document']): Promise<number> {
  const frame = (): Promise<void> => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
  await frame();
  await frame();
  // A document loaded on first use (the shift summary) shows a frame or more later: waited for, up to a second.
  for (let i = 0; i < 60 && !document.querySelector(`[data-print-document="${document_}"]`); i++) await frame();
  // The document's fonts (Devanagari on a Hindi slip printed from an English screen) load once it
  // is laid out: measured and printed before they came, its words would be fallback boxes.
  await document.fonts.ready;
  const el = document.querySelector('[data-print-document]');
  const px = el ? el.getBoundingClientRect().height : 0;
  // Never 0: the shell's page size needs a positive length even if layout failed.
  return Math.max(1, Math.ceil(px * MM_PER_CSS_PX));
}
