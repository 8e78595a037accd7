/**
 * One counter of the store soak (bench/store-soak.ts), in a process of its own so the soak can
 * SIGKILL it: the engine over the sandbox and the store hub bound to it exactly as `packdesk run`
 * binds them (createHubLink), its data folder kept across restarts. It joins the hub by its join
 * code the first time. The soak's packer taps through Node's IPC channel: `tap` takes the order's
 * next step as a packer's tap at this counter would (the claim asked first, hub/host's beforeTap),
 * `memory` answers the process's memory, `state` how many taps wait.
 * Environment: DATA_DIR, SANDBOX_URL, PROVIDER, COUNTER_ID, COUNTER_NAME, JOIN_CODE, HUB_SECRET.
 */
import { MemoryVault } from '../src/main/core/auth';
import { openEngineWithService } from '../src/main/core/engine';
import { createHubLink } from '../src/main/core/host/hub';
import { loadHubConfig } from '../src/main/core/hub/hub-config';
import { memoryHubSecrets } from '../src/main/core/hub/server';
import { createLogger } from '../src/main/core/log';
import { createRotatingFileSink } from '../src/main/core/log/fileSink';
import type { NextStep } from '../src/shared/fulfilment/states';
import type { ActionInput } from '../src/shared/protocol';
import { TRAINING } from '../test/support/credentials';

const env = process.env;
const need = (name: string): string => {
  const value = env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

/** What the soak asks of this counter: a packer's tap on an order, settling an order packed twice (this counter keeps it), its memory, its queue. */
export type SoakAsk = { readonly kind: 'tap' | 'settle'; readonly orderId: string } | { readonly kind: 'memory' | 'state' };
export type SoakRequest = SoakAsk & { readonly id: number };
/** What it answers. */
export type SoakReply =
  | { readonly kind: 'tapped'; readonly step: string }
  | { readonly kind: 'settled' }
  | { readonly kind: 'refused'; readonly code: string; readonly holder?: string }
  | { readonly kind: 'memory'; readonly rss: number; readonly heap: number }
  | { readonly kind: 'state'; readonly waiting: number; readonly mode: string };
export type SoakAnswer = SoakReply & { readonly id: number };

/** The tap a next step stands for (as the order screen's big button makes it). */
function inputFor(step: NextStep): ActionInput | null {
  if (step.key === 'ACCEPT') return { kind: 'orderState', state: 'ACCEPTED' };
  if (step.key === 'COMPLETE') return { kind: 'orderState', state: 'COMPLETED' };
  return step.fulfilmentId ? { kind: 'fulfilment', fulfilmentId: step.fulfilmentId, state: step.key } : null;
}

async function main(): Promise<void> {
  const dataDir = need('DATA_DIR');
  const url = need('SANDBOX_URL');
  const counterName = need('COUNTER_NAME');
  const terminalId = need('COUNTER_ID');
  const sink = createRotatingFileSink({ dir: dataDir, name: 'counter', maxBytes: 4 * 1024 * 1024, keep: 3 });
  const log = createLogger([sink], { scope: counterName });
  const hub = createHubLink({
    terminalId,
    version: 'soak',
    emit: () => undefined,
    log,
    now: Date.now,
    secrets: () => memoryHubSecrets(need('HUB_SECRET')),
  });
  const service = openEngineWithService({
    dataDir,
    authUrl: url,
    baseUrl: url,
    vault: new MemoryVault({ credentials: TRAINING }),
    terminalId,
    log,
    proactiveRefresh: false,
    serviceProviderId: () => need('PROVIDER'),
    intakeIntervalMs: () => 3_000,
    intakeMinIntervalMs: 500,
    backoff: { baseMs: 500, capMs: 10_000 },
    ...hub.sharing,
  });
  service.engine.start();
  hub.attach(service, { environment: 'staging', dataDir });
  service.intake.start();
  const joined = loadHubConfig(dataDir);
  if (joined.ok && joined.config === null) {
    // The first start: joined as a manager would, by the join code.
    for (let attempt = 1; ; attempt++) {
      const answer = await hub.join(need('JOIN_CODE'), counterName);
      if (answer.ok) break;
      if (attempt >= 10) throw new Error(`${counterName} could not join: ${answer.problem.message}`);
      await new Promise((r) => setTimeout(r, 1_000));
    }
  }

  const tap = async (orderId: string): Promise<SoakReply> => {
    const raw = service.engine.getOrder(orderId);
    if (!raw) return { kind: 'refused', code: 'NOT_HERE' };
    const view = hub.decorate(raw);
    if (!view.nextStep) return { kind: 'refused', code: 'NO_STEP' };
    // Packed twice: the big button waits until it is settled and, where the order is not kept, its items are back.
    if (view.conflict) return { kind: 'refused', code: 'PACKED_TWICE' };
    const input = inputFor(view.nextStep);
    if (!input) return { kind: 'refused', code: 'NO_FULFILMENT' };
    const claimed = await hub.beforeTap(orderId, input);
    if (!claimed.ok) return { kind: 'refused', code: claimed.problem.code ?? 'REFUSED', ...(typeof claimed.problem.values?.counter === 'string' ? { holder: claimed.problem.values.counter } : {}) };
    const tapped = service.engine.submitTap(orderId, input, claimed.value);
    return tapped.ok ? { kind: 'tapped', step: view.nextStep.key } : { kind: 'refused', code: tapped.problem.code ?? 'REFUSED' };
  };

  process.on('message', (message: SoakRequest) => {
    void (async () => {
      let answer: SoakReply;
      if (message.kind === 'tap') answer = await tap(message.orderId);
      else if (message.kind === 'settle') {
        // The store's people put an order packed twice right: not settled yet, this counter keeps it; settled in
        // another counter's favour, its items are put back here.
        const raw = service.engine.getOrder(message.orderId);
        const conflict = raw ? hub.decorate(raw).conflict : undefined;
        const done = !conflict
          ? null
          : conflict.settled
            ? hub.putBack(message.orderId)
            : hub.settleConflict(message.orderId, conflict.parties.find((p) => p.here)?.counterId ?? terminalId);
        answer = done?.ok ? { kind: 'settled' } : { kind: 'refused', code: done ? (done.problem.code ?? 'REFUSED') : 'NO_CONFLICT' };
      }
      else if (message.kind === 'memory') {
        const m = process.memoryUsage();
        answer = { kind: 'memory', rss: m.rss, heap: m.heapUsed };
      } else answer = { kind: 'state', waiting: service.engine.status().waiting, mode: hub.status().mode };
      process.send?.({ id: message.id, ...answer });
    })().catch((error: unknown) => process.send?.({ id: message.id, kind: 'refused', code: `ERROR ${error instanceof Error ? error.message : String(error)}` }));
  });
  const stop = async (): Promise<void> => {
    await hub.detach();
    await service.close();
    sink.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  // The soak gone (killed, crashed): a counter left behind would hold its data file and the hub.
  process.on('disconnect', () => void stop());
  process.send?.({ id: 0, kind: 'state', waiting: 0, mode: 'started' });
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
