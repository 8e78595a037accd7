/** The print domain's handlers: the printers, a print run on the settings' paper and printer, and the note that an order's paper was printed. */
import type { printCommands } from '../../../../shared/ipc';
import { ok } from '../../../../shared/result';
import { done, type DomainHandlers, type HandlerKit } from './common';

export function printHandlers(kit: HandlerKit): DomainHandlers<typeof printCommands> {
  const { engineOr } = kit;
  const { settings, log, ...deps } = kit.deps;
  return {
    'printers.list': async () => (deps.printing ? deps.printing.printers() : ok([])),
    'print.run': async ({ document, contentHeightMm }) => {
      if (!deps.printing) return ok({ outcome: 'browser' as const });
      const { paper, printer } = settings.get();
      const printed = await deps.printing.print({ paper, printer, contentHeightMm });
      if (printed.ok) log.info('printed', { document, paper, printer: printer ?? 'dialog', outcome: printed.value.outcome });
      else log.warn('printing failed', { document, paper, printer: printer ?? 'dialog', problem: printed.problem.message });
      return printed;
    },
    'prints.record': async ({ orderId, document, outcome }) => engineOr((e) => done(e.recordPrint(orderId, document, outcome))),
  };
}
