/**
 * `packdesk intake --once` against a service whose `changes` calls are rate-limited per page and
 * which takes new orders between passes (issue 38): a 429 of 5 s or less is waited out and the
 * pass completed; a longer one is said and exits 4; a resumed pass reads on up to now.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { bundledCli } from '../support/bundle';
import { Cleanup, sandbox, tempDir } from '../support/engine';
import { envFor } from '../support/cli-env';

const cleanup = new Cleanup();
const cli = bundledCli();

afterEach(() => cleanup.run());

describe('packdesk intake under a rate limit', () => {
  it('a 429 with Retry-After: 1 on the first changes call is waited out: the pass completes and says so', async () => {
    const box = await sandbox(cleanup, { orderCount: 6, arrivalEveryMs: 0, changesMinIntervalMs: 0 });
    const env = envFor(box, tempDir(cleanup));
    box.faults.set({ readsRateLimit: { count: 1, retryAfterSeconds: 1 } });
    const r = await cli.run(['intake', '--once', '--json', '--verbose'], env);
    expect(r.stdout, r.stderr).not.toBe('');
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ kind: 'completed', counts: { new: 6 } });
  });

  it('a 429 after the first page, and one on a status call, are waited out too: every order is taken in, exit 0', { timeout: 30_000 }, async () => {
    const box = await sandbox(cleanup, { orderCount: 12, arrivalEveryMs: 0, changesMinIntervalMs: 0, changesMaxPageSize: 5 });
    const env = envFor(box, tempDir(cleanup));
    box.faults.set({ changesEveryMs: 1_000 });
    const paged = await cli.run(['intake', '--once'], env);
    expect(paged.code, paged.stdout + paged.stderr).toBe(0);
    expect(paged.stdout).toMatch(/^pass completed\nnew 12, /);
    expect(box.readLog().filter((r) => r.call === 'changes' && r.status === 429).length).toBeGreaterThan(0);

    box.faults.set({ changesEveryMs: 0, readsRateLimit: { count: 1, retryAfterSeconds: 1, call: 'status' } });
    box.placeOrder();
    const status = await cli.run(['intake', '--once', '--json'], env);
    expect(status.code, status.stdout + status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ kind: 'completed', counts: { new: 1 } });
    expect(box.readLog().filter((r) => r.call === 'status' && r.status === 429)).toHaveLength(1);
  });

  it('a Retry-After longer than 5 s is said, with the wait, and exits 4; the cursor does not move', async () => {
    const box = await sandbox(cleanup, { orderCount: 4, arrivalEveryMs: 0, changesMinIntervalMs: 0 });
    const env = envFor(box, tempDir(cleanup));
    box.faults.set({ readsRateLimit: { count: 1, retryAfterSeconds: 30 } });
    const r = await cli.run(['intake', '--once'], env);
    expect(r.code, r.stdout + r.stderr).toBe(4);
    expect(r.stdout).toMatch(/^pass not completed \(unreachable\)\n/);
    expect(r.stdout).toMatch(/asked the terminal to slow down/);
    expect(r.stdout).toMatch(/no more calls for 30 s: run intake --once again after that/);
    expect(r.stdout).toMatch(/no complete pass yet/);
  });

  it('the service down mid-pass, 7 orders placed, the service back: the next intake --once takes in all 7 before it says completed', async () => {
    const box = await sandbox(cleanup, { orderCount: 5, arrivalEveryMs: 0, changesMinIntervalMs: 0 });
    const env = envFor(box, tempDir(cleanup));
    expect((await cli.run(['intake', '--once'], env)).code).toBe(0);
    box.faults.set({ outage: 'refuse' });
    expect((await cli.run(['intake', '--once'], env)).code).toBe(4);
    const placed = Array.from({ length: 7 }, () => box.placeOrder().id);
    box.faults.set({ outage: 'none' });
    const back = await cli.run(['intake', '--once'], env);
    expect(back.code, back.stdout + back.stderr).toBe(0);
    expect(back.stdout).toMatch(/^pass completed\nnew 7, /);
    const ids = new Set((JSON.parse((await cli.run(['orders', '--json'], env)).stdout) as { id: string }[]).map((o) => o.id));
    for (const id of placed) expect(ids.has(id)).toBe(true);
  });

  it('limited per page: a pass stopped after page 1, two orders placed, the next run (paced by the limit) takes them in too', { timeout: 30_000 }, async () => {
    const box = await sandbox(cleanup, { orderCount: 12, arrivalEveryMs: 0, changesMinIntervalMs: 0, changesMaxPageSize: 5 });
    const env = envFor(box, tempDir(cleanup));
    box.faults.set({ changesEveryMs: 120_000 });
    expect((await cli.run(['intake', '--once'], env)).code).toBe(4);
    const placed = [box.placeOrder().id, box.placeOrder().id];
    box.faults.set({ changesEveryMs: 1_000 });
    const resumed = await cli.run(['intake', '--once', '--json'], env);
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ kind: 'completed', counts: { new: 14 } });
    const ids = new Set((JSON.parse((await cli.run(['orders', '--json'], env)).stdout) as { id: string }[]).map((o) => o.id));
    for (const id of placed) expect(ids.has(id)).toBe(true);
  });

  it('doctor right after a pass reports that pass rather than trip the service minimum interval; nor does a second doctor', async () => {
    // The sandbox's own rule, as the platform's: a new changes poll within 5 s of the last gets 429.
    const box = await sandbox(cleanup, { orderCount: 3, arrivalEveryMs: 0, changesMinIntervalMs: 5_000 });
    const env = envFor(box, tempDir(cleanup));
    expect((await cli.run(['intake', '--once'], env)).code).toBe(0);
    const calls = box.stats().changesRequests;
    const doctor = await cli.run(['doctor'], env);
    expect(doctor.stdout).toMatch(/ok\s+order intake\s+access ok; last complete pass \S+; cursor \d+ s old \(not asked again now: this terminal asked \d+ s ago, and the service takes one such call every 10 s; the answer of the last pass, /);
    expect(doctor.stdout).not.toMatch(/429|Polled too often/);
    expect((await cli.run(['doctor'], env)).stdout).toMatch(/ok\s+order intake\s+access ok;/);
    expect(box.stats().changesRequests).toBe(calls);
  });

  it('doctor after a pass the limit stopped says that pass, without a call, until the Retry-After is over', async () => {
    const box = await sandbox(cleanup, { orderCount: 3, arrivalEveryMs: 0, changesMinIntervalMs: 0 });
    const env = envFor(box, tempDir(cleanup));
    box.faults.set({ readsRateLimit: { count: 1, retryAfterSeconds: 60 } });
    expect((await cli.run(['intake', '--once'], env)).code).toBe(4);
    const calls = box.stats().changesRequests;
    const doctor = await cli.run(['doctor'], env);
    expect(doctor.stdout).toMatch(/problem\s+order intake\s+The order service asked the terminal to slow down the changed-orders call \(HTTP 429.*\(no complete pass yet; not asked again now: the order service asked for no calls until \S+; the answer of the last pass, \S+\) -> nothing to do: the order service asked for a pause/);
    expect(box.stats().changesRequests).toBe(calls);
  });
});
