/**
 * What a shell offers for printing. The Electron glue prints the window's page with
 * webContents.print; the browser harness has no printer of its own and lets the page open the
 * browser's print dialog. The host only validates, picks paper and printer from the settings, and
 * logs.
 */
import type { Paper, Printer, PrintOutcome } from '../../../shared/ipc';
import type { Result } from '../../../shared/result';

/** One print request as the shell carries it out. */
export interface PrintJob {
  readonly paper: Paper;
  /** The printer's system name; null: show the print dialog. */
  readonly printer: string | null;
  /** The height the page laid the document out at, in millimetres (for the thermal roll's length). */
  readonly contentHeightMm: number;
}

export interface PrintPort {
  /** The printers the operating system offers. */
  printers(): Promise<Result<Printer[]>>;
  /** Prints the page's print layout. */
  print(job: PrintJob): Promise<Result<PrintOutcome>>;
}
