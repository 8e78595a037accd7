/**
 * A disk that fills while intake runs (a real tmpfs, really full): the pass stops on the storage
 * failure, the status says so in words and is not `ok`, the timer stays armed, nothing escapes as an
 * uncaught error, and once space is freed the orders read meanwhile arrive by themselves.
 */
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { canMountTmpfs, smallDisk } from '../../../support/small-disk';
import { Cleanup, intakeSandbox, terminal } from './helpers';
import { until } from '../../../support/until';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

it.skipIf(!canMountTmpfs)('a full disk during intake is said, retried on the timer, and nothing is lost once space is freed', { timeout: 60_000 }, async () => {
  const box = await intakeSandbox(cleanup);
  const disk = smallDisk(cleanup, '4m');
  const t = terminal(cleanup, box, path.join(disk.dir, 'data'), { intervalMs: () => 200, minIntervalMs: 200 });
  expect(await t.intake.passOnce()).toMatchObject({ kind: 'completed', counts: { new: 12 } });

  expect(disk.fill()).toBeGreaterThan(0);
  // Enough new bodies that their writes need pages the file does not have.
  const placed = Array.from({ length: 40 }, () => box.placeOrder().id);
  t.intake.start();
  await until('the storage condition', () => t.intake.status().condition === 'storage', 20_000);
  const status = t.intake.status();
  expect(status.message).toMatch(/disk holding the data file is full: new orders cannot be saved/);
  // The timer is armed again: intake keeps trying by itself.
  expect(status.nextAt).not.toBeNull();

  disk.free();
  await until('the orders placed while the disk was full', () => placed.every((id) => t.store.orders.get(id)?.body?.id === id), 20_000);
  await until('the ok condition', () => t.intake.status().condition === 'ok', 20_000);
  expect(t.intake.status()).toMatchObject({ stillToFetch: 0, message: null });
  await t.intake.stop();
});
