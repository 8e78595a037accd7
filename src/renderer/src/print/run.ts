/**
 * Printing a document: lay it out in the print root, measure it, then ask the shell to print
 * the page. In Electron the main process prints to the chosen printer (silently when one is set);
 * in the browser harness the shell answers `browser` and the page opens the browser's own print
 * dialog, where a trainee can pick a printer or Save as PDF.
 */
import { orderPhase } from '../../../shared/fulfilment/states';
import { i18next } from '../i18n';
import { command, loadOrder, refuse } from '../intents';
import { useStatus } from '../store/status';
import { useUi } from '../store/ui';
import { pickListOf } from './pickList';
import { packingSlipOf, type PackedBy } from './slip';
import { usePrint, type PrintJob } from './store';

const MM_PER_CSS_PX = 25.4 / 96;

/** Prints the packing slip of one order; says why not when its details are not known yet. */
export async function printPackingSlip(orderId: string, now: () => number = Date.now): Promise<boolean> {
  const view = await loadOrder(orderId);
  const wholePhone = useStatus.getState().settings?.slipWholePhone ?? false;
  const slip = view ? packingSlipOf(view, { wholePhone, packedBy: await packedByOf(orderId) }) : null;
  if (!slip) {
    refuse(i18next.t('print:notice.noDetails', { orderId }));
    return false;
  }
  // Nothing of a cancelled order goes in a bag: no slip for it (an auto-print included).
  if (view?.order && orderPhase(view.order) === 'CANCELLED') {
    refuse(i18next.t('print:notice.cancelledOrder', { orderId }));
    return false;
  }
  // The encoder (about 200 kB with its font tables) loads on the first print, not at start:
  // the queue's first render waits for every byte of the main bundle.
  const { code128 } = await import('./barcode');
  return printJob({ document: 'packingSlip', slip, barcode: code128(slip.orderId), at: now() });
}

/** Who marked the order packed at this counter, as the engine recorded it (null: not packed here, or not known). */
async function packedByOf(orderId: string): Promise<PackedBy | null> {
  const reply = await command('packing.get', { orderId });
  if (!reply.ok || !reply.value.packedHere) return null;
  if (reply.value.packedBy !== null) return { kind: 'packer', name: reply.value.packedBy };
  return { kind: 'counter', counter: useStatus.getState().info?.terminalId ?? '' };
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
    refuse(i18next.t('print:notice.nothingToPick'));
    return false;
  }
  return printJob({ document: 'pickList', list, at: now() });
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
  const heightMm = await laidOutHeightMm();
  usePrint.getState().measured(heightMm);
  const reply = await command('print.run', { document: job.document, contentHeightMm: heightMm });
  if (!reply.ok) {
    refuse(reply.problem.message);
    return false;
  }
  const ui = useUi.getState();
  switch (reply.value.outcome) {
    case 'printed':
      ui.say('success', i18next.t(job.document === 'packingSlip' ? 'print:notice.slipSent' : job.document === 'badges' ? 'staff:badges.sent' : 'print:notice.pickListSent'));
      return true;
    case 'cancelled':
      ui.say('info', i18next.t('print:notice.cancelled'));
      return false;
    case 'browser':
      // The browser's dialog prints this very page; print.css shows only the document.
      window.print();
      return true;
  }
}

/** The print document's height once React has rendered it and the browser has laid it out. */
async function laidOutHeightMm(): Promise<number> {
  await new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));
  // The document's fonts (Devanagari on a Hindi slip printed from an English screen) load once it
  // is laid out: measured and printed before they came, its words would be fallback boxes.
  await document.fonts.ready;
  const el = document.querySelector('[data-print-document]');
  const px = el ? el.getBoundingClientRect().height : 0;
  // Never 0: the shell's page size needs a positive length even if layout failed.
  return Math.max(1, Math.ceil(px * MM_PER_CSS_PX));
}
