/**
 * Printing in the Electron shell: the window's page, which the renderer has laid out for print
 * (print.css hides the terminal and shows only the slip or pick list), goes to the chosen printer
 * with webContents.print — silently when a printer is set in settings, through the system print
 * dialog when not. The web contents are passed in (structurally typed), so this runs under Node
 * in tests.
 */
import type { Printer, PrintOutcome } from '../shared/ipc';
import { fail, ok, type Result } from '../shared/result';
import { electronPageSize, pageSizeFor, type PrintJob, type PrintPort } from './core/print';

/** The options of webContents.print this module sets. */
export interface PrintOptionsLike {
  silent: boolean;
  printBackground: boolean;
  deviceName?: string;
  color: boolean;
  margins: { marginType: 'none' };
  pageSize: 'A4' | { width: number; height: number };
}

/** The part of Electron's webContents printing uses. */
export interface PrintingContents {
  isDestroyed(): boolean;
  print(options: PrintOptionsLike, callback: (success: boolean, failureReason: string) => void): void;
  getPrintersAsync(): Promise<readonly { name: string; displayName: string; description: string }[]>;
}

/** Builds the host's print port over the main window's web contents (null while there is none). */
export function createElectronPrinting(contents: () => PrintingContents | null): PrintPort {
  return {
    async printers(): Promise<Result<Printer[]>> {
      const target = live(contents());
      if (!target) return noWindow();
      try {
        const found = await target.getPrintersAsync();
        // Printing needs the system name; an entry without one could never be chosen.
        return ok(
          found
            .filter((p) => p.name.trim() !== '')
            .map((p) => ({ name: p.name, displayName: p.displayName || p.name, description: p.description ?? '' })),
        );
      } catch (err) {
        return fail('transient', `The list of printers could not be read (${err instanceof Error ? err.message : String(err)}).`, 'PRINTERS_UNAVAILABLE');
      }
    },
    print(job: PrintJob): Promise<Result<PrintOutcome>> {
      const target = live(contents());
      if (!target) return Promise.resolve(noWindow());
      return new Promise((resolve) => {
        target.print(printOptions(job), (success, failureReason) => {
          if (success) resolve(ok({ outcome: 'printed' }));
          // Closing the dialog is the packer's choice, not a failure to buzz about.
          else if (/cancel/i.test(failureReason)) resolve(ok({ outcome: 'cancelled' }));
          else resolve(fail('transient', printFailure(job, failureReason), 'PRINT_FAILED'));
        });
      });
    },
  };
}

/** The options for one job: silent to the named printer, or the dialog when none is set. */
export function printOptions(job: PrintJob): PrintOptionsLike {
  return {
    silent: job.printer !== null,
    // The prescription mark is white on a black box: a background, which Chromium drops without this.
    printBackground: true,
    ...(job.printer !== null ? { deviceName: job.printer } : {}),
    color: false,
    // The page margins are print.css's @page margins; Chromium's own would add to them.
    margins: { marginType: 'none' },
    pageSize: electronPageSize(pageSizeFor(job.paper, job.contentHeightMm)),
  };
}

function live(c: PrintingContents | null): PrintingContents | null {
  return c && !c.isDestroyed() ? c : null;
}

function noWindow<T>(): Result<T> {
  return fail('transient', 'The Packdesk window is not open, so nothing can be printed.', 'NO_WINDOW');
}

function printFailure(job: PrintJob, reason: string): string {
  const where = job.printer === null ? 'The printer' : `The printer ${job.printer}`;
  return `${where} did not take the page (${reason || 'no reason given'}). Check that it is on and has paper, or choose another printer in Settings.`;
}
