/**
 * One bad order never hides the others: `intake --once`, `orders`, `order`, `doctor` and `fetch`
 * as a child process, against a sandbox serving bodies no service should send.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Order } from '../../src/shared/protocol';
import { bundledCli } from '../support/bundle';
import { Cleanup, sandbox, tempDir } from '../support/engine';
import { envFor } from '../support/cli-env';

const cleanup = new Cleanup();
const cli = bundledCli();

afterEach(() => cleanup.run());

// eslint-disable-next-line no-control-regex
const RAW_UNSHOWABLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\uFFFD]/;

/** `order` with two items of 5e15 units (each count valid alone, the sum past 2^53). */
function hugeCounts(order: Order): Order {
  return { ...order, items: [0, 1].map((n) => ({ ...order.items[0]!, itemId: `HUGE-${n}`, quantity: { count: 5e15 } })) };
}

/** `order` whose fulfilments' times are 1e300 and -1e20. */
function absurdTimes(order: Order): Order {
  return {
    ...order,
    fulfillments: order.fulfillments.map((f) => ({
      ...f,
      fulfilmentStatusHistory: { PACKED: { promised: { endTime: 1e300 } }, PACKING: { actual: { endTime: -1e20 } } },
    })),
  };
}

describe('orders the service sends wrong', () => {
  it('sets aside the unreadable ones by name, lists every other, and never prints a control or direction character raw', async () => {
    const box = await sandbox(cleanup, { orderCount: 6, arrivalEveryMs: 0, changesMinIntervalMs: 0 });
    const dir = tempDir(cleanup);
    const env = envFor(box, dir);
    const [a, b, c, d] = box.orders();
    box.serveOrder(hugeCounts(a!));
    box.serveOrder(absurdTimes(b!));
    const longId = `ORD-${'9'.repeat(200)}`;
    box.serveOrder({ ...c!, id: longId });
    const bidiId = `ORD-12\u202e34`;
    box.serveOrder({ ...d!, id: bidiId });

    const pass = await cli.run(['intake', '--once'], env);
    expect(pass.code, pass.stderr).toBe(0);
    expect(pass.stdout).toContain('could not be read 3');

    const listed = await cli.run(['orders'], env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).not.toMatch(RAW_UNSHOWABLE);
    const lines = listed.stdout.trim().split('\n');
    // The six seeded orders, the long id and the bidi id: the three unreadable ones are named as such.
    expect(lines).toHaveLength(8);
    expect(lines.filter((l) => l.includes('COULD NOT BE READ'))).toHaveLength(3);
    expect(listed.stdout).toContain('ORD-12\\u202E34');
    expect(lines.find((l) => l.startsWith(b!.id))).not.toContain('COULD NOT BE READ');

    // The order with impossible times opens, without them.
    const shown = await cli.run(['order', b!.id], env);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).not.toContain('packed promised by');

    const doctor = await cli.run(['doctor'], env);
    expect(doctor.stdout).toMatch(new RegExp(`^problem\\s+orders\\s+3 orders could not be read: .*${a!.id}`, 'm'));
    expect(doctor.stdout).not.toMatch(RAW_UNSHOWABLE);

    // When the service corrects the order, it is read again and no longer set aside.
    box.serveOrder({ ...a!, updatedAt: new Date().toISOString() });
    const fixed = await cli.run(['fetch', a!.id], env);
    expect(fixed.code, fixed.stderr).toBe(0);
    expect((await cli.run(['doctor'], env)).stdout).toMatch(/^problem\s+orders\s+2 orders could not be read/m);
  });

  it('refuses an order id with a character lost on the command line, or one too long, as bad arguments', async () => {
    const box = await sandbox(cleanup, { orderCount: 1, arrivalEveryMs: 0 });
    const env = envFor(box, tempDir(cleanup));
    // A lone surrogate reaches the program as U+FFFD.
    const lost = await cli.run(['fetch', 'ORD-12\ud80034'], env);
    expect(lost.code).toBe(2);
    expect(lost.stderr).toMatch(/U\+FFFD/);
    expect(lost.stderr).not.toMatch(RAW_UNSHOWABLE);
    const long = await cli.run(['order', `ORD-${'1'.repeat(130)}`], env);
    expect(long.code).toBe(2);
    expect(long.stderr).toMatch(/too long/);
  });
});
