/**
 * An order id with a lone surrogate or a bidi control is refused at every entry point, never
 * turned into another id: the IPC contract (the dispatcher the app and harness use), the engine's
 * scanner path (addOrder, on a real SQLite file) and taps, and the CLI as a real child process.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../../../src/main/core/engine';
import { createDispatcher, type HandlerTable } from '../../../../src/main/core/host/dispatch';
import { createLogger, MemorySink } from '../../../../src/main/core/log';
import { COMMANDS } from '../../../../src/shared/ipc';
import { ok } from '../../../../src/shared/result';
import { bundledCli } from '../../../support/bundle';
import { Cleanup, tempDir } from '../../../support/engine';

const cleanup = new Cleanup();
const cli = bundledCli();
afterEach(() => cleanup.run());

const BAD_IDS: readonly [string, string][] = [
  ['a lone high surrogate', 'ORD-\uD800123'],
  ['a lone low surrogate at the end', 'ORD-123\uDC00'],
  ['a right-to-left override', 'ORD-\u202E321'],
  ['a left-to-right isolate', 'ORD-\u2066123\u2069'],
  ['a right-to-left mark', '\u200FORD-123'],
  ['a zero-width space', 'ORD\u200B-123'],
];

const noSender = { update: async () => ({ kind: 'transient' as const, message: 'offline', noAnswer: false }), probe: async () => false };

describe('order ids that could turn into another id', () => {
  it.each(BAD_IDS)('IPC: orders.add, orders.get and taps.submit refuse %s', async (_label, id) => {
    const calls: string[] = [];
    const table = Object.fromEntries(
      Object.keys(COMMANDS).map((c) => [
        c,
        async () => {
          calls.push(c);
          return ok({});
        },
      ]),
    ) as unknown as HandlerTable;
    const dispatch = createDispatcher(table, createLogger([new MemorySink()]));
    for (const [command, payload] of [
      ['orders.add', { orderId: id }],
      ['orders.get', { orderId: id }],
      ['taps.submit', { orderId: id, input: { kind: 'orderState', state: 'ACCEPTED' } }],
    ] as const) {
      const reply = await dispatch(command, payload);
      expect({ command, ok: reply.ok }).toEqual({ command, ok: false });
    }
    expect(calls).toEqual([]);
  });

  it.each(BAD_IDS)('engine (scanner path and taps, real SQLite) refuses %s and stores nothing', async (_label, id) => {
    const engine = createEngine({ dataDir: tempDir(cleanup), sender: noSender, terminalId: 'T1', undoWindowMs: 0 });
    cleanup.add(() => engine.stop());
    const added = engine.addOrder(id);
    expect(added.ok).toBe(false);
    if (!added.ok) expect(added.problem).toMatchObject({ kind: 'invalid', code: 'BAD_ID' });
    const tapped = engine.submitTap(id, { kind: 'orderState', state: 'ACCEPTED' });
    expect(tapped.ok).toBe(false);
    expect(engine.listOrders()).toEqual([]);
    expect(engine.listOutbox({ includeDone: true })).toEqual([]);
  });

  it('a plain id is still taken exactly as given', async () => {
    const engine = createEngine({ dataDir: tempDir(cleanup), sender: noSender, terminalId: 'T1', undoWindowMs: 0 });
    cleanup.add(() => engine.stop());
    const added = engine.addOrder('  ORD-Ä-123  ');
    expect(added.ok && added.value.id).toBe('ORD-Ä-123');
  });

  it('CLI: enqueue and order refuse a bidi override in ORDER_ID (exit 2) and queue nothing', async () => {
    const dir = tempDir(cleanup);
    for (const args of [
      ['enqueue', 'order-state', 'ORD-\u202E321', 'ACCEPTED'],
      ['order', 'ORD-\u2067123'],
    ]) {
      const r = await cli.run(args, { PACKDESK_DATA_DIR: dir });
      expect({ args, code: r.code }).toEqual({ args, code: 2 });
      expect(r.stderr).toMatch(/ORDER_ID/);
    }
    const outbox = await cli.run(['outbox', '--json', '--all'], { PACKDESK_DATA_DIR: dir });
    expect(JSON.parse(outbox.stdout)).toEqual([]);
  });
});
