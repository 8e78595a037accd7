/**
 * A store for the hub's proofs and benchmarks: one training sandbox over HTTP, a real hub
 * (nats-server with TLS and the store's secret, its supervisor in the test's hands, so a test can
 * SIGKILL it and hold its restart back), and N real app hosts (their own SQLite files, engines,
 * outboxes and hub sessions), each joined to the hub by its join code as a manager would.
 */
import type { Sandbox, SandboxOptions } from '../../../../sandbox';
import { startSandbox } from '../../../../sandbox';
import type { FaultsPatch } from '../../../../sandbox/faults';
import { formatJoinCode } from '../../../../src/main/core/hub/join-code';
import type { HubMode } from '../../../../src/shared/hub';
import type { OrderView, OutboxEntryView, Settings } from '../../../../src/shared/ipc';
import type { ActionInput } from '../../../../src/shared/protocol';
import { Cleanup } from '../../../support/engine';
import { startTestHost, type TestHost } from '../../../support/host';
import { makeTestHub, type TestHub } from './hub-fixture';
import { timeUntil } from '../../../support/until';

export interface StoreCounter {
  readonly name: string;
  readonly t: TestHost;
  /** Every order view this counter's host told its screens of (orders.changed), in order. */
  readonly shown: OrderView[];
}

export interface StoreOnHub {
  readonly sandbox: Sandbox;
  readonly hub: TestHub;
  readonly counters: readonly StoreCounter[];
  close(): Promise<void>;
}

export interface StoreOptions {
  readonly counters: number;
  readonly sandboxOptions?: SandboxOptions;
  /** The hub process's restart pause (default: as the product's, 0.5 s doubling). */
  readonly hubBackoff?: { readonly initialMs: number; readonly maxMs: number };
  readonly awayAfterMs?: number;
  readonly settings?: Partial<Settings>;
}

/** Starts the sandbox, the hub, and each counter joined to it; resolves once all are connected and one polls. */
export async function startStoreOnHub(options: StoreOptions): Promise<StoreOnHub> {
  const cleanup = new Cleanup();
  try {
    const sandbox = await startSandbox({ orderCount: 12, arrivalEveryMs: 0, changesMinIntervalMs: 0, ...options.sandboxOptions });
    cleanup.add(() => sandbox.close());
    const hub = await makeTestHub({ supervisor: options.hubBackoff ? { backoff: options.hubBackoff } : {} });
    cleanup.add(() => hub.dispose());
    const code = formatJoinCode({ host: '127.0.0.1', port: hub.port, secret: hub.secret, fingerprint: hub.fingerprint });
    const counters: StoreCounter[] = [];
    for (let n = 1; n <= options.counters; n++) {
      const t = await startTestHost({
        startTraining: async () => Object.create(sandbox, { close: { value: async (): Promise<void> => undefined } }) as Sandbox,
        settingsOverride: { environment: 'training', undoWindowMs: 0, intakeIntervalMs: 1_000, ...options.settings },
        hubTuning: { awayAfterMs: options.awayAfterMs ?? 5_000 },
      });
      cleanup.add(() => t.close());
      const shown: OrderView[] = [];
      t.host.subscribe((event, body) => {
        if (event === 'orders.changed') shown.push(...(body as { orders: OrderView[] }).orders);
      });
      const name = `Counter ${n}`;
      const joined = await t.host.hub.join(code, name);
      if (!joined.ok) throw new Error(`${name} could not join: ${joined.problem.message}`);
      counters.push({ name, t, shown });
    }
    await until('every counter connected, one taking in orders', () => counters.every((c) => mode(c) === 'connected') && pollers(counters).length === 1, 20_000);
    const ids = sandbox.orders().map((o) => o.id);
    await until('the seeded orders on every counter', () => counters.every((c) => ids.every((id) => c.t.host.engine()?.getOrder(id)?.order != null)), 30_000);
    return { sandbox, hub, counters, close: () => cleanup.run() };
  } catch (error) {
    await cleanup.run();
    throw error;
  }
}

