/**
 * A commit that fails because the disk is full (a real, full tmpfs): what the listeners are told
 * matches the file. Entries claimed for the ready pool are never reported "queued" while the file
 * still says "sending", and once space is back everything is recorded and sent, each applied once.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, expect, it } from 'vitest';
import { Cleanup, newDeliveryOrderIds, sandbox, serviceEngine } from '../../../support/engine';
import { canMountTmpfs, smallDisk } from '../../../support/small-disk';
import { until } from '../../../support/until';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it.skipIf(!canMountTmpfs)('keeps what listeners hear in step with the file when a commit fails on a full disk', { timeout: 60_000 }, async () => {
  const box = await sandbox(cleanup);
  const disk = smallDisk(cleanup, '4m');
  const dataDir = path.join(disk.dir, 'data');
  const { engine, tokens } = serviceEngine(cleanup, box, dataDir, { concurrency: 1, pollMs: 200 });
  const told = new Map<number, string>();
  engine.on('outbox.changed', (e) => e.entries.forEach((x) => told.set(x.id, x.state)));
  expect((await tokens.authorization()).ok).toBe(true);
  const ids = newDeliveryOrderIds(box).slice(0, 3);
  const taps = ids.map((id) => {
    const r = engine.submitTap(id, { kind: 'orderState', state: 'ACCEPTED' });
    if (!r.ok) throw new Error(r.problem.message);
    return r.value;
  });
  box.faults.set({ latencyMs: 600 });
  // Another reader holding an old snapshot (the CLI next to the app) keeps the write-ahead log from
  // being restarted, so every commit from here on needs new bytes on the disk.
  const pin = new Database(path.join(dataDir, 'packdesk.sqlite'), { readonly: true });
  pin.prepare('BEGIN').run();
  pin.prepare('SELECT COUNT(*) FROM outbox').get();
  cleanup.add(() => pin.close());
  engine.start();

  // The first answer lets the second go out and claims the third for the ready pool.
  const watcher = new Database(path.join(dataDir, 'packdesk.sqlite'), { readonly: true });
  cleanup.add(() => watcher.close());
  const stateOf = watcher.prepare(`SELECT state FROM outbox WHERE id = ?`);
  const fileState = (id: number): string => (stateOf.get(id) as { state: string }).state;
  for (let i = 0; !(fileState(taps[1]!.id) === 'sending' && fileState(taps[2]!.id) === 'sending'); i++) {
    if (i > 300) throw new Error('the second and third taps were never claimed together');
    await sleep(10);
  }
  // The second is refused for now (503) and the disk is full when that answer is committed.
  box.faults.set({ errorRate: 1 });
  disk.fill();
  for (let i = 0; !box.requestLog().some((r) => r.requestId === taps[1]!.requestId && r.status === 503); i++) {
    if (i > 300) throw new Error('the second tap was never answered');
    await sleep(10);
  }
  // The refused answer's commit fails on the full disk: from then on the answer waits for room.
  await until('the refused answer to meet the full disk', () => engine.storage()?.code === 'STORE_FULL');
  // What the listeners heard last is what the file says, for the refused one and the ready one.
  expect(taps.slice(1).map((t) => told.get(t.id))).toEqual(taps.slice(1).map((t) => fileState(t.id)));
  expect(engine.storage()).toMatchObject({ kind: 'storage', code: 'STORE_FULL' });
  expect(engine.status().message).toMatch(/disk holding the data file is full/);

  pin.prepare('COMMIT').run();
  disk.free();
  box.faults.set({ errorRate: 0, latencyMs: 0 });
  expect(await engine.drain({ untilEmpty: true, timeoutMs: 15_000 })).toMatchObject({ failed: 0, remaining: 0 });
  expect(engine.storage()).toBeNull();
  expect(engine.status().message).toBeNull();
  for (const tap of taps) expect(box.appliedLog().filter((a) => a.requestId === tap.requestId)).toHaveLength(1);
  for (const tap of taps) expect(told.get(tap.id)).toBe('sent');
});

it.skipIf(!canMountTmpfs)('starting on a full disk says so, sends nothing, and sends everything once space is freed', { timeout: 60_000 }, async () => {
  const box = await sandbox(cleanup);
  const disk = smallDisk(cleanup, '4m');
  const dataDir = path.join(disk.dir, 'data');
  const { engine } = serviceEngine(cleanup, box, dataDir, { pollMs: 200 });
  // A reader's snapshot from before the taps keeps the write-ahead log from restarting.
  const pin = new Database(path.join(dataDir, 'packdesk.sqlite'), { readonly: true });
  pin.prepare('BEGIN').run();
  pin.prepare('SELECT COUNT(*) FROM outbox').get();
  cleanup.add(() => pin.close());
  const ids = newDeliveryOrderIds(box).slice(0, 2);
  for (const id of ids) expect(engine.submitTap(id, { kind: 'orderState', state: 'ACCEPTED' }).ok).toBe(true);
  disk.fill();

  engine.start();
  expect(await engine.drain({ untilEmpty: true, timeoutMs: 5000 })).toEqual({ sent: 0, failed: 0, remaining: 2 });
  expect(engine.storage()).toMatchObject({ kind: 'storage', code: 'STORE_FULL' });
  expect(engine.status().message).toMatch(/disk holding the data file is full/);
  expect(box.requestLog()).toEqual([]);

  pin.prepare('COMMIT').run();
  disk.free();
  for (let i = 0; engine.storage() !== null; i++) {
    if (i > 300) throw new Error('the engine never noticed the disk had room again');
    await sleep(20);
  }
  expect(await engine.drain({ untilEmpty: true, timeoutMs: 10_000 })).toMatchObject({ failed: 0, remaining: 0 });
  expect(engine.status().message).toBeNull();
  expect(box.appliedLog().map((a) => a.orderId).sort()).toEqual([...ids].sort());
});

it.skipIf(!canMountTmpfs)('a tap on a disk that filled after the file opened is refused as a full disk (STORE_FULL, "free disk space"), not "call support"', { timeout: 60_000 }, async () => {
  const box = await sandbox(cleanup);
  const disk = smallDisk(cleanup, '4m');
  const dataDir = path.join(disk.dir, 'data');
  const { engine } = serviceEngine(cleanup, box, dataDir, { pollMs: 200 });
  const [first, second] = newDeliveryOrderIds(box);
  expect(engine.submitTap(first!, { kind: 'orderState', state: 'ACCEPTED' }).ok).toBe(true);
  // A reader on an old snapshot keeps the write-ahead log growing: the next commit needs new bytes.
  const pin = new Database(path.join(dataDir, 'packdesk.sqlite'), { readonly: true });
  pin.prepare('BEGIN').run();
  pin.prepare('SELECT COUNT(*) FROM outbox').get();
  cleanup.add(() => pin.close());
  disk.fill();
  const refused = engine.submitTap(second!, { kind: 'orderState', state: 'ACCEPTED' });
  expect(refused).toMatchObject({ ok: false, problem: { kind: 'storage', code: 'STORE_FULL', message: expect.stringMatching(/Free disk space/) } });
  disk.free();
  expect(engine.submitTap(second!, { kind: 'orderState', state: 'ACCEPTED' }).ok).toBe(true);
});
