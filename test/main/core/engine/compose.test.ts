/** The engine built over the real service passes its injected timers to the token manager and the client too. */
import { afterEach, expect, it } from 'vitest';
import { systemTimers, type Timers } from '../../../../src/main/core/time';
import { Cleanup, newDeliveryOrderIds, sandbox, serviceEngine, tempDir } from '../../../support/engine';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

it('uses the injected timers for request deadlines and the token refresh, not Node’s directly', async () => {
  const box = await sandbox(cleanup);
  const delays: number[] = [];
  const timers: Timers = {
    setTimeout: (fn, ms, options) => {
      delays.push(ms);
      return systemTimers.setTimeout(fn, ms, options);
    },
    clearTimeout: (h) => systemTimers.clearTimeout(h),
  };
  const { engine } = serviceEngine(cleanup, box, tempDir(cleanup), { timers, requestTimeoutMs: 2345, proactiveRefresh: true });
  engine.start();
  expect(engine.submitTap(newDeliveryOrderIds(box)[0]!, { kind: 'orderState', state: 'ACCEPTED' }).ok).toBe(true);
  expect(await engine.drain({ untilEmpty: true, timeoutMs: 10_000 })).toEqual({ sent: 1, failed: 0, remaining: 0 });
  // The client's deadline of the update request…
  expect(delays).toContain(2345);
  // …and the token manager's refresh ahead of expiry (the sandbox's tokens live an hour).
  expect(delays.some((ms) => ms > 30 * 60_000 && ms < 60 * 60_000)).toBe(true);
});
