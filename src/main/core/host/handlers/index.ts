/**
 * One handler per IPC command. Payloads arrive parsed (the dispatcher ran the contract's zod
 * schema); a handler checks the manager PIN first where the command needs it, then asks the
 * engine, the settings, the PIN store or the shell. Reads answer something useful even while the
 * engine is down (an empty queue, a status that says why); actions answer a Problem.
 *
 * One file per domain of the contract (src/shared/ipc/), each held to its domain's commands; put
 * together here with `satisfies`, so a domain left out, or a handler the contract does not have,
 * does not compile.
 */
import type { HandlerTable } from '../dispatch';
import { chainHandlers } from './chain';
import { handlerKit, type HandlerDeps } from './common';
import { hubHandlers } from './hub';
import { ordersHandlers } from './orders';
import { outboxHandlers } from './outbox';
import { printHandlers } from './print';
import { settingsHandlers } from './settings';
import { shiftHandlers } from './shift';
import { staffHandlers } from './staff';
import { statusHandlers } from './status';
import { updatesHandlers } from './updates';

export type { HandlerDeps } from './common';
export { needsManager } from './orders';

/** Builds the handler table over the host's parts. */
export function createHandlers(deps: HandlerDeps): HandlerTable {
  const kit = handlerKit(deps);
  return {
    ...statusHandlers(kit),
    ...ordersHandlers(kit),
    ...outboxHandlers(kit),
    ...settingsHandlers(kit),
    ...updatesHandlers(kit),
    ...printHandlers(kit),
    ...hubHandlers(kit),
    ...chainHandlers(kit),
    ...shiftHandlers(kit),
    ...staffHandlers(kit),
  } satisfies HandlerTable;
}
