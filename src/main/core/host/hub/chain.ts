/**
 * The hub PC's side of the store hub and the chain, as the host runs them: the hub process
 * (supervised), the leaf link to the chain's centre watched and its state put in the hub for every
 * counter, the keeper of the chain's streams; what each counter sends north (its health, and on the
 * hub PC the store's summary and open orders); and Settings -> Chain (its status, link, unlink).
 */
import { type ChainStatus, NO_CHAIN } from '../../../../shared/chain';
import type { OrderSummary } from '../../../../shared/ipc';
import { fail, ok, type Result } from '../../../../shared/result';
import type { NorthOptions } from '../../hub/chain/counter-north';
import { removeChainLink, saveChainLink, savedChainLink } from '../../hub/chain/files';
import { newKeeperPassword, startChainKeeper } from '../../hub/chain/keeper';
import { type ChainMonitor, startChainMonitor } from '../../hub/chain/monitor';
import { openOrdersOf } from '../../hub/chain/open-orders';
import { putChainState, readChainState } from '../../hub/chain/shared-state';
import { storeSummary } from '../../hub/chain/store-summary';
import type { HubConfig } from '../../hub/hub-config';
import { freeLocalPort, localTargetOf } from '../../hub/membership';
import { connectHub } from '../../hub/nats/connection';
import type { HubSession } from '../../hub/ports';
import { type HubSupervisor, prepareHubServer } from '../../hub/server';
import { KEEPER_INBOX_PREFIX, KEEPER_USER } from '../../hub/server/accounts';
import { configuredPasswordHash, hashSecret, hubFiles, writeHubConfig } from '../../hub/server/hub-files';
import { visitHub } from '../../hub/snapshot';
import { every, systemTimers } from '../../time';
import { diskLook, storageWarnings } from '../storage-warnings';
import { type Engaged, type LinkContext, noEngine } from './types';

/** The hub PC's process and chain link while it runs; nothing (all null) on a member counter. */
export interface HubPc {
  readonly supervisor: HubSupervisor | null;
  /** On the hub PC of a store in a chain: the leaf link watched. */
  readonly chain: ChainMonitor | null;
  /** What stops the chain's watching, publishing and keeper. */
  readonly stops: (() => void)[];
}

