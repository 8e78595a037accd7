/**
 * Test helpers shared by the engine, outbox, sync, CLI and crash tests: temp data folders, the real
 * sandbox on 127.0.0.1 and engines wired to it through the real token manager and client.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox';
import { randomUUID } from 'node:crypto';
import { OrderServiceClient, type UpdateOutcome, type UpdateSender } from '../../src/main/core/api';
import { MemoryVault, TokenManager } from '../../src/main/core/auth';
import { openStore, type Store } from '../../src/main/core/db';
import { openEngineWithService, type ServiceEngine, type ServiceEngineOptions } from '../../src/main/core/engine';
import { type Action, buildUpdateRequest, OrderSchema, type OrderUpdateRequest } from '../../src/shared/protocol';
import type { StatusCheck, StatusCheckResult } from '../../src/main/core/outbox';
import type { Engine } from '../../src/main/core/engine';
import type { OrderView } from '../../src/shared/ipc';
import { TRAINING } from './credentials';


/** Things to undo after a test, run in reverse. */
export class Cleanup {
  private readonly steps: (() => unknown)[] = [];
  add(step: () => unknown): void {
    this.steps.push(step);
  }
  async run(): Promise<void> {
    for (const step of this.steps.splice(0).reverse()) await step();
  }
}

/** A fresh temp folder, removed at cleanup. */
export function tempDir(cleanup: Cleanup, prefix = 'packdesk-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  cleanup.add(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The data file of `dataDir`, opened as the engine opens it (a connection of its own), closed at cleanup. */
export function openedStore(cleanup: Cleanup, dataDir: string, now: () => number = Date.now): Store {
  const opened = openStore({ dataDir, now });
  if (!opened.ok) throw new Error(opened.problem.message);
  cleanup.add(() => opened.value.close());
  return opened.value;
}

/** The real sandbox, closed at cleanup. */
export async function sandbox(cleanup: Cleanup, options: SandboxOptions = {}): Promise<Sandbox> {
  const s = await startSandbox({ orderCount: 40, ...options });
  cleanup.add(() => s.close());
  return s;
}

/** An engine on `dataDir` talking to the sandbox over HTTP with the real token manager and client. */
export function serviceEngine(
  cleanup: Cleanup,
  box: Sandbox,
  dataDir: string,
  options: Partial<ServiceEngineOptions> & { vault?: MemoryVault } = {},
): ServiceEngine & { vault: MemoryVault } {
  const vault = options.vault ?? new MemoryVault({ credentials: TRAINING });
  const built = openEngineWithService({
    dataDir,
    authUrl: box.url,
    baseUrl: box.url,
    vault,
    terminalId: 'T-test',
    undoWindowMs: 0,
    backoff: { baseMs: 20, capMs: 200 },
    requestTimeoutMs: 2000,
    probeTimeoutMs: 500,
    proactiveRefresh: false,
    stopGraceMs: 500,
    ...options,
  });
  cleanup.add(() => built.close());
  return { ...built, vault };
}

/** Sandbox orders still in their first state (not accepted), i.e. the ones a terminal starts with. */
export function newOrderIds(box: Sandbox): string[] {
  return box
    .orders()
    .filter((o) => o.orderState.toUpperCase() === 'CREATED')
    .map((o) => o.id);
}

/** Sandbox orders that are new and have a DELIVERY fulfilment (the full path to DELIVERED). */
export function newDeliveryOrderIds(box: Sandbox): string[] {
  return box
    .orders()
    .filter((o) => o.orderState.toUpperCase() === 'CREATED' && o.fulfillments.some((f) => f.type.toUpperCase() === 'DELIVERY'))
    .map((o) => o.id);
}

/** Accepts `orderId` and drains until the terminal holds the service's answer for it. */
export async function acceptAndLoad(engine: Engine, orderId: string): Promise<OrderView> {
  const tapped = engine.submitTap(orderId, { kind: 'orderState', state: 'ACCEPTED' });
  if (!tapped.ok) throw new Error(tapped.problem.message);
  await engine.drain({ untilEmpty: true, timeoutMs: 10_000 });
  const view = engine.getOrder(orderId);
  if (!view?.order) throw new Error(`order ${orderId} did not load`);
  return view;
}

/** Wraps a real sender to see what the engine does with it (in-flight counts), without changing answers. */
export function watchedSender(inner: UpdateSender): UpdateSender & {
  maxInFlight: number;
  maxPerOrder: number;
  calls: OrderUpdateRequest[];
} {
  const perOrder = new Map<string, number>();
  let inFlight = 0;
  const watched = {
    maxInFlight: 0,
    maxPerOrder: 0,
    calls: [] as OrderUpdateRequest[],
    async update(request: OrderUpdateRequest, signal?: AbortSignal): Promise<UpdateOutcome> {
      watched.calls.push(request);
      inFlight++;
      const n = (perOrder.get(request.orderId) ?? 0) + 1;
      perOrder.set(request.orderId, n);
      watched.maxInFlight = Math.max(watched.maxInFlight, inFlight);
      watched.maxPerOrder = Math.max(watched.maxPerOrder, n);
      try {
        return await inner.update(request, signal);
      } finally {
        inFlight--;
        perOrder.set(request.orderId, (perOrder.get(request.orderId) ?? 1) - 1);
      }
    },
    probe: (signal?: AbortSignal) => inner.probe(signal),
  };
  return watched;
}

/**
 * The marketplace's own systems changing an order behind the terminal's back (a customer cancels
 * online): a separate client of the same sandbox, not a terminal.
 */
export function marketplace(cleanup: Cleanup, box: Sandbox): { apply(orderId: string, action: Action): Promise<UpdateOutcome> } {
  const tokens = new TokenManager({ authUrl: box.url, vault: new MemoryVault({ credentials: TRAINING }), proactive: false });
  cleanup.add(() => tokens.close());
  const client = new OrderServiceClient({ baseUrl: box.url, tokens });
  return {
    async apply(orderId, action) {
      const request = buildUpdateRequest(orderId, randomUUID(), [action]);
      if (!request.ok) throw new Error(request.problem.message);
      return client.update(request.value);
    },
  };
}

/**
 * A StatusCheck that reads the sandbox's order over real HTTP through its admin path on the
 * service port, so an outage of the service makes the check unreachable too, as the real `status`
 * call would be. `calls` lists the order ids asked about.
 */
export function sandboxStatusCheck(box: Sandbox): StatusCheck & { calls: string[] } {
  const calls: string[] = [];
  const check = async (orderId: string, signal?: AbortSignal): Promise<StatusCheckResult> => {
    calls.push(orderId);
    try {
      const res = await fetch(`${box.url}/__sandbox/orders/${encodeURIComponent(orderId)}`, {
        signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(2000)]) : AbortSignal.timeout(2000),
      });
      if (res.status === 404) return { kind: 'unavailable' };
      if (!res.ok) return { kind: 'unreachable' };
      const parsed = OrderSchema.safeParse(await res.json());
      return parsed.success ? { kind: 'order', order: parsed.data } : { kind: 'unreachable' };
    } catch {
      return { kind: 'unreachable' };
    }
  };
  return Object.assign(check, { calls });
}
