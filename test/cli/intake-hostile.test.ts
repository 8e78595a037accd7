/**
 * `packdesk intake --once` and `doctor` against a hostile order service (the sandbox's fault
 * switches), as a child process: ids still to fetch are said and exit 1 until stored, a 429 exits 4
 * and the next run resumes at its page, a full disk exits 6 and nothing is lost.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bundledCli } from '../support/bundle';
import { Cleanup, sandbox, tempDir } from '../support/engine';
import { envFor } from '../support/cli-env';
import { canMountTmpfs, smallDisk } from '../support/small-disk';

const cleanup = new Cleanup();
const cli = bundledCli();

afterEach(() => cleanup.run());

const setFaults = (adminUrl: string, patch: object) => fetch(`${adminUrl}/__sandbox/faults`, { method: 'POST', body: JSON.stringify(patch) });

describe('packdesk intake against a hostile service', () => {
  it('an order whose status answer fails is still to fetch: exit 1, named in --json and doctor, stored by the next run', async () => {
    const box = await sandbox(cleanup, { orderCount: 6, arrivalEveryMs: 0, changesMinIntervalMs: 0 });
    const env = envFor(box, tempDir(cleanup));
    const victim = box.orders()[2]!.id;
    // Through the admin API, as a trainer would show it.
    expect((await setFaults(box.adminUrl, { badStatus: { answer: 'otherView', count: 1, orderIds: [victim] } })).status).toBe(200);

    const first = await cli.run(['intake', '--once', '--json'], env);
    expect(first.code, first.stderr).toBe(1);
    const report = JSON.parse(first.stdout) as { kind: string; counts: { new: number; failed: number }; status: { stillToFetch: number; cursorAt: number | null }; stillToFetch: { orderId: string; lastError: string }[] };
    expect(report).toMatchObject({ kind: 'incomplete', counts: { new: 5, failed: 1 }, status: { stillToFetch: 1 } });
    expect(report.status.cursorAt).not.toBeNull();
    expect(report.stillToFetch).toEqual([expect.objectContaining({ orderId: victim, lastError: expect.stringMatching(/could not be read/) })]);

    const doctor = await cli.run(['doctor'], env);
    expect(doctor.stdout).toMatch(new RegExp(`problem\\s+order intake\\s+access ok; .*1 order listed by the service could not be fetched yet .*${victim}`));

    const second = await cli.run(['intake', '--once'], env);
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect(second.stdout).toMatch(/pass completed\nnew 1, updated 0/);
    const order = await cli.run(['order', victim, '--json'], env);
    expect(order.code).toBe(0);
    expect((await cli.run(['doctor'], env)).stdout).toMatch(/ok\s+order intake\s+access ok/);
  });

  it('a 429 between pages exits 4; the next run resumes at the page where it stopped, not page 1, and all 40 orders arrive', async () => {
    const box = await sandbox(cleanup, { orderCount: 40, arrivalEveryMs: 0, changesMinIntervalMs: 0, changesMaxPageSize: 5 });
    const env = envFor(box, tempDir(cleanup));
    box.faults.set({ changesEveryMs: 120_000 });
    const limited = await cli.run(['intake', '--once'], env);
    expect(limited.code, limited.stdout + limited.stderr).toBe(4);
    expect(limited.stdout).toMatch(/asked the terminal to slow down/);

    box.faults.set({ changesEveryMs: 0 });
    const resumed = await cli.run(['intake', '--once', '--json'], env);
    expect(resumed.code, resumed.stderr).toBe(0);
    const pages = box.readLog().filter((r) => r.call === 'changes');
    // Page size 5 here comes from the service's cap; the CLI asks for 100.
    // Then a window from the resumed one's end up to now, from its first page (issue 38).
    expect(pages.map((p) => [p.offset, p.status])).toEqual([[0, 200], [5, 429], [5, 200], [10, 200], [15, 200], [20, 200], [25, 200], [30, 200], [35, 200], [0, 200]]);
    const orders = JSON.parse((await cli.run(['orders', '--json'], env)).stdout) as unknown[];
    expect(orders).toHaveLength(40);
  });

  it('a nextPage that repeats is said by intake (exit 1) and by doctor', async () => {
    const box = await sandbox(cleanup, { orderCount: 12, arrivalEveryMs: 0, changesMinIntervalMs: 0, changesMaxPageSize: 5 });
    const env = envFor(box, tempDir(cleanup));
    box.faults.set({ changesNextPage: 'repeat' });
    const looped = await cli.run(['intake', '--once'], env);
    expect(looped.code).toBe(1);
    expect(looped.stdout).toMatch(/pass not completed \(unfinished\)\n.*\n.*a next page it had given before/);
    expect(box.stats().changesRequests).toBe(2);
    expect((await cli.run(['doctor'], env)).stdout).toMatch(/problem\s+order intake\s+access ok; .*a next page it had given before/);
  });

  it.skipIf(!canMountTmpfs)('a disk that fills during intake exits 6 with the words; once freed, the next run stores every order', { timeout: 60_000 }, async () => {
    const box = await sandbox(cleanup, { orderCount: 5, arrivalEveryMs: 0, changesMinIntervalMs: 0 });
    const disk = smallDisk(cleanup, '4m');
    const env = envFor(box, path.join(disk.dir, 'data'));
    expect((await cli.run(['intake', '--once'], env)).code).toBe(0);
    const placed = Array.from({ length: 40 }, () => box.placeOrder().id);
    // Slow answers, so the disk fills while the first page is on its way (the file is open by then).
    box.faults.set({ latencyMs: 1500 });
    const running = cli.run(['intake', '--once'], env);
    for (let i = 0; box.stats().changesRequests < 2; i++) {
      if (i > 400) throw new Error('the pass never asked for changes');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(disk.fill()).toBeGreaterThan(0);
    const full = await running;
    box.faults.set({ latencyMs: 0 });
    expect(full.code, full.stdout + full.stderr).toBe(6);
    expect(full.stdout + full.stderr).toMatch(/disk holding the data file is full/);
    disk.free();
    const again = await cli.run(['intake', '--once'], env);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    const ids = new Set((JSON.parse((await cli.run(['orders', '--json'], env)).stdout) as { id: string }[]).map((o) => o.id));
    for (const id of placed) expect(ids.has(id)).toBe(true);
  });
});
