/**
 * Orders packed twice while counters could not see each other (issue 39), as the host runs them:
 * the store hub's conflict rules (core/hub/conflicts.ts) given this counter's data file through
 * the engine (engine/conflicts.ts), and a person's settling taken to the engine and the hub. Each
 * order view is given its conflict in overlay.ts, with the rest of the hub's facts.
 */
import { fail, ok, type Result } from '../../../../shared/result';
import type { Engine } from '../../engine';
import type { ConflictPorts } from '../../hub/conflicts';
import type { CounterIdentity, HubSession } from '../../hub/ports';
import type { Logger } from '../../log';

/** The conflict rules' ports over this counter's engine. */
export function conflictPorts(engine: Engine, me: CounterIdentity): ConflictPorts {
  const { conflicts } = engine;
  return {
    uncheckedWork: () => conflicts.uncheckedWork(),
    reconciled: (orderIds) => conflicts.reconciled(orderIds),
    workTaps: (orderId) => conflicts.workTaps(orderId, me),
    keepTaps: (taps) => conflicts.keepHubTaps(taps),
    keep: (record, from) => conflicts.keep(record, from),
    unshared: () => conflicts.unshared(),
    hasNextStep: (orderId) => (engine.getOrder(orderId)?.nextStep ?? null) !== null,
  };
}

/** The order's conflict settled by a person at this counter (`me`: its id, and its name while it is in a hub): `keeperId` keeps it. */
export function settleConflict(
  engine: Engine | null,
  session: HubSession | null,
  me: { readonly counterId: string; readonly counterName: string | null },
  request: { readonly orderId: string; readonly keeperId: string },
  log: Logger,
): Result<true> {
  if (!engine) return fail('transient', 'The terminal is starting; try again in a moment.', 'ENGINE_UNAVAILABLE');
  const record = engine.conflicts.get(request.orderId)?.record;
  // A counter that left the hub since still settles under the name it had in it.
  const counterName = me.counterName ?? record?.parties.find((p) => p.counterId === me.counterId)?.counterName ?? me.counterId;
  const settled = engine.conflicts.settle(request.orderId, request.keeperId, { counterName, packer: engine.staff.packerName() });
  if (!settled.ok) return settled;
  log.info('order packed twice settled here', { orderId: request.orderId, keeper: settled.value.settled?.keeperName });
  session?.settleConflict(settled.value);
  return ok(true);
}
