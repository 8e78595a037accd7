/**
 * This counter's session with its hub, bound to the running engine: the session's ports over the
 * engine (intake, taps, records, conflicts, the store's word, presence), and the engine's and the
 * session's events bound both ways: this counter's taps shown to the others, what its intake stored
 * put into the hub once per store, an order finished or removed released, and what the hub says
 * (claims, taps, conflicts, its status) taken to the screens as orders changed.
 */
import type { OrderSummary, OrderView } from '../../../../shared/ipc';
import { summarize } from '../../../../shared/orders';
import type { IntakeEvent } from '../../engine';
import { intakeCounterPorts } from '../../engine/hub-counter';
import { ownTaps, presenceFigures, sharedTapOf } from '../../engine/hub-counter-taps';
import { shiftTapOf } from '../../engine/shared-records';
import type { HubConfig } from '../../hub/hub-config';
import { localTargetOf } from '../../hub/membership';
import { connectHub } from '../../hub/nats/connection';
import type { CounterIdentity, HubSession } from '../../hub/ports';
import { startHubSession } from '../../hub/session';
import type { HubStatus } from '../../../../shared/hub';
import { systemTimers } from '../../time';
import { northOf, type HubPc } from './chain';
import { conflictPorts } from './conflicts';
import { bindStoreWord, storeWordPorts } from './store-word';
import type { Engaged, LinkContext } from './types';

/** What the link keeps of a started session: the session, and what unbinds it from the engine. */
export interface BoundSession {
  readonly session: HubSession;
  readonly unsubscribes: (() => void)[];
}

/** What the session needs of the link: its views with the hub's facts on them, and telling the screens of orders that changed. */
export interface SessionLink {
  decorate(view: OrderView): OrderView;
  emitOrders(orderIds: Iterable<string>): void;
}

/**
 * The presence of the counter whose intake polls for the store, when that is another counter heard
 * from now: what it found of the order service stands for this counter's, which sends nothing while idle.
 */
function intakeHolderPresence(status: HubStatus): HubStatus['counters'][number] | null {
  if (status.mode !== 'connected' || !status.intakeHolder || status.intakeHolder.counterId === status.counterId) return null;
  const holderId = status.intakeHolder.counterId;
  return status.counters.find((c) => c.counterId === holderId && c.present) ?? null;
}

/** Starts this counter's session over the engaged engine and binds the two (see the module comment). */
export function startMemberSession(ctx: LinkContext, config: HubConfig, e: Engaged, pc: HubPc, link: SessionLink): BoundSession {
  const { deps, log } = ctx;
  const me: CounterIdentity = { counterId: config.counterId, counterName: config.counterName, version: deps.version };
  const { service } = e;
  const engine = service.engine;
  const rows = deps.rows ?? ((): OrderSummary[] => engine.listOrders().map(summarize));
  const word = storeWordPorts(deps.storeSettings, rows, me);
  const supervisor = pc.supervisor;
  const session: HubSession = startHubSession({
    me,
    role: config.role,
    ports: {
      ...intakeCounterPorts(service),
      heldOrderIds: () => rows().flatMap((r) => (r.facts !== null ? [r.id] : [])),
      ownTaps: () => ownTaps(engine, me, deps.now()),
      records: engine.shared,
      conflicts: conflictPorts(engine, me),
      ...word,
      presence: () => presenceFigures(engine),
    },
    connect: async () => {
      const secret = await e.secrets.get().catch(() => null);
      if (!secret) return { ok: false, problem: { kind: 'wrongSecret', message: "The store's secret is missing from the keychain; leave the store hub and join it again." } };
      return connectHub(localTargetOf(config, secret), { name: config.counterName });
    },
    // The hub process's health, read when the status is.
    ...(supervisor ? { server: () => supervisor.status() } : {}),
    now: deps.now,
    timers: systemTimers,
    log,
    serviceNow: () => deps.now() - (service.clock.skewMs() ?? 0),
    ...(deps.claimQuietMs ? { claimQuietMs: deps.claimQuietMs } : {}),
    ...(deps.tuning?.awayAfterMs !== undefined ? { awayAfterMs: deps.tuning.awayAfterMs } : {}),
    ...(deps.tuning?.lease ? { lease: deps.tuning.lease } : {}),
    // Sent only when the hub is in a chain (docs/fleet.md).
    north: northOf(ctx, config, e, rows, () => session),
  });
  engine.setCounterName(config.counterName);
  const { emitOrders, decorate } = link;
  const unsubscribes: (() => void)[] = [
    ...pc.stops,
    ...bindStoreWord({
      session,
      engine,
      me,
      emit: deps.emit,
      emitOrders,
      settings: deps.storeSettings,
      openAlarms: word.openAlarms!,
      onStored: (listener) => service.onIntake((event) => event.kind === 'stored' && listener(event.orderIds)),
      now: deps.now,
    }),
    () => engine.setCounterName(null),
    session.on((event) => {
      if (event.kind === 'status') {
        deps.emit('hub.status', event.status);
        const holder = intakeHolderPresence(event.status);
        if (holder) service.reportReachable(holder.online);
      }
      else if (event.kind === 'claim' || event.kind === 'claimTaken') emitOrders([event.orderId]);
      else if (event.kind === 'tap') {
        emitOrders([event.tap.orderId]);
        // Handed over to the end at another counter: this counter's claim on it ends too.
        const view = engine.getOrder(event.tap.orderId);
        if (view && session.claimOf(view.id)?.counterId === me.counterId && decorate(view).nextStep === null) void session.release(view.id);
      }
      else if (event.kind === 'shiftHeard') deps.emit('shift.changed', {});
      else if (event.kind === 'conflict') emitOrders(event.orderIds);
      // 'stored': the engine told the screens already (storeOrders raises intake's stored event).
    }),
    // Every tap of this counter is shown to the others; an order it finished is released.
    engine.on('outbox.changed', ({ entries }) => {
      for (const entry of entries) {
        session.publishTap(sharedTapOf(entry, me));
        const shiftTap = shiftTapOf(entry, me);
        if (shiftTap) session.shareShiftTap(shiftTap);
      }
      for (const id of new Set(entries.map((x) => x.orderId))) if (engine.getOrder(id)?.nextStep === null) void session.release(id);
    }),
    engine.on('orders.removed', ({ orderIds }) => {
      for (const id of orderIds) void session.release(id);
    }),
    // What this counter's intake stored, and a tap's answer, goes into the hub, once per store.
    service.onIntake((event: IntakeEvent) => {
      if (event.kind === 'stored' && event.from !== 'hub') session.publishOrders(event.orderIds);
    }),
    engine.on('orders.changed', ({ orders }) => session.publishOrders(orders.filter((v) => v.order !== null).map((v) => v.id))),
  ];
  return { session, unsubscribes };
}
