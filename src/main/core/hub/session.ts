/**
 * One counter's session with its store hub: the connection (nats/connection.ts) and the store's rules
 * over it (the intake lease, shared orders, claims, shared taps, presence), put together as the
 * `HubSession` the host uses. It decides the one thing none of the rules can alone: whether this
 * counter's own intake polls. It does while this counter holds the lease, and whenever the hub has
 * been away for `awayAfterMs`: a hub that is away never stops orders from arriving, and taps are
 * sent by each counter's outbox whatever the hub does. When the hub is back, the counter publishes
 * what it did meanwhile (its taps, the orders its own intake stored) and one intake resumes.
 */
import type { Claim, ClaimOutcome, CounterView, HubMode, HubStatus, SharedTap } from '../../../shared/hub';
import { type Logger, silentLogger } from '../log';
import type { Timers } from '../time';
import type { HubConnectResult, HubConnection, HubLinkStatus } from './nats/connection';
import type { CounterIdentity, CounterPorts, HubEvent, HubSession } from './ports';
import { openClaims, type Claims } from './claims';
import { startIntakeLease, type IntakeLease } from './lease';
import { openSharedTaps, type SharedTaps, type TapEvent } from './shared-taps';
import { startSharedOrders, type SharedOrders } from './shared-orders';
import { openPresence, type Presence } from './presence';
import { openStoreRecords, type StoreRecords } from './store-records';
import { openConflicts, type SharedConflicts } from './conflicts';
import { openStoreSettings, type StoreSettings, storeSettingsOf } from './store-settings';
import { openStoreAlarms, type StoreAlarms } from './store-alarms';
import { type NorthOptions, startCounterNorth } from './chain/counter-north';

/** A hub silent this long: this counter takes in orders and rings alerts on its own (the issue allows 15 s). */
export const DEFAULT_AWAY_AFTER_MS = 5_000;
/** Between attempts to reach a hub that could not be reached at all. */
const RECONNECT_MS = 2_000;
/** Between attempts when the hub refused this counter (wrong code, other certificate): it will not mend itself soon. */
const REFUSED_RETRY_MS = 30_000;

export interface HubSessionOptions {
  readonly me: CounterIdentity;
  readonly role: 'hub' | 'counter';
  readonly ports: CounterPorts;
  /** Makes a connection to the hub (connectHub with the stored join code's target). */
  readonly connect: () => Promise<HubConnectResult>;
  /** On the hub PC: the hub process's health. */
  readonly server?: () => HubStatus['server'];
  readonly now: () => number;
  readonly timers: Timers;
  readonly log?: Logger;
  readonly awayAfterMs?: number;
  /** The order service's now, on which a body from the hub is judged newer (the service clock). */
  readonly serviceNow?: () => number;
  /** A claim's quiet period (settings; default 15 min). */
  readonly claimQuietMs?: () => number;
  /** Tests: the lease's period and renewal (default 5 s and 1 s). */
  readonly lease?: { readonly leaseMs?: number; readonly renewMs?: number };
  /** Tests: presence's period and window. */
  readonly presence?: { readonly everyMs?: number; readonly windowMs?: number };
  /** When the hub is in a chain (it says so by its JetStream domain), this counter's health (and on the hub PC the store's summary) goes north (docs/fleet.md). */
  readonly north?: NorthOptions;
}

/** The rules over one connection: opened when the hub first answers, kept across its reconnects. */
interface Rules {
  readonly lease: IntakeLease;
  readonly orders: SharedOrders;
  readonly claims: Claims;
  readonly taps: SharedTaps;
  readonly presence: Presence;
  /** The staff list, taught barcodes and shift taps (null when this counter shares none). */
  readonly records: StoreRecords | null;
  /** Orders packed twice while apart (null when this counter does not look for them). */
  readonly conflicts: SharedConflicts | null;
  /** The store's settings (null when this counter shares none). */
  readonly settings: StoreSettings | null;
  /** Every counter's alarms on orders changed elsewhere. */
  readonly alarms: StoreAlarms;
  /** Stops sending north (a no-op when the store is not in a chain). */
  readonly stopNorth: () => void;
}

