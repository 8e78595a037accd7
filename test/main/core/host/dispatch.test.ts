import { describe, expect, it } from 'vitest';
import { createDispatcher, INTERNAL_PROBLEM, type HandlerTable } from '../../../../src/main/core/host/dispatch';
import { MemorySink, createLogger, secrets } from '../../../../src/main/core/log';
import { COMMANDS, type CommandName } from '../../../../src/shared/ipc';
import { ok, type Result } from '../../../../src/shared/result';
import { VALID_PAYLOADS, malformedPayloads } from '../../../support/payloads';

const names = Object.keys(COMMANDS) as CommandName[];

/** A table whose handlers record their calls and answer `answer(command)`. */
function recordingTable(answer: (c: CommandName) => Promise<Result<unknown>>): { table: HandlerTable; calls: CommandName[] } {
  const calls: CommandName[] = [];
  const table = Object.fromEntries(
    names.map((c) => [
      c,
      async () => {
        calls.push(c);
        return answer(c);
      },
    ]),
  ) as unknown as HandlerTable;
  return { table, calls };
}

describe('the validating dispatcher', () => {
  it('has a well-formed sample payload for every command', () => {
    expect(Object.keys(VALID_PAYLOADS).sort()).toEqual([...names].sort());
    for (const c of names) expect(COMMANDS[c].payload.safeParse(VALID_PAYLOADS[c]).success, c).toBe(true);
  });

  it.each(names)('%s rejects every malformed payload with an invalid problem and runs nothing', async (command) => {
    const { table, calls } = recordingTable(async () => ok({}));
    const sink = new MemorySink();
    const dispatch = createDispatcher(table, createLogger([sink]));
    const variants = malformedPayloads(command);
    expect(variants.length).toBeGreaterThan(5);
    for (const { label, payload } of variants) {
      const reply = await dispatch(command, payload);
      expect(reply.ok, `${command} with ${label}`).toBe(false);
      if (!reply.ok) {
        expect(reply.problem.kind, label).toBe('invalid');
        expect(reply.problem.message, label).toMatch(new RegExp(`^The request ${command.replace('.', '\\.')} was not valid`));
      }
    }
    expect(calls).toEqual([]);
  });

  it('rejects unknown command names without running anything', async () => {
    const { table, calls } = recordingTable(async () => ok({}));
    const dispatch = createDispatcher(table, createLogger([]));
    for (const name of ['orders.delete', '__proto__', 'constructor', 'toString', '', 42, null, { command: 'app.info' }]) {
      const reply = await dispatch(name, {});
      expect(reply).toEqual({ ok: false, problem: expect.objectContaining({ kind: 'invalid', code: 'UNKNOWN_COMMAND' }) });
    }
    expect(calls).toEqual([]);
  });

  it('never echoes a secret from a malformed payload', async () => {
    const { table } = recordingTable(async () => ok({}));
    const dispatch = createDispatcher(table, createLogger([]));
    const reply = await dispatch('credentials.save', { ...VALID_PAYLOADS['credentials.save'], clientSecret: 'x'.repeat(5000) });
    expect(reply.ok).toBe(false);
    expect(JSON.stringify(reply)).not.toContain('xxxxxxxx');
  });

  it('turns a thrown error into a plain message and logs it redacted, without a stack', async () => {
    secrets.add('token-abcdef-123456');
    const { table } = recordingTable(async () => {
      throw new Error('boom with token-abcdef-123456');
    });
    const sink = new MemorySink();
    const reply = await createDispatcher(table, createLogger([sink]))('orders.list', {});
    expect(reply).toEqual({ ok: false, problem: INTERNAL_PROBLEM });
    const logged = JSON.stringify(sink.records);
    expect(logged).toContain('boom with [redacted]');
    expect(logged).not.toContain('at ');
  });

  it('refuses a result outside the contract', async () => {
    const { table } = recordingTable(async () => ok({ surprise: true }));
    const reply = await createDispatcher(table, createLogger([]))('settings.get', {});
    expect(reply).toEqual({ ok: false, problem: INTERNAL_PROBLEM });
  });

  it('passes a handler problem through, redacted', async () => {
    secrets.add('token-zyx-987654');
    const { table } = recordingTable(async () => ({ ok: false, problem: { kind: 'auth', message: 'refused token-zyx-987654', code: 'X' } }));
    const reply = await createDispatcher(table, createLogger([]))('sync.status', {});
    expect(reply).toEqual({ ok: false, problem: { kind: 'auth', message: 'refused [redacted]', code: 'X' } });
  });

  it('answers the parsed value when the handler succeeds', async () => {
    const { table, calls } = recordingTable(async () => ok({ valid: true }));
    const reply = await createDispatcher(table, createLogger([]))('pin.verify', { pin: '1234' });
    expect(reply).toEqual({ ok: true, value: { valid: true } });
    expect(calls).toEqual(['pin.verify']);
  });
});
