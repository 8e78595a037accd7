/**
 * The crash test's child: opens the engine on a data folder, taps every order of a plan through to
 * COMPLETED (as far as the projected order allows, queuing ahead) and drains against the sandbox,
 * until everything is sent. The parent kills it with SIGKILL at random moments and starts it again.
 * Prints "ready" once the engine is open and "done" when the plan is complete. With
 * CRASH_STATUS_CHECK=1 it checks before resending (decisions.md) through the sandbox's admin path.
 */
import { MemoryVault } from '../../src/main/core/auth';
import { openEngineWithService } from '../../src/main/core/engine';
import type { StatusCheck } from '../../src/main/core/outbox';
import { type ActionInput, OrderSchema } from '../../src/shared/protocol';
import type { OrderView } from '../../src/shared/ipc';
import { TRAINING } from '../support/credentials';

const env = process.env;
const url = env.CRASH_URL ?? '';
const dataDir = env.CRASH_DATA_DIR ?? '';
const orderIds = (env.CRASH_ORDERS ?? '').split(',').filter(Boolean);

/** Check before resend through the sandbox's admin path on the service port: an outage makes it unreachable too. */
const statusCheck: StatusCheck = async (orderId, signal) => {
  try {
    const timeout = AbortSignal.timeout(300);
    const res = await fetch(`${url}/__sandbox/orders/${encodeURIComponent(orderId)}`, { signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
    if (!res.ok) return { kind: 'unreachable' };
    const order = OrderSchema.safeParse(await res.json());
    return order.success ? { kind: 'order', order: order.data } : { kind: 'unreachable' };
  } catch {
    return { kind: 'unreachable' };
  }
};

/** The one tap that moves an order on, from the projected view; null when nothing is left. */
function nextTap(view: OrderView): ActionInput | null {
  if (view.failed > 0 || view.mayBeApplied) return null;
  if (!view.order) return view.waiting === 0 ? { kind: 'orderState', state: 'ACCEPTED' } : null;
  const step = view.nextStep;
  if (step?.key === 'ACCEPT') return { kind: 'orderState', state: 'ACCEPTED' };
  if (step?.key === 'COMPLETE') return { kind: 'orderState', state: 'COMPLETED' };
  // With unit cuts: once packing has started, one unit of the first item with two or more is cut, once per order.
  if (cutUnits && step?.key === 'PACKED' && !cutAlready(view.id)) {
    const item = view.order.items.find((i) => i.quantity.count >= 2);
    if (item) return { kind: 'units', itemId: item.itemId, units: item.quantity.count - 1, reason: 'ITEM_UNAVAILABLE' };
  }
  if (step?.fulfilmentId) return { kind: 'fulfilment', fulfilmentId: step.fulfilmentId, state: step.key as 'PACKING' };
  if (!step && view.order.orderState.toUpperCase() !== 'COMPLETED') return { kind: 'orderState', state: 'COMPLETED' };
  return null;
}

const cutUnits = env.CRASH_UNIT_CUTS === '1';
let cutAlready: (orderId: string) => boolean = () => true;

async function main(): Promise<void> {
  const { engine, close } = openEngineWithService({
    dataDir,
    authUrl: url,
    baseUrl: url,
    vault: new MemoryVault({ credentials: TRAINING }),
    terminalId: `crash-${process.pid}`,
    undoWindowMs: 0,
    concurrency: 4,
    backoff: { baseMs: 20, capMs: 200 },
    requestTimeoutMs: 400,
    probeTimeoutMs: 200,
    stopGraceMs: 200,
    proactiveRefresh: false,
    // Without the check, resend blindly (the engine's default would ask `status`).
    statusCheck: env.CRASH_STATUS_CHECK === '1' ? statusCheck : async () => ({ kind: 'unavailable' }),
  });
  // The file remembers a cut across kills: any unit tap of the order, sent or waiting.
  cutAlready = (orderId) => engine.listOutbox({ includeDone: true }).some((e) => e.orderId === orderId && e.action.type === 'ITEM_UNIT_UPDATE');
  engine.start();
  process.stdout.write('ready\n');
  for (;;) {
    let open = 0;
    for (const id of orderIds) {
      const view = engine.getOrder(id) ?? (engine.addOrder(id).ok ? engine.getOrder(id) : null);
      if (!view) throw new Error(`order ${id} could not be added`);
      const completed = view.order?.orderState.toUpperCase() === 'COMPLETED';
      if (!completed || view.waiting > 0 || view.failed > 0 || view.mayBeApplied) open++;
      const tap = nextTap(view);
      // Refusals (a tap already queued) are expected after a restart; the projection decides.
      if (tap) engine.submitTap(id, tap);
    }
    if (open === 0) break;
    if (engine.status().failed > 0) throw new Error(`a tap failed: ${JSON.stringify(engine.listOutbox().filter((e) => e.state === 'failed'))}`);
    const pass = await engine.drain({ untilEmpty: false, timeoutMs: 1000 });
    // A pass with nothing to send (offline, waiting for a retry) resolves without leaving the
    // microtask queue: give timers their turn, or the connectivity probe that would bring the
    // engine back online never runs and this loop spins for ever.
    if (pass.sent === 0) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await close();
  process.stdout.write('done\n');
}

main().catch((error: unknown) => {
  process.stderr.write(`crash child failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