export const mode = (c: StoreCounter): HubMode => c.t.host.hub.status().mode;

/** The counters whose own intake polls, as each one's hub status says (the lease holder, or every counter while away). */
export function pollers(cs: readonly StoreCounter[]): StoreCounter[] {
  return cs.filter((c) => {
    const s = c.t.host.hub.status();
    return s.mode === 'away' || (s.mode === 'connected' && s.intakeHolder?.counterId === s.counterId);
  });
}

/** The order as this counter's screens get it (the hub's word laid over). */
export async function viewOf(c: StoreCounter, orderId: string): Promise<OrderView | null> {
  return c.t.call('orders.get', { orderId });
}

export async function outboxOf(c: StoreCounter): Promise<OutboxEntryView[]> {
  return c.t.call('outbox.list', {});
}

/**
 * Waits until no counter will send anything more: none has an outbox entry queued or sending, nor
 * a send in its engine's hands (looked at before and after the list). After that the service has
 * had every request the terminals will make for the taps made so far, so what it applied is final.
 */
export async function untilNothingToSend(s: StoreOnHub, timeoutMs = 15_000): Promise<void> {
  const idle = (): boolean => s.counters.every((c) => (c.t.host.engine()?.sendingCount() ?? 0) === 0);
  await until(
    'no counter with a tap queued, sending or in flight',
    async () => idle() && (await Promise.all(s.counters.map(outboxOf))).flat().every((e) => e.state !== 'queued' && e.state !== 'sending') && idle(),
    timeoutMs,
  );
}

/** A packer's Accept on this counter (claims the order first, as the screen's tap does). */
export async function accept(c: StoreCounter, orderId: string): Promise<OutboxEntryView> {
  return c.t.call('taps.submit', { orderId, input: { kind: 'orderState', state: 'ACCEPTED' } });
}

/** Switches the sandbox's faults over HTTP, as support would. */
export async function faults(box: Sandbox, patch: FaultsPatch): Promise<void> {
  const res = await fetch(`${box.adminUrl}/__sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(patch) });
  if (!res.ok) throw new Error(`faults refused: ${res.status} ${await res.text()}`);
}

/** SIGKILLs the hub's nats-server; its supervisor restarts it after its backoff. */
export function killHub(hub: TestHub): void {
  const pid = hub.supervisor.status().pid;
  if (!pid) throw new Error('the hub process is not running');
  process.kill(pid, 'SIGKILL');
}

/** Waits until `check` holds (polling every 20 ms); returns the ms it took. */
export const until = (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<number> => timeUntil(what, check, timeoutMs);

/** The orders still new at the marketplace (Created), by id. */
export const newOrderIds = (s: StoreOnHub): string[] => s.sandbox.orders().filter((o) => o.orderState === 'Created').map((o) => o.id);

/** The order's STORE fulfilment, as the sandbox has it. */
export const storeFulfilmentOf = (s: StoreOnHub, orderId: string): string => s.sandbox.orders().find((o) => o.id === orderId)!.fulfillments.find((f) => f.type === 'STORE')!.fulfillmentId;

/** A packer's tap at this counter (the order claimed first, as the screen's tap does); fails the test when refused. */
export async function tapAt(c: StoreCounter, orderId: string, input: ActionInput): Promise<void> {
  const reply = await c.t.host.handle('taps.submit', { orderId, input });
  if (!reply.ok) throw new Error(`${c.name}: ${reply.problem.message}`);
}

/** Freezes a store's hub (SIGSTOP, as a hub PC that hangs or a switch that drops) and thaws it (SIGCONT); thaw in afterEach too. */
export function hubFreezer(): { freeze(s: StoreOnHub): void; thaw(): void } {
  let frozen: number | null = null;
  return {
    freeze(s) {
      const pid = s.hub.supervisor.status().pid;
      if (!pid) throw new Error('the hub is not running');
      process.kill(pid, 'SIGSTOP');
      frozen = pid;
    },
    thaw() {
      if (frozen !== null) process.kill(frozen, 'SIGCONT');
      frozen = null;
    },
  };
}
