/**
 * Local validation of a tap against the projected order (the service's latest answer with the
 * entries still waiting applied on top), using the same rules the service applies. A tap that
 * cannot apply is refused here and nothing is queued; a double tap is a no-op refusal.
 */
import { applyAction, projectOrder } from '../../../shared/fulfilment';
import type { Action, Order } from '../../../shared/protocol';
import { fail, ok, type Result } from '../../../shared/result';
import type { EntryRow, ShapingEntry } from '../db';
import { summarize } from './summary';

/** Entries still waiting on the service (they shape the projection and hold the order). */
export function isPending(entry: Pick<EntryRow, 'state'>): boolean {
  return entry.state === 'queued' || entry.state === 'sending' || entry.state === 'failed';
}

/** The order as the packer should see it: cached body plus the entries that have not reached it yet. */
export function project(cached: Order | null, entries: readonly Pick<EntryRow, 'action'>[], now: number): Order | null {
  if (!cached) return null;
  return projectOrder(cached, entries.map((e) => e.action), now).order;
}

/** Projects `orderId`'s order; a Projector remembers projections between calls. */
export type ProjectFn = (orderId: string, cached: Order | null, entries: readonly ShapingEntry[], now: number) => Order | null;

const plainProject: ProjectFn = (_orderId, cached, entries, now) => project(cached, entries, now);

/** Key-order-independent JSON, so two equal actions compare equal however they were built. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

/** True when two actions ask for exactly the same thing. */
export function sameAction(a: Action, b: Action): boolean {
  return canonical(a) === canonical(b);
}

const isAccept = (a: Action): boolean => a.type === 'ORDER_STATE_UPDATE' && a.orderState === 'ACCEPTED';

/**
 * Checks `action` for `orderId` against the cached order and the entries shaping its projection
 * (pending ones and sent ones whose answer was unreadable). Refusals are `invalid` problems; an
 * accepted tap yields the projected order with it applied (null while the order is not loaded).
 */
export function checkTap(
  orderId: string,
  cached: Order | null,
  entries: readonly ShapingEntry[],
  action: Action,
  now: number,
  projectWith: ProjectFn = plainProject,
): Result<Order | null> {
  const pending = entries.filter(isPending);
  const last = pending[pending.length - 1];
  if (last && sameAction(last.action, action)) {
    const what = summarize(action, cached);
    return last.state === 'failed'
      ? fail('invalid', `"${what}" for order ${orderId} already failed once: retry or discard that one instead`, 'ALREADY_QUEUED', { orderId, state: 'failed' })
      : fail('invalid', `"${what}" for order ${orderId} is already waiting to be sent`, 'ALREADY_QUEUED', { orderId });
  }
  if (!cached) {
    // Without the service's answer there is nothing to check a fulfilment, unit or invoice tap against.
    if (!isAccept(action))
      return fail(
        'invalid',
        `The terminal has no details of order ${orderId} yet: accept it first and wait until the service answers`,
        'NOT_LOADED',
        { orderId },
      );
    if (pending.length > 0)
      return fail('invalid', `Accepting order ${orderId} is already waiting to be sent`, 'ALREADY_QUEUED', { orderId });
    // A sent Accept whose answer could not be read still counts: it was delivered, and a second one
    // would go out with a new requestId the service cannot recognise as a repeat.
    if (entries.some((e) => e.state === 'sent' && isAccept(e.action)))
      return fail(
        'invalid',
        `Order ${orderId} was already accepted; its details are on their way from the service`,
        'ALREADY_SENT',
        { orderId },
      );
    return ok(null);
  }
  const projected = projectWith(orderId, cached, entries, now) ?? cached;
  return applyAction(projected, action, now);
}
