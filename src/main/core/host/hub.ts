/**
 * The store hub as the host runs it: on the hub PC the hub process (supervised), on every member
 * counter a session bound to the running engine (rebound when the engine is replaced: a switch of
 * environment, a damaged file). It lays the hub's word over order views (other counters' unsent
 * taps, claims), claims an order before this counter's first tap on it, shows this counter's taps
 * to the others, puts what this counter's intake stored into the hub, and answers Settings ->
 * Counters. A counter without a hub behaves exactly as before: every call here is then a no-op.
 */
import type { Environment, HubJoin, OrderSummary, OrderView, ShiftReport } from '../../../shared/ipc';
import { summarize } from '../../../shared/orders';
import { dayBounds } from '../../../shared/days';
import type { Claim, HubStatus } from '../../../shared/hub';
import type { ActionInput } from '../../../shared/protocol';
import { claimBeforeTap } from './hub-claims';
import { fail, ok, type Result } from '../../../shared/result';
import type { Engine, IntakeEvent, ServiceEngine } from '../engine';
import { shiftTapOf } from '../engine/shared-records';
import { type StaffSharing, storeSaltOf } from '../staff';
import type { TaughtCodesSharing } from '../packing';
import { intakeCounterPorts } from '../engine/hub-counter';
import { ownTaps, presenceFigures, sharedTapOf } from '../engine/hub-counter-taps';
import { connectHub } from '../hub/nats/connection';
import { counterIdOf, loadHubConfig, type HubConfig } from '../hub/hub-config';
import { createHub, DEFAULT_HUB_PORT, freeLocalPort, joinCodeOf, joinHub, leaveHub, localTargetOf, type MembershipPlace } from '../hub/membership';
import type { CounterIdentity, HubSession } from '../hub/ports';
import { type HubSecretStore, type HubSupervisor, keychainHubSecrets, memoryHubSecrets, prepareHubServer } from '../hub/server';
import { startHubSession } from '../hub/session';
import { openOrdersOf } from '../hub/chain/open-orders';
import { storeSummary } from '../hub/chain/store-summary';
import { withHub } from '../hub/views';
import type { Logger } from '../log';
import { every, systemTimers } from '../time';
import type { HostListener } from './events';
import { oneAtATime } from '../serial';
import { type ChainStatus, NO_CHAIN } from '../../../shared/chain';
import { removeChainLink, saveChainLink, savedChainLink } from '../hub/chain/files';
import { type ChainMonitor, startChainMonitor } from '../hub/chain/monitor';
import { putChainState, readChainState } from '../hub/chain/shared-state';
import { configuredPasswordHash, hashSecret, hubFiles, writeHubConfig } from '../hub/server/hub-files';
import { KEEPER_INBOX_PREFIX, KEEPER_USER } from '../hub/server/accounts';
import { newKeeperPassword, startChainKeeper } from '../hub/chain/keeper';
import { visitHub } from '../hub/snapshot';
import { diskLook, storageWarnings } from './storage-warnings';
import { conflictPorts, settleConflict, withConflict } from './hub-conflicts';
import { bindStoreWord, type StoreSettingsPort, storeWordPorts, withAlarmElsewhere } from './hub-store-word';
import type { StoreSettingValues } from '../hub/store-settings';
import type { TapHubContext } from '../outbox';

export { CLAIM_PATIENCE_MS } from './hub-claims';

export interface HubLinkDeps {
  readonly terminalId: string;
  readonly version: string;
  readonly emit: HostListener;
  readonly log: Logger;
  readonly now: () => number;
  /** `PACKDESK_NATS_SERVER`, when set. */
  readonly explicitProgram?: string;
  /** The installed app's resources folder (Electron's process.resourcesPath), when packaged. */
  readonly resourcesPath?: string;
  /** A claim's quiet period (settings). */
  readonly claimQuietMs?: () => number;
  /**
   * The queue's rows, kept by the host while nothing changes (queueRows.ts): what the hub reads of
   * every order (which have bodies, the store's summary) without listing them again each time.
   * Absent (`packdesk run`, no queue): listed from the engine when asked.
   */
  readonly rows?: () => readonly OrderSummary[];
  /** Where the store's secret is kept, by environment (default: the keychain; training hubs in memory for the run). */
  readonly secrets?: (environment: Environment) => HubSecretStore;
  /** This counter's settings, for those that are the store's (scan to pack, claims' quiet period); absent: not shared. */
  readonly storeSettings?: StoreSettingsPort;
  /** Tests: how soon a silent hub counts as away, and the lease's timing. */
  readonly tuning?: { readonly awayAfterMs?: number; readonly lease?: { readonly leaseMs?: number; readonly renewMs?: number } };
}

