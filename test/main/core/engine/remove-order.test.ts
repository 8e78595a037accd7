/**
 * Removing an order from the terminal (a code scanned by mistake): only when none of its taps can
 * have reached the service. Real SQLite file, the sandbox over HTTP on 127.0.0.1.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Cleanup, newDeliveryOrderIds, sandbox, serviceEngine, tempDir } from '../../../support/engine';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const accept = { kind: 'orderState', state: 'ACCEPTED' } as const;

describe('removing an order', () => {
  it('takes off an order the service never knew, discarding its refused tap; scanning it again adds it back as new', async () => {
    const box = await sandbox(cleanup);
    const dataDir = tempDir(cleanup);
    const { engine } = serviceEngine(cleanup, box, dataDir);
    engine.start();
    const phantom = 'INV9999900077';
    expect(engine.addOrder(phantom).ok).toBe(true);
    expect(engine.submitTap(phantom, accept).ok).toBe(true);
    await engine.drain({ untilEmpty: true, timeoutMs: 10_000 });
    expect(engine.listOutbox().find((e) => e.orderId === phantom)?.state).toBe('failed');

    expect(engine.removeOrder(phantom)).toEqual({ ok: true, value: true });
    expect(engine.getOrder(phantom)).toBeNull();
    expect(engine.listOrders().some((v) => v.id === phantom)).toBe(false);
    expect(engine.listOutbox().filter((e) => e.orderId === phantom)).toEqual([]);
    expect(engine.listOutbox({ includeDone: true }).find((e) => e.orderId === phantom)?.state).toBe('discarded');
    expect(engine.status().failed).toBe(0);
    expect(engine.removeOrder(phantom)).toMatchObject({ ok: false, problem: { code: 'NOT_FOUND' } });

    const again = engine.addOrder(phantom);
    expect(again.ok && again.value).toMatchObject({ id: phantom, order: null, waiting: 0, failed: 0 });
  }, 30_000);

  it('refuses an order the service answered for, or whose tap went out', async () => {
    const box = await sandbox(cleanup);
    const { engine } = serviceEngine(cleanup, box, tempDir(cleanup), { requestTimeoutMs: 300 });
    engine.start();
    const [known, unanswered] = newDeliveryOrderIds(box);
    if (!known || !unanswered) throw new Error('the sandbox seeded too few new orders');
    engine.submitTap(known, accept);
    await engine.drain({ untilEmpty: true, timeoutMs: 10_000 });
    expect(engine.removeOrder(known)).toMatchObject({ ok: false, problem: { kind: 'invalid', code: 'KNOWN_TO_SERVICE' } });
    expect(engine.getOrder(known)).not.toBeNull();

    // A tap that went out without an answer may have landed: the order stays.
    box.faults.set({ outage: 'hang' });
    engine.submitTap(unanswered, accept);
    await engine.drain({ untilEmpty: false, timeoutMs: 3_000 });
    const r = engine.removeOrder(unanswered);
    expect(r).toMatchObject({ ok: false, problem: { kind: 'invalid', code: 'MAY_HAVE_REACHED' } });
    box.faults.set({ outage: 'none' });
  }, 30_000);
});
