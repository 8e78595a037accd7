/**
 * Answers that arrive together are committed together (one fsync), and the status bar hears of the
 * batch once, with its outcome: the status is worked out from counts that read every waiting tap,
 * so working it out again for each answer of a batch cost a long queue's drain most of its time.
 */
import { afterEach, expect, it } from 'vitest';
import { OrderServiceClient, type UpdateOutcome, type UpdateSender } from '../../../../src/main/core/api';
import { MemoryVault, TokenManager } from '../../../../src/main/core/auth';
import { createEngine } from '../../../../src/main/core/engine';
import type { EventBody } from '../../../../src/shared/ipc';
import type { OrderUpdateRequest } from '../../../../src/shared/protocol';
import { Cleanup, newDeliveryOrderIds, sandbox, tempDir } from '../../../support/engine';
import { TRAINING } from '../../../support/credentials';
import { until } from '../../../support/until';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

/** The real client, its answers held back until open() and then handed over in the same turn. */
function gatedSender(inner: UpdateSender): UpdateSender & { open(): void; answered: number } {
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const gated = {
    answered: 0,
    open: () => open(),
    async update(request: OrderUpdateRequest, signal?: AbortSignal): Promise<UpdateOutcome> {
      const answer = await inner.update(request, signal);
      gated.answered++;
      await gate;
      return answer;
    },
    probe: (signal?: AbortSignal) => inner.probe(signal),
  };
  return gated;
}

/** Six new orders accepted on an engine whose four first answers are all in before it hears of any. */
async function sixTapsFourAnswersHeld() {
  const box = await sandbox(cleanup);
  const tokens = new TokenManager({ authUrl: box.url, vault: new MemoryVault({ credentials: TRAINING }), proactive: false });
  cleanup.add(() => tokens.close());
  const sender = gatedSender(new OrderServiceClient({ baseUrl: box.url, tokens }));
  const engine = createEngine({ dataDir: tempDir(cleanup), sender, terminalId: 'T1', undoWindowMs: 0, concurrency: 4 });
  cleanup.add(() => engine.stop());
  const statuses: EventBody<'sync.status'>[] = [];
  engine.on('sync.status', (s) => statuses.push(s));
  for (const id of newDeliveryOrderIds(box).slice(0, 6)) {
    const r = engine.submitTap(id, { kind: 'orderState', state: 'ACCEPTED' });
    if (!r.ok) throw new Error(r.problem.message);
  }
  const drained = engine.drain({ untilEmpty: true, timeoutMs: 20_000 });
  await until('four answers from the service', () => sender.answered === 4);
  return { box, engine, sender, statuses, drained };
}

it('tells the status bar of a batch of answers once', async () => {
  const { sender, statuses, drained } = await sixTapsFourAnswersHeld();
  expect(statuses.at(-1)).toMatchObject({ waiting: 6 });
  const before = statuses.length;
  sender.open();
  await until('the four answers to be recorded', () => statuses.slice(before).length > 0);
  // One status for the four answers, saying two still wait; then one for each later answer.
  await until('the last answer', () => statuses.at(-1)?.waiting === 0);
  const waiting = statuses.slice(before).map((s) => s.waiting);
  expect(waiting[0]).toBe(2);
  expect(waiting.filter((n) => n === 2)).toHaveLength(1);
  await drained;
});

it('a drain until empty goes on while taps are out, when the first answers are what bring the service online', async () => {
  const { box, engine, sender, drained } = await sixTapsFourAnswersHeld();
  expect(engine.status().connectivity).not.toBe('online');
  sender.open();
  expect(await drained).toEqual({ sent: 6, failed: 0, remaining: 0 });
  expect(engine.listOutbox({ includeDone: true }).map((e) => e.state)).toEqual(Array(6).fill('sent'));
  expect(box.appliedLog()).toHaveLength(6);
});
