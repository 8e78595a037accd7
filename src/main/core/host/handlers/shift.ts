/** The shift domain's handlers: a day's figures, their CSV, and one order's timeline. */
import type { shiftCommands } from '../../../../shared/ipc';
import { fail, ok } from '../../../../shared/result';
import type { DomainHandlers, HandlerKit } from './common';

export function shiftHandlers(kit: HandlerKit): DomainHandlers<typeof shiftCommands> {
  const { engineOr } = kit;
  const { hub, ...deps } = kit.deps;
  return {
    // The shift's figures are open to everyone at the counter: they name no customer, and a packer
    // sees how the shift goes as the manager does. The same for the CSV of them.
    'shift.report': async ({ day }) => engineOr((e) => ok(hub.shift(e, day ?? deps.today()))),
    'shift.exportCsv': async ({ day, table, words }) => deps.exportShiftCsv(day, table, words),
    'orders.timeline': async ({ orderId }) =>
      engineOr((e) => {
        const timeline = e.timeline(orderId);
        return timeline ? ok(timeline) : fail('invalid', `This terminal never had order ${orderId}.`, 'ORDER_NOT_FOUND', { orderId });
      }),
  };
}
