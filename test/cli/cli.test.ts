/** The packdesk CLI as a real child process against the real sandbox. */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bundledCli } from '../support/bundle';
import { REPO_ROOT } from '../support/paths';
import { Cleanup, newDeliveryOrderIds, sandbox, tempDir } from '../support/engine';
import { envFor } from '../support/cli-env';

const cleanup = new Cleanup();
const cli = bundledCli();

afterEach(() => cleanup.run());


describe('packdesk CLI', () => {
  it('runs as `npm run cli` and documents its exit codes in --help', async () => {
    const result = await new Promise<{ code: number | null; out: string }>((resolve, reject) => {
      const child = spawn('npm', ['run', '-s', 'cli', '--', '--help'], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, out }));
    });
    expect(result.code).toBe(0);
    expect(result.out).toContain('packdesk enqueue fulfilment ORDER_ID FULFILMENT_ID STATE');
    expect(result.out).toMatch(/Exit codes:[\s\S]*2 {2}bad arguments[\s\S]*4 {2}the order service could not be reached/);
    const docs = fs.readFileSync(path.join(REPO_ROOT, 'docs/cli.md'), 'utf8');
    for (const code of ['0', '1', '2', '3', '4', '5']) expect(docs).toMatch(new RegExp(`\\|\\s*${code}\\s*\\|`));
  });

  it('prints usage and exits 2 on bad arguments', async () => {
    for (const args of [
      ['bogus'],
      ['enqueue'],
      ['enqueue', 'units', 'ORD-1', 'IT-1', 'two', 'ITEM_UNAVAILABLE'],
      ['enqueue', 'fulfilment', 'ORD-1', 'FUL-1', 'SHIPPED'],
      ['enqueue', 'order-state', 'ORD-1'],
      ['retry', 'abc'],
      ['discard'],
      ['drain', '--timeout', '-3'],
      ['outbox', '--colour'],
      ['order'],
    ]) {
      const r = await cli.run(args, { PACKDESK_DATA_DIR: tempDir(cleanup) });
      expect({ args, code: r.code }).toEqual({ args, code: 2 });
      expect(r.stderr).toContain('Usage:');
    }
  });

  it('exits 3 when configuration is missing or the credentials are rejected', async () => {
    const noDir = await cli.run(['outbox'], {});
    expect(noDir.code).toBe(3);
    expect(noDir.stderr).toMatch(/PACKDESK_DATA_DIR/);
    const box = await sandbox(cleanup);
    const dir = tempDir(cleanup);
    const id = newDeliveryOrderIds(box)[0]!;
    expect((await cli.run(['enqueue', 'order-state', id, 'ACCEPTED', '--no-undo'], envFor(box, dir))).code).toBe(0);
    const noUrl = await cli.run(['drain'], { PACKDESK_DATA_DIR: dir });
    expect(noUrl.code).toBe(3);
    const rejected = await cli.run(['drain', '--until-empty', '--timeout', '10'], envFor(box, dir, { PACKDESK_CLIENT_SECRET: 'not-the-secret' }));
    expect(rejected.code).toBe(3);
    expect(rejected.stdout).toMatch(/remaining 1/);
    expect(rejected.stdout).toMatch(/rejected this terminal's credentials/);
  });

  it('enqueues, lists, drains and shows orders; refusals exit 1', async () => {
    const box = await sandbox(cleanup);
    const dir = tempDir(cleanup);
    const env = envFor(box, dir);
    const id = newDeliveryOrderIds(box)[0]!;

    const queued = await cli.run(['enqueue', 'order-state', id, 'accepted'], env);
    expect(queued.code).toBe(0);
    const [, entryId, requestId] = /^entry (\d+) request ([0-9a-f-]{36})$/m.exec(queued.stdout) ?? [];
    expect(entryId).toBe('1');
    expect(queued.stdout).toMatch(/sends after/);

    const listed = await cli.run(['outbox', '--json'], env);
    expect(listed.code).toBe(0);
    // A tap from the CLI is nobody's at the counter: its packer is null (issue 24).
    expect(JSON.parse(listed.stdout)).toMatchObject([{ id: 1, requestId, orderId: id, state: 'queued', summary: 'Accept order', packer: null }]);

    const twice = await cli.run(['enqueue', 'order-state', id, 'ACCEPTED'], env);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(/already waiting.*ALREADY_QUEUED/);

    // The undo window (5 s) passes inside the drain.
    const drained = await cli.run(['drain', '--until-empty', '--timeout', '30'], env);
    expect(drained.code).toBe(0);
    expect(drained.stdout).toMatch(/^sent 1, failed 0, remaining 0$/m);
    expect(box.appliedLog().map((a) => a.requestId)).toEqual([requestId]);

    const order = JSON.parse((await cli.run(['order', id, '--json'], env)).stdout);
    expect(order).toMatchObject({ id, waiting: 0, nextStep: { key: 'PACKING' } });
    const store = order.order.fulfillments.find((f: { type: string }) => f.type === 'STORE').fulfillmentId as string;
    const orders = JSON.parse((await cli.run(['orders', '--json'], env)).stdout);
    expect(orders.map((o: { id: string }) => o.id)).toEqual([id]);
    // Who marked it packed at this counter: nobody yet.
    expect(orders[0]).toMatchObject({ packer: null });
    expect((await cli.run(['orders'], env)).stdout).toMatch(new RegExp(`${id}\\s+Accepted\\s+next: Start packing`));

    expect((await cli.run(['enqueue', 'fulfilment', id, store, 'packing', '--no-undo'], env)).code).toBe(0);
    const backwards = await cli.run(['enqueue', 'fulfilment', id, store, 'PACKING'], env);
    expect(backwards.code).toBe(1);
    const units = await cli.run(['enqueue', 'units', id, order.order.items[0].itemId, '999', 'ITEM_UNAVAILABLE'], env);
    expect(units.code).toBe(1);
    expect(units.stderr).toMatch(/UNITS_OUT_OF_RANGE/);
    const cancel = await cli.run(['enqueue', 'order-state', id, 'CANCELLED'], env);
    expect(cancel.code).toBe(1);
    expect(cancel.stderr).toMatch(/reason/);
    expect((await cli.run(['order', 'ORD-NOT-HERE'], env)).code).toBe(1);
  });

  it('retries and discards a failed tap; drain exits 1 while one holds', async () => {
    const box = await sandbox(cleanup);
    const env = envFor(box, tempDir(cleanup));
    expect((await cli.run(['enqueue', 'order-state', 'ORD-0000001', 'ACCEPTED', '--no-undo'], env)).code).toBe(0);
    const drained = await cli.run(['drain', '--until-empty'], env);
    expect(drained.code).toBe(1);
    expect(drained.stdout).toMatch(/failed 1/);
    const outbox = await cli.run(['outbox'], env);
    expect(outbox.stdout).toMatch(/#1\s+failed\s+ORD-0000001\s+Accept order\s+attempts 1\s+last error: NOT_FOUND: .*ORD-0000001/);
    expect((await cli.run(['retry', '1'], env)).code).toBe(0);
    expect((await cli.run(['discard', '1'], env)).code).toBe(0);
    const again = await cli.run(['discard', '1'], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already discarded/);
    expect((await cli.run(['retry', '42'], env)).code).toBe(1);
    expect((await cli.run(['outbox'], env)).stdout).toBe('The outbox is empty.\n');
  });

  it('exits 4 when the service cannot be reached, keeping the tap', async () => {
    const box = await sandbox(cleanup);
    const env = envFor(box, tempDir(cleanup));
    expect((await cli.run(['enqueue', 'order-state', newDeliveryOrderIds(box)[0]!, 'ACCEPTED', '--no-undo'], env)).code).toBe(0);
    box.faults.set({ outage: 'refuse' });
    const r = await cli.run(['drain', '--until-empty', '--timeout', '1'], env);
    expect(r.code).toBe(4);
    expect(r.stdout).toMatch(/remaining 1/);
    expect(r.stdout).toMatch(/No connection/);
    box.faults.set({ outage: 'none' });
    expect((await cli.run(['drain', '--until-empty'], env)).code).toBe(0);
  });

  it('doctor prints one line per check and exits nonzero on any problem', async () => {
    const box = await sandbox(cleanup);
    const dir = tempDir(cleanup);
    const good = await cli.run(['doctor'], envFor(box, dir));
    expect(good.code).toBe(0);
    const names = ['data file', 'integrity', 'keychain', 'token server', 'order service', 'clock skew', 'order intake', 'orders', 'queue health', 'updates', 'settings', 'hub'];
    const lines = good.stdout.trim().split('\n');
    expect(lines).toHaveLength(names.length);
    names.forEach((n, i) => expect(lines[i]).toMatch(new RegExp(`^ok\\s+${n}`)));

    const bad = await cli.run(['doctor', '--json'], envFor(box, dir, { PACKDESK_CLIENT_SECRET: 'not-the-secret', PACKDESK_BASE_URL: 'http://127.0.0.1:9' }));
    expect(bad.code).toBe(1);
    const checks = JSON.parse(bad.stdout) as { name: string; ok: boolean; fix?: string }[];
    expect(checks.filter((c) => !c.ok).map((c) => c.name)).toEqual(['token server', 'order service', 'clock skew', 'order intake']);
    expect(checks.find((c) => c.name === 'token server')?.fix).toMatch(/client id and secret/);
  });

  it("doctor shows the app's update status, and a failed update as a problem", async () => {
    const box = await sandbox(cleanup);
    const dir = tempDir(cleanup);
    const none = await cli.run(['doctor'], envFor(box, dir));
    expect(none.stdout).toMatch(/^ok\s+updates\s+no update status saved yet/m);
    // What the app's updater saved after a download whose checksum did not match (test/main/updater-feed.test.ts).
    const status = {
      state: 'error',
      currentVersion: '1.0.0',
      availableVersion: '1.1.0',
      message: 'The downloaded update was damaged (its checksum does not match the feed), so it was deleted and not installed.',
      lastCheckAt: Date.now() - 60_000,
    };
    fs.writeFileSync(path.join(dir, 'update-status.json'), JSON.stringify({ status, savedAt: Date.now() }));
    const failed = await cli.run(['doctor'], envFor(box, dir));
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/^problem\s+updates\s+version 1\.0\.0, 1\.1\.0 offered: error \(The downloaded update was damaged.*\); last checked .* -> see "A terminal stuck on an old version" in docs\/update\.md$/m);
  });

  it('says so when it had to set a damaged data file aside', async () => {
    const box = await sandbox(cleanup);
    const dir = tempDir(cleanup);
    fs.writeFileSync(path.join(dir, 'packdesk.sqlite'), 'not sqlite at all '.repeat(100));
    const r = await cli.run(['outbox'], envFor(box, dir));
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/warning: .*damaged.*set aside as/);
    const doctor = await cli.run(['doctor'], envFor(box, dir));
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(/^problem\s+integrity\s+a damaged data file was set aside earlier/m);
  });
});
