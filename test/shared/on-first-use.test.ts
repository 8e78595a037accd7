import { describe, expect, it, vi } from 'vitest';
import { builtOnce, builtOnFirstUse } from '../../src/shared/on-first-use';
import { summarize } from '../../src/shared/orders/summary';
import { bareView } from '../support/orders';
import { COMMANDS, EVENTS, orderSummarySchema, orderViewSchema, settingsSchema } from '../../src/shared/ipc';

describe('values built on first use', () => {
  it('builds a value on its first call only, and gives the same value after', () => {
    const build = vi.fn(() => ({ built: true }));
    const value = builtOnce(build);
    expect(build).not.toHaveBeenCalled();
    const first = value();
    expect(value()).toBe(first);
    expect(value()).toBe(first);
    expect(build).toHaveBeenCalledTimes(1);
  });

  it('tries again after a build that threw, rather than keeping nothing', () => {
    let calls = 0;
    const value = builtOnce(() => {
      calls++;
      if (calls === 1) throw new Error('not yet');
      return calls;
    });
    expect(() => value()).toThrow('not yet');
    expect(value()).toBe(2);
    expect(value()).toBe(2);
  });

  it('builds each property of a table when it is read, once; one never read is never built', () => {
    const a = vi.fn(() => 'a');
    const b = vi.fn(() => 'b');
    const table = builtOnFirstUse({ a, b });
    expect(Object.keys(table)).toEqual(['a', 'b']);
    expect(a).not.toHaveBeenCalled();
    expect(table.a).toBe('a');
    expect(table.a).toBe('a');
    expect(a).toHaveBeenCalledTimes(1);
    expect(b).not.toHaveBeenCalled();
  });
});

describe('the IPC contract built on first use', () => {
  it('validates with one schema per view: every command and event that carries it has the same one', () => {
    expect(orderViewSchema()).toBe(orderViewSchema());
    expect(COMMANDS['orders.add'].result).toBe(orderViewSchema());
    expect(COMMANDS['settings.get'].result).toBe(settingsSchema());
    expect(EVENTS['settings.changed']).toBe(settingsSchema());
  });

  it('keeps a composed view’s rules and the paths of its errors (a queue row is the view without the body, plus facts)', () => {
    const row = summarize(bareView('ORD-1'));
    expect(orderSummarySchema().safeParse(row).success).toBe(true);
    const bad = orderSummarySchema().safeParse({ ...row, alarm: { kind: 'lost', changedAt: 1, raisedAt: 1 } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => i.path)).toEqual([['alarm', 'kind']]);
    // The body stays off a queue row: the row's schema has no `order`, the view's requires one.
    expect('order' in orderSummarySchema().shape).toBe(false);
    expect(orderViewSchema().safeParse(row).success).toBe(false);
  });
});
