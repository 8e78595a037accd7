/**
 * The store hub as the host runs it: on the hub PC the hub process (supervised), on every member
 * counter a session bound to the running engine (rebound when the engine is replaced: a switch of
 * environment, a damaged file). This file is the link: binding to an engine and letting go, one step
 * at a time, and what the screens ask of the hub through it. Its parts: the member's session
 * (session.ts), the hub PC and the chain (chain.ts), Settings -> Counters (membership.ts), claims
 * before a tap (claims.ts), packed twice (conflicts.ts), the store's word (store-word.ts), and the
 * hub's facts laid over order views (overlay.ts). A counter without a hub behaves exactly as before:
 * every call here is then a no-op.
 */
import type { Environment, OrderView } from '../../../../shared/ipc';
import type { HubStatus } from '../../../../shared/hub';
import { dayBounds } from '../../../../shared/days';
import { fail, ok } from '../../../../shared/result';
import { counterIdOf, loadHubConfig } from '../../hub/hub-config';
import type { MembershipPlace } from '../../hub/membership';
import { type HubSecretStore, keychainHubSecrets, memoryHubSecrets } from '../../hub/server';
import { oneAtATime } from '../../serial';
import { storeSaltOf } from '../../staff';
import { chainCommands, startHubPc } from './chain';
import { claimBeforeTap } from './claims';
import { settleConflict } from './conflicts';
import { membershipCommands } from './membership';
import { overlayHubFacts, overlayWord } from './overlay';
import { startMemberSession } from './session';
import { type Engaged, type HubLink, type HubLinkDeps, type LinkContext, type Member, noEngine } from './types';

export { CLAIM_PATIENCE_MS } from './claims';
export type { EnginePlace, HubLink, HubLinkDeps } from './types';

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

  /** The one read path of the hub's facts over a view (overlay.ts), with the facts as they are now. */
  function decorate(view: OrderView): OrderView {
    return overlayHubFacts(view, {
      member: member ? { session: member.session, counterId: member.config.counterId } : null,
      engine: engaged?.service.engine ?? null,
      counterId: counterIdOf(deps.terminalId),
      now: deps.now(),
    });
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
    const pc = await startHubPc(ctx, config, e);
    const { session, unsubscribes } = startMemberSession(ctx, config, e, pc, { decorate, emitOrders });
    member = { config, session, supervisor: pc.supervisor, chain: pc.chain, unsubscribes };
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

  const ctx: LinkContext = {
    deps,
    log,
    engaged: () => engaged,
    member: () => member,
    status,
    placeOf,
    partSerially: () => serially(part),
    rejoin,
  };
  const membership = membershipCommands(ctx);
  const chain = chainCommands(ctx);

  return {
    ...membership,
    ...chain,
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
    overlayWord: () => overlayWord(status()),
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
  };
}