/** On the hub PC: starts the hub process (in the background) and, in a chain, watches the leaf link and keeps its streams. */
export async function startHubPc(ctx: LinkContext, config: HubConfig, e: Engaged): Promise<HubPc> {
  const { deps, log } = ctx;
  const stops: (() => void)[] = [];
  if (config.role !== 'hub' || !config.listen) return { supervisor: null, chain: null, stops };
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
  if (!prepared.ok) {
    log.error('the store hub program cannot run here', { problem: prepared.message });
    return { supervisor: null, chain: null, stops };
  }
  const server = prepared.supervisor;
  let chain: ChainMonitor | null = null;
  const publish = (state: ChainStatus): void => {
    // Every counter reads the link's state from the hub; a hub not up yet is told at the next change or look.
    // Over this PC's own session once it answers (as chainStatus reads), else a visit of its own.
    const put = ctx.member()?.session.overConnection((c) => putChainState(c.nc, state));
    if (put) void put.catch((error: unknown) => log.warn('chain state not put in the hub', { error }));
    else void visitHub(config, e.secrets, 'chain', (c) => putChainState(c.nc, state)).then((v) => !v.ok && log.warn('chain state not put in the hub', { problem: v.problem.message }));
  };
  if (saved.link && monitorPort !== null) {
    const monitor = startChainMonitor({ link: saved.link, monitorPort, lines: (l) => server.onLine(l), now: deps.now, timers: systemTimers, problem: saved.problem });
    chain = monitor;
    stops.push(
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
    stops.push(() => void keeper.stop());
  }
  // The session connects in the background and tries again until the process is up.
  void server.start().then((health) => {
    if (health.problem) log.error('the store hub could not start', { problem: health.problem });
    else publish(chainNow());
  });
  return { supervisor: server, chain, stops };
}

/** What this counter sends north (only when the hub is in a chain: docs/fleet.md). */
export function northOf(
  ctx: LinkContext,
  config: HubConfig,
  e: Engaged,
  rows: () => readonly OrderSummary[],
  session: () => HubSession,
): NorthOptions {
  const { service } = e;
  const { engine } = service;
  const disk = diskLook(e.place.dataDir, ctx.deps.now);
  return {
    health: () => {
      const intake = service.intake.status();
      // Intake says a storage failure in words only: a full disk is its one failure that names the disk.
      const failure = engine.storage()?.code ?? (intake.condition === 'storage' ? (/full/i.test(intake.message ?? '') ? 'STORE_FULL' : 'STORE_WRITE') : null);
      return { lastIntakeAt: intake.lastCompleteAt, storageWarnings: storageWarnings({ writeFailure: failure, ...disk() }) };
    },
    // Looked at every second for a change: the kept rows, not a listing of every order each time.
    // The hub PC also lists its open orders (ids, steps, claims) for the fleet page's drill-down.
    ...(config.role === 'hub'
      ? { summary: () => storeSummary(rows(), ctx.deps.now()), openOrders: () => openOrdersOf(rows(), (id) => session().claimOf(id), ctx.deps.now()) }
      : {}),
  };
}

/** Settings -> Chain: the link's status as this PC knows it, and linking or unlinking the hub PC. */
export function chainCommands(ctx: LinkContext): { chainStatus(): Promise<ChainStatus>; linkChain(request: unknown): Promise<Result<ChainStatus>>; unlinkChain(): Promise<Result<ChainStatus>> } {
  const { log } = ctx;
  const chainStatus = async (): Promise<ChainStatus> => {
    const e = ctx.engaged();
    const m = ctx.member();
    if (!e || !m) return NO_CHAIN;
    if (m.config.role === 'hub') return m.chain?.status() ?? { ...NO_CHAIN, role: 'hub', problem: savedChainLink(hubFiles(e.place.dataDir)).problem };
    // The session's own connection while the hub answers (the panel looks every 2 s); else a visit, which says why not.
    const read = m.session.overConnection((c) => readChainState(c.nc));
    if (read) return { ...((await read) ?? NO_CHAIN), role: 'counter' };
    const visit = await visitHub(m.config, e.secrets, 'chain', (c) => readChainState(c.nc));
    if (!visit.ok) return { ...NO_CHAIN, role: 'counter', problem: visit.problem.message };
    return { ...(visit.value ?? NO_CHAIN), role: 'counter' };
  };
  return {
    chainStatus,
    async linkChain(request) {
      const e = ctx.engaged();
      if (!e) return noEngine();
      if (ctx.member()?.config.role !== 'hub') return fail('invalid', 'Only the store hub PC links to the chain.', 'CHAIN_NOT_HUB');
      const saved = saveChainLink(hubFiles(e.place.dataDir), request, e.place.environment === 'training');
      if (!saved.ok) return saved;
      // Never the credentials: the store, the centre and whether files were given.
      log.info('store hub linked to the chain; restarting the hub with the leaf link', { storeId: saved.value.storeId, centre: saved.value.url, withCredentials: saved.value.credentialsPath !== null, withCa: saved.value.caPath !== null });
      await ctx.rejoin();
      return ok(await chainStatus());
    },
    async unlinkChain() {
      const e = ctx.engaged();
      if (!e) return noEngine();
      if (ctx.member()?.config.role !== 'hub') return fail('invalid', 'Only the store hub PC links to the chain.', 'CHAIN_NOT_HUB');
      removeChainLink(hubFiles(e.place.dataDir));
      log.info('store hub unlinked from the chain; restarting the hub without the leaf link');
      await ctx.rejoin();
      return ok(await chainStatus());
    },
  };
}
