/**
 * The page check beside the engine (openingCheck 'later'): a real data file on disk, really
 * damaged, checked on a worker thread while the engine takes taps; the mark it leaves makes the
 * next open set the file aside and salvage it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkLater, openStore } from '../../../../src/main/core/db';
import { createEngine } from '../../../../src/main/core/engine';
import { createLogger, MemorySink } from '../../../../src/main/core/log';
import { damagePages, leafPages } from '../../../support/damage';
import { Cleanup, tempDir } from '../../../support/engine';
import { until } from '../../../support/until';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const offline = { update: async () => ({ kind: 'transient' as const, message: 'offline', noAnswer: false }), probe: async () => false };
const TAPS = 300;

/** A data folder with TAPS queued taps, closed cleanly; returns its file. */
async function folderWithTaps(dir: string): Promise<string> {
  const engine = createEngine({ dataDir: dir, sender: offline, terminalId: 'T1', undoWindowMs: 0 });
  for (let i = 0; i < TAPS; i++) expect(engine.submitTap(`ORD-${1000 + i}`, { kind: 'orderState', state: 'ACCEPTED' }).ok).toBe(true);
  await engine.stop();
  return path.join(dir, 'packdesk.sqlite');
}

const brokenFiles = (dir: string): string[] =>
  fs.readdirSync(dir).filter((f) => f.startsWith('packdesk.sqlite.broken-') && !f.endsWith('-wal') && !f.endsWith('-shm'));

describe('checkLater', () => {
  it('finds a sound file sound, and names the damage in a damaged one', async () => {
    const dir = tempDir(cleanup);
    const file = await folderWithTaps(dir);
    expect(await checkLater(file).result).toEqual({ kind: 'ok' });
    const leaves = leafPages(file, 'outbox');
    damagePages(file, [leaves[Math.floor(leaves.length / 2)]!]);
    const found = await checkLater(file).result;
    expect(found.kind).toBe('damaged');
    expect(found.kind === 'damaged' && found.reason).toMatch(/page|tree|corrupt|malformed/i);
  });

  it('says it could not check a file that is not there, rather than calling it damaged', async () => {
    const found = await checkLater(path.join(tempDir(cleanup), 'packdesk.sqlite')).result;
    expect(found.kind).toBe('unchecked');
  });
});

describe('an engine whose pages are checked later', () => {
  it('takes taps at once, says the file is damaged when the check finds it, and the next open sets it aside with those taps salvaged', async () => {
    const dir = tempDir(cleanup);
    const file = await folderWithTaps(dir);
    const leaves = leafPages(file, 'outbox');
    damagePages(file, [leaves[Math.floor(leaves.length / 2)]!]);

    const said: string[] = [];
    let reported: (reason: string) => void = () => undefined;
    const damaged = new Promise<string>((resolve) => (reported = resolve));
    const engine = createEngine({
      dataDir: dir,
      sender: offline,
      terminalId: 'T1',
      undoWindowMs: 60_000,
      openingCheck: 'later',
      onDamaged: (reason) => reported(reason),
    });
    cleanup.add(() => engine.stop());
    engine.on('sync.status', (s) => said.push(s.notice?.code ?? ''));
    engine.start();
    // The packer is not kept waiting for the check: a tap made now is durable in the file.
    const tap = engine.submitTap('ORD-LATE', { kind: 'orderState', state: 'ACCEPTED' });
    expect(tap.ok).toBe(true);

    expect(await damaged).toMatch(/page|tree|corrupt|malformed/i);
    expect(engine.status().notice?.code).toBe('STORE_DAMAGED');
    expect(said).toContain('STORE_DAMAGED');
    expect(fs.existsSync(`${file}.damaged`)).toBe(true);
    await engine.stop();

    // What the host does next: open again. The file is set aside without a second check, its
    // readable taps (the one made after the start among them) come along, the mark goes with it.
    const reopened = createEngine({ dataDir: dir, sender: offline, terminalId: 'T1', undoWindowMs: 0, openingCheck: 'later' });
    cleanup.add(() => reopened.stop());
    expect(reopened.status().notice?.code).toBe('STORE_REPLACED');
    expect(reopened.status().message).toMatch(/Recovered \d+ of 301 taps/);
    expect(brokenFiles(dir)).toHaveLength(1);
    expect(fs.existsSync(`${file}.damaged`)).toBe(false);
    expect(reopened.listOutbox({ limit: 10_000 }).map((e) => e.orderId)).toContain('ORD-LATE');
  });

  it('leaves a sound file alone: no mark, no notice', async () => {
    const dir = tempDir(cleanup);
    const file = await folderWithTaps(dir);
    const sink = new MemorySink();
    const engine = createEngine({ dataDir: dir, sender: offline, terminalId: 'T1', openingCheck: 'later', log: createLogger([sink]), onDamaged: () => expect.fail('called damaged') });
    cleanup.add(() => engine.stop());
    engine.start();
    // The engine's page check ends on its own; its answer, said in the log, is all it does with it.
    const answers = (): string[] => sink.records.map((r) => r.msg).filter((m) => /^the data file (was checked|is damaged|could not be checked)/.test(m));
    await until("the engine's page check to answer", () => answers().length > 0);
    expect(answers()).toEqual(['the data file was checked page by page: sound']);
    expect(fs.existsSync(`${file}.damaged`)).toBe(false);
    expect(engine.status().notice?.code ?? null).not.toBe('STORE_DAMAGED');
  });
});

describe('a file marked damaged', () => {
  it('is set aside at open without being read, and the mark is gone with it', () => {
    const dir = tempDir(cleanup);
    const first = openStore({ dataDir: dir, now: Date.now });
    expect(first.ok).toBe(true);
    if (first.ok) first.value.close();
    const file = path.join(dir, 'packdesk.sqlite');
    fs.writeFileSync(`${file}.damaged`, '*** in database main *** Page 7: btree page has bad header\n');
    const again = openStore({ dataDir: dir, now: Date.now, openingCheck: 'later' });
    expect(again.ok).toBe(false);
    expect(!again.ok && again.problem.code).toBe('STORE_BROKEN');
    expect(!again.ok && again.problem.message).toMatch(/Page 7: btree page has bad header/);
    expect(brokenFiles(dir)).toHaveLength(1);
    expect(fs.existsSync(`${file}.damaged`)).toBe(false);
  });
});
