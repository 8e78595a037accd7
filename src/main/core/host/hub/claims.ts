/**
 * Claims as the host asks them before a tap (issue 23, issue 39): claimed for this counter first,
 * refused in words when another counter has it, the hand-over of a packed order left to anyone, and
 * what the tap's record keeps: whether other counters could be checked. Bound by index.ts (HubLink.beforeTap).
 */
import type { TapHubContext } from '../../outbox';
import type { ActionInput } from '../../../../shared/protocol';
import { fail, ok, type Result } from '../../../../shared/result';
import { handsOver } from '../../hub/apart';
import type { HubSession } from '../../hub/ports';
import { awaitWithin, systemTimers } from '../../time';

/** The longest a tap waits on the hub to learn whether another counter has the order; after it the tap goes on, unchecked. */
export const CLAIM_PATIENCE_MS = 400;

/** Before this counter's tap on an order: the claim asked for (see the module comment). */
export async function claimBeforeTap(session: HubSession, counterId: string, packer: string | null, orderId: string, input: ActionInput): Promise<Result<TapHubContext>> {
  // Whether other counters can be asked at all: while the hub is away every tap is made unchecked.
  const connected = session.status().mode === 'connected';
  const held = session.claimOf(orderId);
  if (held && held.counterId === counterId) {
    void session.renew(orderId);
    return ok({ unchecked: false });
  }
  // A packed order's hand-over (out for delivery, delivered, complete) is anyone's at any counter: the claim stays where it was packed.
  if (held && handsOver(input)) return ok({ unchecked: false });
  // An invoice number may be written whoever packs; every other tap is packing work.
  if (input.kind === 'invoice' && held === null) return ok({ unchecked: !connected });
  // "Being packed by Ravi at Counter 2": the packer signed in here, when the store names its packers.
  const outcome = await awaitWithin(session.claim(orderId, { packer }), CLAIM_PATIENCE_MS, null, systemTimers, { keepAlive: true });
  // No answer in time, or the hub away: the tap goes on, and is looked at again when the hub answers (hub/conflicts.ts).
  if (outcome?.kind !== 'taken') return ok({ unchecked: outcome?.kind !== 'held' });
  return fail('invalid', `Order ${orderId} is being packed at ${outcome.by.counterName}. Take it over there, or with "Take over" here.`, 'CLAIMED_ELSEWHERE', {
    orderId,
    counter: outcome.by.counterName,
  });
}
