/**
 * The engine keeps the shift's figures on its own: a terminal that ran half a year ago and starts
 * again now walks its orders, keeps each finished day's figures, then prunes the taps past 180
 * days; the day's Shift screen still shows what happened, from the kept figures. Real SQLite file,
 * the engine on manual timers against the sandbox on 127.0.0.1.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { HISTORY_KEEP_MS } from '../../../../src/main/core/outbox';
import { mustMove } from '../../../../src/main/core/outbox/lifecycle';
import { dayOf } from '../../../../src/shared/days';
import type { Action } from '../../../../src/shared/protocol';
import { manualTimers } from '../../../support/clock';
import { Cleanup, openedStore, sandbox, serviceEngine, tempDir } from '../../../support/engine';
import { sampleOrder } from '../../../support/orders';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const DAY = 24 * 60 * 60 * 1000;
const T0 = new Date(2026, 4, 12, 10, 0).getTime();

describe('the engine keeps each day as figures', () => {
  it('before pruning a day of taps past 180 days, so its shift still shows', async () => {
    const box = await sandbox(cleanup);
    const dir = tempDir(cleanup);
    const seed = openedStore(cleanup, dir, () => T0);
    const days = [0, 40, 90]; // three busy days, further apart than one keeping step's month
    seed.transaction(() => {
      for (const d of days)
        for (let i = 0; i < 6; i++) {
          const id = `OD-${d}-${i}`;
          const at = T0 + d * DAY + i * 60_000;
          seed.orders.saveBody(sampleOrder({ id, orderState: 'Completed' }), at);
          const taps: Action[] = [
            { type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' },
            { type: 'ORDER_FULFILMENT_STATE_UPDATE', fulfilmentId: 'F-STORE', fulfillmentState: 'PACKED' },
          ];
          for (const [k, action] of taps.entries()) {
            const when = at + (k + 1) * 120_000;
            const entry = seed.outbox.insert({ randomId: crypto.randomUUID(), orderId: id, action, createdAt: when, sendAfter: when, terminalId: 'T-seed' });
            mustMove(seed.outbox, mustMove(seed.outbox, entry, 'claim', when), 'deliver', when, { sentNow: true });
          }
          seed.orders.retire(id, at + 4 * DAY);
        }
    });
    seed.close();

    const t = T0 + 90 * DAY + HISTORY_KEEP_MS + 10 * DAY;
    const clock = manualTimers();
    const { engine } = serviceEngine(cleanup, box, dir, { now: () => t, timers: clock.timers, terminalId: 'T-seed' });
    engine.start();
    clock.advance(60_000);
    for (let i = 0; i < 20; i++) clock.advance(100);

    for (const d of days) {
      const report = engine.shift(dayOf(T0 + d * DAY));
      expect(report.source).toBe('kept');
      expect(report.total).toMatchObject({ received: 6, accepted: 6, packed: 6 });
      expect(report.total.toPack).toEqual({ count: 6, medianMs: 120_000, p90Ms: 120_000 });
    }
    // The taps themselves are gone.
    expect(engine.listOutbox({ includeDone: true })).toHaveLength(1);
  }, 30_000);
});