/** Starts the session: connects in the background (the counter works on its own until the hub answers). */
export function startHubSession(options: HubSessionOptions): HubSession {
  const log = options.log ?? silentLogger;
  const { me, ports, timers, now } = options;
  const awayAfterMs = options.awayAfterMs ?? DEFAULT_AWAY_AFTER_MS;
  const listeners = new Set<(event: HubEvent) => void>();
  let connection: HubConnection | null = null;
  let rules: Rules | null = null;
  let opening: Promise<void> | null = null;
  let closed = false;
  let mode: HubMode = 'connecting';
  let since = now();
  let problem: string | null = null;
  let awayTimer: unknown = null;
  let retryTimer: unknown = null;
  let polling: boolean | null = null;
  /** Store settings a manager changed here before the hub first answered: put over the hub's word once it does. */
  const settingsMeanwhile: Record<string, unknown> = {};
  /** Orders this counter's intake stored while the hub could not take them: published once it is back. */
  const unpublished = new Set<string>();
  const unsubscribes: (() => void)[] = [];

  const tell = (event: HubEvent): void => {
    for (const l of [...listeners]) {
      try {
        l(event);
      } catch (e) {
        log.error('hub listener failed', { error: e });
      }
    }
  };
  const tellStatus = (): void => tell({ kind: 'status', status: status() });

  /** This counter's intake polls while it holds the lease, or on its own while the hub is away. */
  const decideIntake = (): void => {
    const poll = mode === 'away' || (mode === 'connected' && rules !== null && rules.lease.holding());
    if (poll === polling) return;
    polling = poll;
    if (poll) ports.resumeIntake();
    else ports.pauseIntake();
    log.info(poll ? 'this counter takes in orders' : 'another counter takes in orders', { mode });
  };

  const setMode = (next: HubMode): void => {
    if (next === mode) return;
    mode = next;
    since = now();
    log.info('store hub', { mode });
    decideIntake();
    tellStatus();
  };

  const armAway = (): void => {
    if (awayTimer !== null || mode === 'away') return;
    awayTimer = timers.setTimeout(() => {
      awayTimer = null;
      if (!closed && mode !== 'connected') setMode('away');
    }, awayAfterMs);
  };
  const disarmAway = (): void => {
    if (awayTimer !== null) timers.clearTimeout(awayTimer);
    awayTimer = null;
  };

  /** Opens the rules; when one part fails, what was already opened is let go (its timers and watches). */
  const openRules = async (conn: HubConnection): Promise<Rules> => {
    const opened: (() => unknown)[] = [];
    try {
      return await openRulesInto(conn, opened);
    } catch (e) {
      for (const letGo of opened.reverse()) await Promise.resolve().then(letGo).catch(() => undefined);
      throw e;
    }
  };

  const openRulesInto = async (conn: HubConnection, opened: (() => unknown)[]): Promise<Rules> => {
    const lease = startIntakeLease(conn.nc, me, { now, timers, log: log.child('lease'), ...options.lease });
    const orders = startSharedOrders(conn.nc, ports, {
      now,
      timers,
      log,
      ...(options.serviceNow ? { serviceNow: options.serviceNow } : {}),
      onStored: (orderIds, newIds) => tell({ kind: 'stored', orderIds, newIds }),
    });
    opened.push(() => lease.close(), () => orders.close());
    const claims = await openClaims(conn.nc, { counter: me, now, timers, ...(options.claimQuietMs ? { quietMs: options.claimQuietMs } : {}) });
    opened.push(() => claims.close());
    const taps = await openSharedTaps(conn.nc, { counter: me, ownTaps: () => ports.ownTaps(), now, timers });
    opened.push(() => taps.close());
    // The bucket's taps arrive while the rest opens: held until the listener below is on, or a
    // counter (re)started after another's tap was put would never keep it nor look at it for taps
    // made apart (the store soak: an order handed over twice while apart, raised on neither).
    const early: TapEvent[] = [];
    const stopEarly = taps.on((event) => early.push(event));
    const presence = await openPresence(conn.nc, { identity: me, figures: () => ports.presence(), now, timers, ...options.presence });
    opened.push(() => presence.close());
    // Other counters' shift taps kept: the Shift screen's figures changed.
    const onHeard = (what: 'staff' | 'taught' | 'shift'): void => {
      if (what === 'shift') tell({ kind: 'shiftHeard' });
    };
    const records = ports.records ? await openStoreRecords(conn.nc, { me, ports: ports.records, now, timers, log: log.child('records'), onHeard }) : null;
    opened.push(() => records?.close());
    const conflicts = ports.conflicts
      ? await openConflicts(conn.nc, { me, ports: ports.conflicts, claims, now, timers, log: log.child('conflicts'), onChanged: (orderIds) => tell({ kind: 'conflict', orderIds }) })
      : null;
    opened.push(() => conflicts?.close());
    const settings = ports.storeSettings
      ? await openStoreSettings(conn.nc, { me, ports: ports.storeSettings, now, timers, log: log.child('settings'), onApplied: (patch) => tell({ kind: 'storeSettings', patch }) })
      : null;
    opened.push(() => settings?.close());
    if (settings && Object.keys(settingsMeanwhile).length > 0) settings.changed(storeSettingsOf(settingsMeanwhile));
    const alarms = await openStoreAlarms(conn.nc, { me, now, timers, log, mine: () => ports.openAlarms?.() ?? [], onChanged: (orderIds) => tell({ kind: 'alarmElsewhere', orderIds }) });
    const onTap = (event: TapEvent): void => {
      conflicts?.heard(event.tap);
      tell(event);
    };
    unsubscribes.push(
      lease.on(() => {
        decideIntake();
        tellStatus();
      }),
      claims.on((event) => tell(event)),
      taps.on(onTap),
      presence.on(() => tellStatus()),
    );
    stopEarly();
    for (const event of early.splice(0)) onTap(event);
    // North is figures for the chain's support: started beside the rules, never delaying them, and a
    // store hub that cannot take it never stops the counter.
    let northStop: (() => void) | null = null;
    let northStopped = false;
    if (options.north) {
      startCounterNorth(conn.nc, me, () => ports.presence(), options.north, { now, timers }).then(
        (stop) => (northStopped ? stop() : (northStop = stop)),
        (error: unknown) => log.warn('north: not sending to the chain', { error: error instanceof Error ? error.message : String(error) }),
      );
    }
    const stopNorth = (): void => {
      northStopped = true;
      northStop?.();
    };
    return { lease, orders, claims, taps, presence, records, conflicts, settings, alarms, stopNorth };
  };

  /** The hub answered (first time or after being away): publish what was done meanwhile, then one intake. */
  const hubBack = async (): Promise<void> => {
    const current = rules;
    if (!current) return;
    // What this counter holds that the hub may lack: orders stored before it joined or while the
    // hub was away. Putting a body the hub already has is a read and nothing more.
    const ids = [...new Set([...unpublished, ...ports.heldOrderIds()])];
    unpublished.clear();
    if (ids.length > 0) await current.orders.publish(ids).catch((e: unknown) => {
      for (const id of ids) unpublished.add(id);
      log.warn('orders stored meanwhile could not be put into the hub yet', { error: e });
    });
    await current.taps.republish().catch((e: unknown) => log.warn('taps made meanwhile could not be shown yet', { error: e }));
    // Staff, barcodes and shift taps: merged with the hub's (what this counter did alone is kept).
    await current.records?.republish();
    // Store settings changed here meanwhile, and this counter's alarms, to the others.
    await current.settings?.republish();
    await current.alarms.republish();
    // What this counter did without asking the hub, looked at now that it answers: packed twice meanwhile?
    await current.conflicts?.reconcile().catch((e: unknown) => log.warn('work done while the hub was away could not be looked at yet', { error: e }));
  };

  const onLink = (link: HubLinkStatus): void => {
    if (closed) return;
    problem = link.problem?.message ?? null;
    if (link.state === 'connected') {
      disarmAway();
      setMode('connected');
      void hubBack();
    } else {
      if (mode === 'connected') setMode('connecting');
      armAway();
      tellStatus();
    }
  };

  const attempt = async (): Promise<void> => {
    retryTimer = null;
    if (closed) return;
    // Not waited for by close(): a hub PC that is off holds a connect up to its deadline, and
    // quitting must not. One that answers after the close is let go at once (below).
    const result = await options.connect();
    if (closed) {
      if (result.ok) await result.connection.close();
      return;
    }
    if (!result.ok) {
      problem = result.problem.message;
      log.warn('the store hub could not be reached', { kind: result.problem.kind });
      armAway();
      tellStatus();
      const wait = result.problem.kind === 'unreachable' || result.problem.kind === 'other' ? RECONNECT_MS : REFUSED_RETRY_MS;
      retryTimer = timers.setTimeout(() => void attempt(), wait);
      return;
    }
    opening = openOver(result.connection);
    await opening;
  };

  /** Opens the rules over a connection that answered; close() waits for this, so nothing opened is left behind. */
  const openOver = async (conn: HubConnection): Promise<void> => {
    connection = conn;
    try {
      rules = await openRules(conn);
    } catch (e) {
      log.warn('the store hub answered but its buckets could not be opened; trying again', { error: e });
      connection = null;
      await conn.close().catch(() => undefined);
      if (closed) return;
      problem = 'The store hub answered but is not ready yet.';
      armAway();
      retryTimer = timers.setTimeout(() => void attempt(), RECONNECT_MS);
      return;
    }
    unsubscribes.push(conn.onStatus(onLink));
    onLink(conn.status());
  };

  const counters = (): CounterView[] => {
    if (!rules) return [];
    const holder = rules.lease.holder();
    return [...rules.presence.list(holder?.counterId ?? null)];
  };

  const status = (): HubStatus => ({
    mode,
    role: options.role,
    counterId: me.counterId,
    counterName: me.counterName,
    since,
    intakeHolder: mode === 'connected' ? (rules?.lease.holder() ?? null) : null,
    counters: counters(),
    server: options.server?.() ?? null,
    problem: mode === 'connected' ? null : problem,
  });

  const live = (): Rules | null => (mode === 'connected' ? rules : null);

  // Until the hub answers (or is found away), nobody here polls: another counter may hold the lease.
  decideIntake();
  armAway();
  void attempt();

  return {
    status,
    async claim(orderId, claimOptions = {}): Promise<ClaimOutcome> {
      const r = live();
      if (!r) return { kind: 'unchecked' };
      return r.claims.claim(orderId, claimOptions);
    },
    async renew(orderId) {
      await live()?.claims.renew(orderId);
    },
    async release(orderId) {
      await live()?.claims.release(orderId);
    },
    claimOf(orderId): Claim | null {
      return live()?.claims.claimOf(orderId) ?? null;
    },
    tapsOf(orderId): readonly SharedTap[] {
      return rules?.taps.tapsOf(orderId) ?? [];
    },
    publishTap(tap) {
      // A write while the hub is away is not replayed by NATS: the outbox keeps the tap, and it is
      // republished from ownTaps() when the hub is back.
      const r = live();
      if (r) void r.taps.publish(tap).catch((e: unknown) => log.warn('a tap could not be shown to other counters yet', { error: e }));
    },
    publishOrders(orderIds) {
      const r = live();
      if (!r) {
        for (const id of orderIds) unpublished.add(id);
        return;
      }
      void r.orders.publish(orderIds).catch((e: unknown) => {
        for (const id of orderIds) unpublished.add(id);
        log.warn('orders could not be put into the hub yet', { error: e });
      });
    },
    // Made while the hub is away: merged again from this counter's SQLite when it is back (hubBack).
    shareStaff(member) {
      live()?.records?.shareStaff(member);
    },
    shareTaught(code) {
      live()?.records?.shareTaught(code);
    },
    shareShiftTap(tap) {
      live()?.records?.shareShiftTap(tap);
    },
    shareStoreSettings(patch) {
      // Kept while the hub is away: put when it is back (hubBack); before the hub first answered, when it does.
      if (rules?.settings) rules.settings.changed(patch);
      else Object.assign(settingsMeanwhile, patch);
    },
    shareAlarm(alarm) {
      rules?.alarms.share(alarm);
    },
    alarmElsewhere(orderId) {
      return rules?.alarms.elsewhere(orderId) ?? null;
    },
    settleConflict(record) {
      // While the hub is away the record stays unshared in the file and goes when it is back (hubBack).
      const r = live();
      if (r?.conflicts) void r.conflicts.settled(record);
      else tell({ kind: 'conflict', orderIds: [record.orderId] });
    },
    overConnection(use) {
      const c = connection;
      return live() && c ? use(c) : null;
    },
    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      if (closed) return;
      closed = true;
      disarmAway();
      if (retryTimer !== null) timers.clearTimeout(retryTimer);
      await opening?.catch(() => undefined);
      for (const u of unsubscribes.splice(0)) u();
      const r = rules;
      rules = null;
      if (r) {
        // The lease first, so another counter takes in orders at once.
        await r.lease.close().catch(() => undefined);
        r.presence.close();
        r.stopNorth();
        r.taps.close();
        r.records?.close();
        r.conflicts?.close();
        r.settings?.close();
        r.alarms.close();
        r.claims.close();
        await r.orders.close();
      }
      await connection?.close().catch(() => undefined);
      connection = null;
      listeners.clear();
    },
  };
}
