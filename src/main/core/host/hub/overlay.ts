/**
 * The hub's facts laid over an order view, in one read path: other counters' unsent taps and the
 * order's claim (core/hub/views.ts), another counter's open alarm on it (a red line), and its
 * conflict when it was packed twice while the counters were apart. Every view and row the host hands
 * the screens passes here through HubLink.decorate: the orders.changed events (host/index.ts and
 * the link's own), the queue's rows (queueRows.ts), and the answers to get, find and search
 * (handlers.ts). A fact added here reaches all of them at once.
 */
import type { HubStatus } from '../../../../shared/hub';
import type { OrderView } from '../../../../shared/ipc';
import type { Engine } from '../../engine';
import type { HubSession } from '../../hub/ports';
import { withHub } from '../../hub/views';

/** What the facts are read from at the moment a view is decorated. */
export interface HubFacts {
  /** The session and this counter's id in the hub while it is a member; null in a one-counter store. */
  readonly member: { readonly session: HubSession; readonly counterId: string } | null;
  /** The running engine, whose data file keeps the conflicts (a counter that left the hub still shows its own). */
  readonly engine: Engine | null;
  /** This counter's id as its terminal id makes it (the same in or out of a hub). */
  readonly counterId: string;
  readonly now: number;
}

/** `view` with every fact of the hub on it (see the module comment). */
export function overlayHubFacts(view: OrderView, facts: HubFacts): OrderView {
  const { member } = facts;
  const shown = member ? withAlarmElsewhere(withHub(view, member.session, member.counterId, facts.now), member.session) : view;
  return withConflict(shown, facts.engine, facts.counterId);
}

/**
 * What the facts over every row at once hang on: which hub this counter is part of, as what, and
 * whether claims show (only while the hub answers: hub/session.ts). When it changes (joined, left,
 * the hub away or back), every order's view may change with no event per order: the queue lists again.
 */
export function overlayWord(status: HubStatus): string {
  return `${status.role}:${status.counterId ?? ''}:${status.mode === 'connected' ? 'claims' : ''}`;
}

/** The view with another counter's open alarm on it, when there is one. */
function withAlarmElsewhere(view: OrderView, session: HubSession): OrderView {
  const alarm = session.alarmElsewhere(view.id);
  return alarm ? { ...view, alarmElsewhere: { kind: alarm.kind, changedAt: alarm.changedAt, counterName: alarm.counterName, packer: alarm.packer } } : view;
}

/** The view with its conflict at this counter, when it has one (hub or not). */
function withConflict(view: OrderView, engine: Engine | null, counterId: string): OrderView {
  if (!engine) return view;
  const conflict = engine.conflicts.views(counterId).get(view.id);
  return conflict ? { ...view, conflict } : view;
}
