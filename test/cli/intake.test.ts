/** `packdesk intake --once`, `packdesk fetch` and doctor's intake line, as a child process against the sandbox. */
import { afterEach, describe, expect, it } from 'vitest';
import { TRAINING_SERVICE_PROVIDER_ID } from '../../sandbox';
import { bundledCli } from '../support/bundle';
import { Cleanup, sandbox, tempDir } from '../support/engine';
import { envFor } from '../support/cli-env';

const cleanup = new Cleanup();
const cli = bundledCli();

afterEach(() => cleanup.run());


describe('packdesk intake and fetch', () => {
  it('intake --once takes in every order (exit 0), then says unreachable with the cursor unchanged (exit 4), then no access (exit 3)', async () => {
    const box = await sandbox(cleanup, { orderCount: 10, arrivalEveryMs: 0, changesMinIntervalMs: 0 });
    const dir = tempDir(cleanup);
    const first = await cli.run(['intake', '--once', '--json'], envFor(box, dir));
    expect(first.code, first.stderr).toBe(0);
    const report = JSON.parse(first.stdout) as { kind: string; counts: { new: number }; status: { cursorAt: number } };
    expect(report).toMatchObject({ kind: 'completed', counts: { new: 10, updated: 0, unchanged: 0, failed: 0 } });

    const orders = await cli.run(['orders', '--json'], envFor(box, dir));
    const listed = JSON.parse(orders.stdout) as { id: string; order: { items: unknown[] } | null }[];
    expect(listed).toHaveLength(10);
    expect(listed.every((o) => o.order !== null && o.order.items.length > 0)).toBe(true);

    box.placeOrder();
    box.faults.set({ outage: 'refuse' });
    const offline = await cli.run(['intake', '--once'], envFor(box, dir));
    expect(offline.code).toBe(4);
    expect(offline.stdout).toContain(`cursor ${new Date(report.status.cursorAt).toISOString()}`);
    await fetch(`${box.adminUrl}/__sandbox/faults`, { method: 'POST', body: JSON.stringify({ outage: 'none', forbidReads: { changes: true, status: false } }) });
    const refused = await cli.run(['intake', '--once'], envFor(box, dir));
    expect(refused.code).toBe(3);
    expect(refused.stdout).toMatch(/no access/);
    const doctor = await cli.run(['doctor'], envFor(box, dir));
    expect(doctor.stdout).toMatch(/problem\s+order intake\s+This terminal has no access/);
  });

  it('intake without a service provider id exits 3; with --service-provider-id it runs', async () => {
    const box = await sandbox(cleanup, { orderCount: 3, arrivalEveryMs: 0, changesMinIntervalMs: 0 });
    const dir = tempDir(cleanup);
    const env = envFor(box, dir);
    delete (env as Record<string, string | undefined>).PACKDESK_SERVICE_PROVIDER_ID;
    const missing = await cli.run(['intake', '--once'], env);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('PACKDESK_SERVICE_PROVIDER_ID');
    const given = await cli.run(['intake', '--once', '--service-provider-id', TRAINING_SERVICE_PROVIDER_ID], env);
    expect(given.code, given.stderr).toBe(0);
    expect(given.stdout).toContain('new 3, updated 0, unchanged 0, failed 0');
    const doctor = await cli.run(['doctor', '--service-provider-id', TRAINING_SERVICE_PROVIDER_ID], env);
    expect(doctor.stdout).toMatch(/ok\s+order intake\s+access ok; last complete pass/);
    const unset = await cli.run(['doctor'], env);
    expect(unset.stdout).toMatch(/problem\s+order intake\s+no service provider id/);
    expect((await cli.run(['intake'], env)).code).toBe(2);
  });

  it('fetch ORDER_ID stores and prints one order (exit 0); an unknown id exits 1; no service exits 4', async () => {
    const box = await sandbox(cleanup, { orderCount: 3, arrivalEveryMs: 0 });
    const dir = tempDir(cleanup);
    const order = box.orders()[0]!;
    const fetched = await cli.run(['fetch', order.id, '--json'], envFor(box, dir));
    expect(fetched.code, fetched.stderr).toBe(0);
    const body = JSON.parse(fetched.stdout) as { result: string; order: { id: string; order: { items: unknown[] } } };
    expect(body.result).toBe('new');
    expect(body.order.order.items).toHaveLength(order.items.length);
    const unknown = await cli.run(['fetch', 'ORD-0000001'], envFor(box, dir));
    expect(unknown.code).toBe(1);
    box.faults.set({ outage: 'refuse' });
    expect((await cli.run(['fetch', order.id], envFor(box, dir))).code).toBe(4);
  });

  it('fetch believes the real later body after one stamped 9999-12-31, and never an earlier state under the same stamp', async () => {
    const box = await sandbox(cleanup, { orderCount: 6, arrivalEveryMs: 0 });
    const dir = tempDir(cleanup);
    const created = box.orders().find((o) => o.orderState === 'Created')!;
    type Fetched = { result: string; order: { nextStep: { key: string } | null; order: { orderState: string } } };
    const fetchJson = async (id: string): Promise<Fetched> => {
      const r = await cli.run(['fetch', id, '--json'], envFor(box, dir));
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as Fetched;
    };

    box.serveOrder({ ...created, updatedAt: '9999-12-31T23:59:59.999Z' });
    expect(await fetchJson(created.id)).toMatchObject({ result: 'new', order: { nextStep: { key: 'ACCEPT' } } });
    box.changeOrder(created.id, 'cancel'); // stamped now, as the service would
    const plain = await cli.run(['fetch', created.id], envFor(box, dir));
    expect(plain.stdout).toMatch(/updated/);
    expect(await fetchJson(created.id)).toMatchObject({ order: { nextStep: null, order: { orderState: 'Cancelled' } } });

    const other = box.orders().find((o) => o.orderState === 'Created' && o.id !== created.id)!;
    const stamp = new Date().toISOString();
    box.serveOrder({ ...other, orderState: 'Accepted', updatedAt: stamp });
    expect((await fetchJson(other.id)).order.order.orderState).toBe('Accepted');
    box.serveOrder({ ...other, orderState: 'Created', updatedAt: stamp });
    expect(await fetchJson(other.id)).toMatchObject({ result: 'unchanged', order: { order: { orderState: 'Accepted' } } });
  });
});
