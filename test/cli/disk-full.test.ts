/**
 * A disk that fills up during a drain (a real tmpfs, really full): the service applied the updates
 * but their answers cannot be recorded. The CLI says so as a storage failure with its own exit code,
 * never as the network; nothing is marked failed; once space is freed a drain settles every entry,
 * each applied exactly once.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, expect, it } from 'vitest';
import { bundledCli } from '../support/bundle';
import { Cleanup, newDeliveryOrderIds, sandbox } from '../support/engine';
import { envFor } from '../support/cli-env';
import { canMountTmpfs, smallDisk } from '../support/small-disk';
import { until } from '../support/until';

const cleanup = new Cleanup();
const cli = bundledCli();

afterEach(() => cleanup.run());



const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it.skipIf(!canMountTmpfs)('a disk that fills during a drain is a storage failure (exit 6), not the network; a later drain settles each entry once', { timeout: 60_000 }, async () => {
  const box = await sandbox(cleanup);
  const disk = smallDisk(cleanup, '4m');
  const dataDir = path.join(disk.dir, 'data');
  const env = envFor(box, dataDir);
  const ids = newDeliveryOrderIds(box).slice(0, 4);
  for (const id of ids) expect((await cli.run(['enqueue', 'order-state', id, 'ACCEPTED', '--no-undo'], env)).code).toBe(0);

  // Slow answers, so the disk can fill while the updates are on their way.
  box.faults.set({ latencyMs: 1500 });
  const draining = cli.run(['drain', '--until-empty', '--timeout', '30'], env);
  const watcher = new Database(path.join(dataDir, 'packdesk.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const sending = watcher.prepare(`SELECT COUNT(*) AS n FROM outbox WHERE state = 'sending'`);
    for (let i = 0; (sending.get() as { n: number }).n < ids.length; i++) {
      if (i > 400) throw new Error('the drain never claimed the taps');
      await sleep(20);
    }
  } finally {
    watcher.close();
  }
  expect(disk.fill()).toBeGreaterThan(0);
  const drained = await draining;
  const said = drained.stdout + drained.stderr;
  expect(drained.code, said).toBe(6);
  expect(said).toMatch(/disk holding the data file is full/);
  expect(said).not.toMatch(/could not be reached|No connection/);
  expect(said).toMatch(/failed 0/);
  // The service did apply them: the updates went out before the disk filled (the drain may end on
  // the first answer it cannot record, before the service has answered the others).
  await until('the service to have applied all four', () => ids.every((id) => box.appliedLog().some((a) => a.orderId === id)));
  expect(new Set(box.appliedLog().map((a) => a.orderId))).toEqual(new Set(ids));

  box.faults.set({ latencyMs: 0 });
  const doctor = await cli.run(['doctor'], env);
  expect(doctor.code).toBe(1);
  expect(doctor.stdout).toMatch(/^problem\s+data file\s+.*free on the disk holding it/m);
  expect(doctor.stdout).toMatch(/^ok\s+order service/m);

  disk.free();
  const again = await cli.run(['drain', '--until-empty', '--timeout', '30'], env);
  expect(again.code, again.stdout + again.stderr).toBe(0);
  expect(again.stdout).toMatch(/remaining 0/);
  for (const id of ids) expect(box.appliedLog().filter((a) => a.orderId === id)).toHaveLength(1);
  const outbox = await cli.run(['outbox', '--all', '--json'], env);
  expect((JSON.parse(outbox.stdout) as { state: string }[]).map((e) => e.state)).toEqual(['sent', 'sent', 'sent', 'sent']);
});

it.skipIf(!canMountTmpfs)('enqueue and intake on a disk already full say "free disk space" and exit 6, not "cannot open ... disk I/O error" and 5', { timeout: 60_000 }, async () => {
  const box = await sandbox(cleanup, { orderCount: 5, arrivalEveryMs: 0, changesMinIntervalMs: 0 });
  const disk = smallDisk(cleanup, '4m');
  const env = envFor(box, path.join(disk.dir, 'data'));
  expect((await cli.run(['intake', '--once'], env)).code).toBe(0);
  const id = newDeliveryOrderIds(box)[0]!;
  box.placeOrder();
  expect(disk.fill()).toBeGreaterThan(0);
  for (const args of [['enqueue', 'order-state', id, 'ACCEPTED'], ['intake', '--once']]) {
    const r = await cli.run(args, env);
    const said = r.stdout + r.stderr;
    expect(r.code, said).toBe(6);
    expect(said).toMatch(/free disk space/i);
    expect(said).not.toMatch(/disk I\/O error|cannot be used/);
  }
});
