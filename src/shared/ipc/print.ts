/** Printing: paper, documents, printers, what a print came to; and the print commands. */
import { z } from 'zod';
import { builtOnce } from '../on-first-use';
import { emptySchema, okSchema, orderIdInputSchema } from './shapes';

/** The paper the terminal prints on: an 80 mm thermal roll or A4 sheets. */
export const paperSchema = builtOnce(() => z.enum(['thermal80', 'a4']));

export type Paper = z.infer<ReturnType<typeof paperSchema>>;


/** What can be printed: one order's packing slip, or the pick list of several orders. */
export const printDocumentSchema = builtOnce(() => z.enum(['packingSlip', 'pickList', 'shiftSummary', 'joinSlip', 'badges']));

export type PrintDocument = z.infer<ReturnType<typeof printDocumentSchema>>;

/** The documents printed for an order (its timeline keeps them). */
export const orderPrintSchema = builtOnce(() => z.enum(['packingSlip', 'pickList']));

export type OrderPrint = z.infer<ReturnType<typeof orderPrintSchema>>;


/** A printer the operating system offers (Electron's getPrintersAsync, reduced to what we show). */
export const printerSchema = builtOnce(() => z.object({
  /** The system name, which printing needs ("EPSON_TM_T82"). */
  name: z.string().min(1).max(256),
  /** The name people know it by ("EPSON TM-T82"). */
  displayName: z.string().max(256),
  description: z.string().max(512),
}));

export type Printer = z.infer<ReturnType<typeof printerSchema>>;


/**
 * How a print request ended: `printed` (sent to the printer), `cancelled` (the packer closed the
 * print dialog), or `browser` (the browser harness: the page opens the browser's own print dialog,
 * where Save as PDF keeps a file).
 */
export const printOutcomeSchema = builtOnce(() => z.object({ outcome: z.enum(['printed', 'cancelled', 'browser']) }));

export type PrintOutcome = z.infer<ReturnType<typeof printOutcomeSchema>>;

/** The print commands: name -> payload schema and result schema (built on first use by the contract). */
export const printCommands = {
  /** The printers the operating system offers (none in the browser harness). */
  'printers.list': () => ({ payload: emptySchema(), result: z.array(printerSchema()) }),
  /**
   * Prints the document the page has laid out for print, on the paper and printer of the settings.
   * `contentHeightMm` is the laid-out height, so a thermal roll is cut after the content.
   */
  'print.run': () => ({
    payload: z.object({ document: printDocumentSchema(), contentHeightMm: z.number().positive().max(10_000) }).strict(),
    result: printOutcomeSchema(),
  }),
  /** A slip or pick list went to the printer (or the browser's print dialog): kept for the order's timeline. */
  'prints.record': () => ({
    payload: z.object({ orderId: orderIdInputSchema(), document: orderPrintSchema(), outcome: z.enum(['printed', 'browser']) }).strict(),
    result: okSchema(),
  }),
};