/** Where the running engine is: the hub belongs to its environment's data folder. */
export interface EnginePlace {
  readonly environment: Environment;
  readonly dataDir: string;
}

export interface HubLink {
  /** An engine started: start the hub (on the hub PC) and this counter's session over it. */
  attach(service: ServiceEngine, place: EnginePlace): void;
  /** The engine is closing: close the session (handing the lease over) and stop the hub process. */
  detach(): Promise<void>;
  status(): HubStatus;
  /** An order view with the hub's word laid over it. */
  decorate(view: OrderView): OrderView;
  /**
   * Before this counter's tap on an order: claims it; refused in words when another counter has it.
   * With a hub, what the tap's record keeps: whether other counters could be checked (null: no hub).
   */
  beforeTap(orderId: string, input: ActionInput): Promise<Result<TapHubContext | null>>;
  /** A person settled who keeps an order packed twice while the counters were apart. */
  settleConflict(orderId: string, keeperId: string): Result<true>;
  /** A person at a counter that did not keep an order packed twice put its items back. */
  putBack(orderId: string): Result<true>;
  /** A manager changed settings here: those that are the store's go to every counter. */
  storeSettingsChanged(patch: Partial<StoreSettingValues>): void;
  takeOver(orderId: string): Promise<Result<Claim>>;
  create(name: string | null, listen?: string): Promise<Result<HubJoin>>;
  joinCode(): Promise<Result<HubJoin>>;
  join(code: string, name: string | null): Promise<Result<HubStatus>>;
  leave(): Promise<Result<true>>;
  /** Settings -> Chain: the link to the chain's centre as this PC knows it (the hub PC's own, or what the hub says). */
  chainStatus(): Promise<ChainStatus>;
  /** Links the store hub to the chain (on the hub PC only): files written, the hub's server restarted. */
  linkChain(request: unknown): Promise<Result<ChainStatus>>;
  /** Unlinks the store hub: the link's files removed, the hub's server restarted without it. */
  unlinkChain(): Promise<Result<ChainStatus>>;
  /**
   * The engine's ports for the staff list and taught barcodes (given to it when it is made, before
   * any hub is bound): what a manager or packer changes here goes to the other counters while the
   * hub answers, and is merged again from SQLite when it comes back.
   */
  readonly sharing: { readonly staffSharing: StaffSharing; readonly taughtSharing: TaughtCodesSharing };
  /** A day's shift as the Shift screen shows it: the store's, saying since when other counters' taps may be missing. */
  shift(engine: Engine, day: string): ShiftReport;
}

/** The engine the hub is bound to. */
interface Engaged {
  readonly service: ServiceEngine;
  readonly place: EnginePlace;
  readonly secrets: HubSecretStore;
}

/** This PC's part in a hub while an engine runs: absent for a one-counter store. */
interface Member {
  readonly config: HubConfig;
  readonly session: HubSession;
  readonly supervisor: HubSupervisor | null;
  /** On the hub PC of a store in a chain: the leaf link watched. */
  readonly chain: ChainMonitor | null;
  readonly unsubscribes: (() => void)[];
}

