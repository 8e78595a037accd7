/**
 * How a shift report names a counter to people: by its name in the store hub, never by its
 * terminal id (issue 39). The report's own rows of this counter carry its terminal id (its figures
 * are kept under it); they are said as this counter's hub name, or, with no hub, as "this counter".
 */
import type { ShiftReport } from './ipc';

/** The words for a counter of the report: another counter's name as it is, this counter's as said above. */
export function counterShown(report: Pick<ShiftReport, 'terminal' | 'counterName'>, counter: string, thisCounter: string): string {
  return counter === report.terminal ? (report.counterName ?? thisCounter) : counter;
}
