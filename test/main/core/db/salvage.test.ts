/**
 * A really damaged data file: a real database written by the engine, some of its outbox and
 * orders pages overwritten on disk. The taps SQLite can still read are carried into the new file
 * (same requestIds, still queued), the manager is told how many were recovered and how many could
 * not be, in the status line, health and the CLI's doctor, and the damaged file is kept as it was.
 */
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../../../src/main/core/db';
import { createEngine } from '../../../../src/main/core/engine';
import { HISTORY_KEEP_MS, pruneHistory } from '../../../../src/main/core/outbox';
import { mustMove } from '../../../../src/main/core/outbox/lifecycle';
import { bundledCli } from '../../../support/bundle';
import { Cleanup, tempDir } from '../../../support/engine';
import { damagePages, leafPages } from '../../../support/damage';

const cleanup = new Cleanup();
const cli = bundledCli();
afterEach(() => cleanup.run());

const offline = { update: async () => ({ kind: 'transient' as const, message: 'offline', noAnswer: false }), probe: async () => false };
const TAPS = 300;
const sha = (file: string): string => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

describe('salvaging a damaged data file', () => {
  it.each([
    ['two outbox pages in the middle and an orders page', (outbox: number[], orders: number[]) => [outbox[Math.floor(outbox.length / 2)]!, outbox[Math.floor(outbox.length / 2) + 1]!, orders[0]!]],
    ['the last outbox page (its largest id is read from an index)', (outbox: number[]) => [outbox[outbox.length - 1]!]],
  ])('%s: carries the readable taps into the new file, says how many were and were not, keeps the damaged file', async (_label, choose) => {
    const dir = tempDir(cleanup);
    const file = path.join(dir, 'packdesk.sqlite');
    const first = createEngine({ dataDir: dir, sender: offline, terminalId: 'T1', undoWindowMs: 0 });
    for (let i = 0; i < TAPS; i++) expect(first.submitTap(`ORD-${1000 + i}`, { kind: 'orderState', state: 'ACCEPTED' }).ok).toBe(true);
    const before = new Map(first.listOutbox({ includeDone: true, limit: 10_000 }).map((e) => [e.requestId, e]));
    expect(before.size).toBe(TAPS);
    await first.stop();

    const outboxLeaves = leafPages(file, 'outbox');
    const orderLeaves = leafPages(file, 'orders');
    expect(outboxLeaves.length).toBeGreaterThan(6);
    damagePages(file, choose(outboxLeaves, orderLeaves));
    const damagedHash = sha(file);

    const engine = createEngine({ dataDir: dir, sender: offline, terminalId: 'T1', undoWindowMs: 0 });
    cleanup.add(() => engine.stop());
    const message = engine.status().message ?? '';
    expect(message).toMatch(/damaged/);
    const counts = /Recovered (\d+) of (\d+) taps \((\d+) still to send\)[^.]*; (\d+) could not be read/.exec(message);
    expect(counts, message).not.toBeNull();
    const [recovered, total, pending, lost] = counts!.slice(1).map(Number) as [number, number, number, number];
    expect(total).toBe(TAPS);
    expect(recovered + lost).toBe(TAPS);
    expect(lost).toBeGreaterThan(0);
    expect(recovered).toBeGreaterThan(TAPS / 2);
    expect(pending).toBe(recovered);

    // The recovered taps are the same taps: same requestId (the idempotency key), order and action, still queued.
    const after = engine.listOutbox({ includeDone: true, limit: 10_000 });
    expect(after).toHaveLength(recovered);
    for (const entry of after) {
      const was = before.get(entry.requestId);
      expect(was, entry.requestId).toBeDefined();
      expect({ orderId: entry.orderId, summary: entry.summary, state: entry.state }).toEqual({ orderId: was!.orderId, summary: was!.summary, state: 'queued' });
    }
    expect(engine.status().waiting).toBe(recovered);
    expect(engine.health().integrity).toMatch(/Recovered \d+ of 300 taps/);

    // The damaged file is kept for support exactly as it was.
    const aside = fs.readdirSync(dir).filter((f) => f.startsWith('packdesk.sqlite.broken-') && !f.endsWith('-wal') && !f.endsWith('-shm'));
    expect(aside).toHaveLength(1);
    expect(sha(path.join(dir, aside[0]!))).toBe(damagedHash);
    // Nothing else is left behind in the data folder (the working copy salvage read from is gone).
    expect(fs.readdirSync(dir).filter((f) => f.includes('salvage'))).toEqual([]);
    await engine.stop();

    // Later, doctor still says what was recovered and lost.
    const doctor = await cli.run(['doctor'], { PACKDESK_DATA_DIR: dir, PACKDESK_ENVIRONMENT: 'staging' });
    expect(doctor.stdout).toMatch(/integrity.*set aside earlier.*Recovered \d+ of 300 taps \(\d+ still to send\)[^.]*; \d+ could not be read/);
  });

  it('a file whose old history was pruned: the pruned taps are not counted as lost, and the taps after them are all found', async () => {
    const dir = tempDir(cleanup);
    const file = path.join(dir, 'packdesk.sqlite');
    const T0 = Date.UTC(2026, 0, 5, 9, 0);
    const opened = openStore({ dataDir: dir, now: () => T0 });
    if (!opened.ok) throw new Error(opened.problem.message);
    const store = opened.value;
    // Last year's 2,500 taps, all answered and pruned; then this week's 300, still queued.
    store.transaction(() => {
      for (let i = 0; i < 500; i++) {
        store.orders.ensure(`ORD-OLD-${i}`, T0);
        for (let n = 0; n < 5; n++) {
          const e = store.outbox.insert({ randomId: randomUUID(), orderId: `ORD-OLD-${i}`, action: { type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' }, createdAt: T0, sendAfter: T0, terminalId: 'T1' });
          mustMove(store.outbox, mustMove(store.outbox, e, 'claim', T0), 'deliver', T0, { sentNow: true });
        }
      }
    });
    const now = T0 + HISTORY_KEEP_MS + 10 * 24 * 60 * 60 * 1000;
    store.transaction(() => {
      for (let i = 0; i < TAPS; i++) {
        store.orders.ensure(`ORD-${1000 + i}`, now);
        store.outbox.insert({ randomId: randomUUID(), orderId: `ORD-${1000 + i}`, action: { type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' }, createdAt: now, sendAfter: now, terminalId: 'T1' });
      }
    });
    while (pruneHistory(store, { now, keepMs: HISTORY_KEEP_MS }).more);
    expect(store.outbox.counts().waiting).toBe(TAPS);
    store.checkpoint();
    store.close();

    const outboxLeaves = leafPages(file, 'outbox');
    damagePages(file, [outboxLeaves[Math.floor(outboxLeaves.length / 2)]!]);
    const engine = createEngine({ dataDir: dir, sender: offline, terminalId: 'T1', undoWindowMs: 0 });
    cleanup.add(() => engine.stop());
    const message = engine.status().message ?? '';
    const counts = /Recovered (\d+) of (\d+) taps \((\d+) still to send\)[^.]*; (\d+) could not be read/.exec(message);
    expect(counts, message).not.toBeNull();
    const [recovered, total, pending, lost] = counts!.slice(1).map(Number) as [number, number, number, number];
    // Every tap counted is one the file had: none of last year's pruned 2,500.
    expect(total).toBe(TAPS);
    expect(lost).toBeGreaterThan(0);
    expect(recovered + lost).toBe(TAPS);
    expect(pending).toBeGreaterThan(TAPS / 2);
    await engine.stop();
  });

  it('a file that is not a database at all: nothing can be read, and it says so', async () => {
    const dir = tempDir(cleanup);
    fs.writeFileSync(path.join(dir, 'packdesk.sqlite'), 'garbage '.repeat(1000));
    const engine = createEngine({ dataDir: dir, sender: offline, terminalId: 'T1', undoWindowMs: 0 });
    cleanup.add(() => engine.stop());
    expect(engine.status().message).toMatch(/No taps could be recovered from it/);
    expect(engine.listOutbox({ includeDone: true })).toEqual([]);
  });
});