/** The hub process's health, read when the status is. */
function serverHealth(supervisor: HubSupervisor): () => HubStatus['server'] {
  return () => supervisor.status();
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

const SOLO: HubStatus = { mode: 'solo', role: 'none', counterId: null, counterName: null, since: null, intakeHolder: null, counters: [], server: null, problem: null };

export function createHubLink(deps: HubLinkDeps): HubLink {
  const log = deps.log.child('hub');
  let engaged: Engaged | null = null;
  let member: Member | null = null;
  /** Why the hub settings could not be read, shown on the Counters screen. */
  let configProblem: string | null = null;
  /** Secrets of training hubs live as long as the run (training starts fresh each time, its hub too). */
  const trainingSecrets = memoryHubSecrets();
  /** Binding and unbinding run one at a time. */
  const serially = oneAtATime();

  const secretsFor = (environment: Environment): HubSecretStore =>
    deps.secrets ? deps.secrets(environment) : environment === 'training' ? trainingSecrets : keychainHubSecrets({ environment });
  const placeOf = (e: Engaged): MembershipPlace => ({
    dataDir: e.place.dataDir,
    terminalId: deps.terminalId,
    secrets: e.secrets,
    explicitProgram: deps.explicitProgram,
    resourcesPath: deps.resourcesPath,
  });

  const status = (): HubStatus => member?.session.status() ?? { ...SOLO, problem: configProblem };

  function decorate(view: OrderView): OrderView {
    const shown = member ? withAlarmElsewhere(withHub(view, member.session, member.config.counterId, deps.now()), member.session) : view;
    return withConflict(shown, engaged?.service.engine ?? null, counterIdOf(deps.terminalId));
  }

  const emitOrders = (orderIds: Iterable<string>): void => {
    const engine = engaged?.service.engine;
    if (!engine) return;
    const views = [...new Set(orderIds)].map((id) => engine.getOrder(id)).filter((v): v is OrderView => v !== null).map(decorate);
    if (views.length > 0) deps.emit('orders.changed', { orders: views });
  };

  /** Starts this PC's part in its hub, when it has one, over the engaged engine. */
  const join = async (e: Engaged): Promise<void> => {
    const read = loadHubConfig(e.place.dataDir);
    configProblem = read.ok ? null : read.message;
    if (!read.ok) log.error('hub settings unreadable; this counter works on its own', { problem: read.message });
    if (!read.ok || read.config === null) {
      e.service.intake.resume();
      return;
    }
    const config = read.config;
    let supervisor: HubSupervisor | null = null;
    let chain: ChainMonitor | null = null;
    const chainStops: (() => void)[] = [];
    if (config.role === 'hub' && config.listen) {
      const files = hubFiles(e.place.dataDir);
      const saved = savedChainLink(files);
      // In a chain: a monitoring port on 127.0.0.1, chosen afresh each start (a fixed one could be taken and stop the hub).
      const monitorPort = saved.link ? await freeLocalPort() : null;
      // The keeper of the chain's account logs in with a password made for this run alone.
      const keeperPassword = saved.link ? newKeeperPassword() : null;
      const hash = configuredPasswordHash(files);
      // Written afresh at every start: a hub made by an older Packdesk gets its accounts here (its buckets move at the server's start).
      if (hash) writeHubConfig(files, config.listen, hash, saved.link, monitorPort, keeperPassword ? hashSecret(keeperPassword) : null);
      const prepared = await prepareHubServer({ dataDir: e.place.dataDir, listen: config.listen, explicitProgram: deps.explicitProgram, resourcesPath: deps.resourcesPath, logger: log });
      if (prepared.ok) {
        const server = prepared.supervisor;
        supervisor = server;
        const publish = (state: ChainStatus): void => {
          // Every counter reads the link's state from the hub; a hub not up yet is told at the next change or look.
          // Over this PC's own session once it answers (as chainStatus reads), else a visit of its own.
          const put = member?.session.overConnection((c) => putChainState(c.nc, state));
          if (put) void put.catch((error: unknown) => log.warn('chain state not put in the hub', { error }));
          else void visitHub(config, e.secrets, 'chain', (c) => putChainState(c.nc, state)).then((v) => !v.ok && log.warn('chain state not put in the hub', { problem: v.problem.message }));
        };
        if (saved.link && monitorPort !== null) {
          const monitor = startChainMonitor({ link: saved.link, monitorPort, lines: (l) => server.onLine(l), now: deps.now, timers: systemTimers, problem: saved.problem });
          chain = monitor;
          chainStops.push(
            monitor.onChange((state) => {
              log.info('chain link', { state: state.state, centre: state.centre, refusedBy: state.refusedBy, detail: state.detail });
              publish(state);
            }),
            every(systemTimers, 30_000, () => publish(monitor.status())),
            () => monitor.stop(),
          );
        }
        const chainNow = (): ChainStatus => chain?.status() ?? { ...NO_CHAIN, role: 'hub', problem: saved.problem };
        const link = saved.link;
        if (link && keeperPassword) {
          const keeper = startChainKeeper({
            storeId: link.storeId,
            connect: () => connectHub(localTargetOf(config, keeperPassword), { name: 'chain keeper', user: KEEPER_USER, inboxPrefix: KEEPER_INBOX_PREFIX }),
            timers: systemTimers,
            log,
          });
          chainStops.push(() => void keeper.stop());
        }
        // The session connects in the background and tries again until the process is up.
        void server.start().then((health) => {
          if (health.problem) log.error('the store hub could not start', { problem: health.problem });
          else publish(chainNow());
        });
      } else log.error('the store hub program cannot run here', { problem: prepared.message });
    }
    const me: CounterIdentity = { counterId: config.counterId, counterName: config.counterName, version: deps.version };
    const { service } = e;
    const engine = service.engine;
    const rows = deps.rows ?? ((): OrderSummary[] => engine.listOrders().map(summarize));
    const disk = diskLook(e.place.dataDir, deps.now);
    const word = storeWordPorts(deps.storeSettings, rows, me);
    const session = startHubSession({
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
      ...(supervisor ? { server: serverHealth(supervisor) } : {}),
      now: deps.now,
      timers: systemTimers,
      log,
      serviceNow: () => deps.now() - (service.clock.skewMs() ?? 0),
      ...(deps.claimQuietMs ? { claimQuietMs: deps.claimQuietMs } : {}),
      ...(deps.tuning?.awayAfterMs !== undefined ? { awayAfterMs: deps.tuning.awayAfterMs } : {}),
      ...(deps.tuning?.lease ? { lease: deps.tuning.lease } : {}),
      // Sent only when the hub is in a chain (docs/fleet.md).
      north: {
        health: () => {
          const intake = service.intake.status();
          // Intake says a storage failure in words only: a full disk is its one failure that names the disk.
          const failure = engine.storage()?.code ?? (intake.condition === 'storage' ? (/full/i.test(intake.message ?? '') ? 'STORE_FULL' : 'STORE_WRITE') : null);
          return { lastIntakeAt: intake.lastCompleteAt, storageWarnings: storageWarnings({ writeFailure: failure, ...disk() }) };
        },
        // Looked at every second for a change: the kept rows, not a listing of every order each time.
        // The hub PC also lists its open orders (ids, steps, claims) for the fleet page's drill-down.
        ...(config.role === 'hub' ? { summary: () => storeSummary(rows(), deps.now()), openOrders: () => openOrdersOf(rows(), (id) => session.claimOf(id), deps.now()) } : {}),
      },
    });
    engine.setCounterName(config.counterName);
    const unsubscribes: (() => void)[] = [
      ...chainStops,
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
    member = { config, session, supervisor, chain, unsubscribes };
    deps.emit('hub.status', session.status());
  };

  /** Ends this PC's part in the hub: the lease handed over first, then the hub process stopped. */
  const part = async (): Promise<void> => {
    const m = member;
    member = null;
    if (!m) return;
    for (const u of m.unsubscribes) u();
    await m.session.close();
    await m.supervisor?.stop();
  };

  /** Membership changed while the engine runs: part, then join again as the files now say. */
  const rejoin = (): Promise<void> =>
    serially(async () => {
      await part();
      if (engaged) await join(engaged);
      deps.emit('hub.status', status());
    });

  const noEngine = (): Result<never> => fail('transient', 'The terminal is starting; try again in a moment.', 'ENGINE_UNAVAILABLE');

  return {
    attach(service, place) {
      const e: Engaged = { service, place, secrets: secretsFor(place.environment) };
      engaged = e;
      // Before intake's first pass: a member counter polls only when the hub's rules say so.
      const read = loadHubConfig(place.dataDir);
      if (!read.ok || read.config !== null) service.intake.pause();
      void serially(() => join(e)).catch((err: unknown) => {
        log.error('the store hub could not be started with this engine; this counter works on its own', { error: err });
        service.intake.resume();
      });
    },
    detach: () =>
      serially(async () => {
        await part();
        engaged = null;
      }),
    status,
    decorate,
    async beforeTap(orderId, input) {
      const m = member;
      return m ? claimBeforeTap(m.session, m.config.counterId, engaged?.service.engine.staff.packerName() ?? null, orderId, input) : ok(null);
    },
    settleConflict(orderId, keeperId) {
      const me = { counterId: counterIdOf(deps.terminalId), counterName: member?.config.counterName ?? null };
      const result = settleConflict(engaged?.service.engine ?? null, member?.session ?? null, me, { orderId, keeperId }, log);
      if (result.ok) emitOrders([orderId]);
      return result;
    },
    putBack(orderId) {
      const engine = engaged?.service.engine;
      if (!engine) return noEngine();
      const done = engine.conflicts.putBack(orderId);
      if (done.ok) emitOrders([orderId]);
      return done;
    },
    storeSettingsChanged(patch) {
      if (Object.keys(patch).length > 0) member?.session.shareStoreSettings(patch);
    },
    async takeOver(orderId) {
      const m = member;
      if (!m) return fail('invalid', 'This counter is not part of a store hub.', 'HUB_NONE');
      const outcome = await m.session.claim(orderId, { takeOver: true, packer: engaged?.service.engine.staff.packerName() ?? null });
      if (outcome.kind === 'held') {
        log.info('order taken over from another counter', { orderId });
        emitOrders([orderId]);
        return ok(outcome.claim);
      }
      if (outcome.kind === 'taken') return fail('invalid', `${outcome.by.counterName} took order ${orderId} at the same moment; try again.`, 'CLAIMED_ELSEWHERE', { orderId, counter: outcome.by.counterName });
      return fail('transient', 'The store hub cannot be reached, so the order cannot be taken over now. Make sure nobody else is packing it.', 'HUB_AWAY');
    },
    async create(name, listen) {
      const e = engaged;
      if (!e) return noEngine();
      // Training: a hub for this PC alone (try it on one PC); elsewhere every interface of the store's network.
      const address = listen ?? (e.place.environment === 'training' ? `127.0.0.1:${await freeLocalPort()}` : `0.0.0.0:${DEFAULT_HUB_PORT}`);
      const made = await createHub(placeOf(e), { listen: address, name });
      if (!made.ok) return made;
      log.info('this PC is the store hub now', { listen: made.value.config.listen });
      await rejoin();
      return ok(made.value.join);
    },
    async joinCode() {
      const e = engaged;
      return e ? joinCodeOf(placeOf(e)) : noEngine();
    },
    async join(code, name) {
      const e = engaged;
      if (!e) return noEngine();
      const joined = await joinHub(placeOf(e), { code, name });
      if (!joined.ok) return joined;
      log.info('joined the store hub', { counterName: joined.value.counterName });
      await rejoin();
      return ok(status());
    },
    sharing: {
      // Every counter of the hub makes PINs with one salt, so a sign-in derives once (core/staff).
      staffSharing: { changed: (m) => member?.session.shareStaff(m), storeSalt: () => (member ? storeSaltOf(member.config.fingerprint) : null) },
      taughtSharing: { taught: (code) => member?.session.shareTaught(code) },
    },
    shift(engine, day) {
      const report = engine.shift(day);
      const m = member;
      if (!m) return report;
      const s = m.session.status();
      const { from, to } = dayBounds(day);
      const packedTwice = engine.conflicts.raisedBetween(from, to).length;
      return { ...report, hub: { missingSince: s.mode === 'connected' ? null : (s.since ?? null), packedTwice } };
    },
    async leave() {
      const e = engaged;
      if (!e) return noEngine();
      // The session first: the lease handed over, the hub process stopped.
      await serially(part);
      const left = await leaveHub(placeOf(e));
      await rejoin();
      if (!left.ok) return left;
      log.info('left the store hub', { was: left.value.was });
      return ok(true);
    },
    async chainStatus() {
      const e = engaged;
      const m = member;
      if (!e || !m) return NO_CHAIN;
      if (m.config.role === 'hub') return m.chain?.status() ?? { ...NO_CHAIN, role: 'hub', problem: savedChainLink(hubFiles(e.place.dataDir)).problem };
      // The session's own connection while the hub answers (the panel looks every 2 s); else a visit, which says why not.
      const read = m.session.overConnection((c) => readChainState(c.nc));
      if (read) return { ...((await read) ?? NO_CHAIN), role: 'counter' };
      const visit = await visitHub(m.config, e.secrets, 'chain', (c) => readChainState(c.nc));
      if (!visit.ok) return { ...NO_CHAIN, role: 'counter', problem: visit.problem.message };
      return { ...(visit.value ?? NO_CHAIN), role: 'counter' };
    },
    async linkChain(request) {
      const e = engaged;
      if (!e) return noEngine();
      if (member?.config.role !== 'hub') return fail('invalid', 'Only the store hub PC links to the chain.', 'CHAIN_NOT_HUB');
      const saved = saveChainLink(hubFiles(e.place.dataDir), request, e.place.environment === 'training');
      if (!saved.ok) return saved;
      // Never the credentials: the store, the centre and whether files were given.
      log.info('store hub linked to the chain; restarting the hub with the leaf link', { storeId: saved.value.storeId, centre: saved.value.url, withCredentials: saved.value.credentialsPath !== null, withCa: saved.value.caPath !== null });
      await rejoin();
      return ok(await this.chainStatus());
    },
    async unlinkChain() {
      const e = engaged;
      if (!e) return noEngine();
      if (member?.config.role !== 'hub') return fail('invalid', 'Only the store hub PC links to the chain.', 'CHAIN_NOT_HUB');
      removeChainLink(hubFiles(e.place.dataDir));
      log.info('store hub unlinked from the chain; restarting the hub without the leaf link');
      await rejoin();
      return ok(await this.chainStatus());
    },
  };
}
