/**
 * The sender lease in the data file (real SQLite, two connections standing in for two processes):
 * a live holder is respected, a dead one is taken over, and the take-over is atomic: a second
 * process that also found the holder dead cannot take it while the first is taking it.
 */
import { spawn } from 'node:child_process';
import { afterEach, expect, it } from 'vitest';
import { openStore, type Store } from '../../../../src/main/core/db';
import { processAlive, takeSenderLease } from '../../../../src/main/core/outbox';
import { Cleanup, tempDir } from '../../../support/engine';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const now = () => 1000;

function open(dir: string, busyTimeoutMs = 5000): Store {
  const r = openStore({ dataDir: dir, now, busyTimeoutMs });
  if (!r.ok) throw new Error(r.problem.message);
  cleanup.add(() => r.value.close());
  return r.value;
}

function holdBy(store: Store, pid: number): void {
  store.transaction(() => store.lease.take(`holder-${pid}`, pid, 1));
}

it('respects a live holder and takes over from a dead one, releasing only its own lease', () => {
  const store = open(tempDir(cleanup));
  holdBy(store, 4001);
  expect(takeSenderLease(store, { now, pid: 5001, isAlive: (pid) => pid === 4001 })).toEqual({ ok: false, holderPid: 4001 });
  const taken = takeSenderLease(store, { now, pid: 5001, isAlive: () => false });
  expect(taken.ok).toBe(true);
  expect(store.lease.get()).toMatchObject({ pid: 5001 });
  if (taken.ok) taken.release();
  expect(store.lease.get()).toBeNull();
});

it('two processes that both find the holder dead: the second cannot take it while the first is taking it', () => {
  const dir = tempDir(cleanup);
  const first = open(dir);
  const second = open(dir, 50);
  holdBy(first, 4001);
  let secondTry: unknown = 'not tried';
  const taken = takeSenderLease(first, {
    now,
    pid: 5001,
    // Process 5002 looks at the lease at the worst moment: after 5001 found the holder dead, before it wrote.
    isAlive: (pid) => {
      if (pid === 4001 && secondTry === 'not tried') {
        try {
          secondTry = takeSenderLease(second, { now, pid: 5002, isAlive: (p) => p === 5001 });
        } catch (e) {
          secondTry = (e as { code?: string }).code;
        }
      }
      return pid === 5001 || pid === 5002;
    },
  });
  expect(taken.ok).toBe(true);
  // The second is held off by the first's IMMEDIATE transaction (busy), never handed the lease.
  expect(secondTry).toBe('SQLITE_BUSY');
  expect(second.lease.get()).toMatchObject({ pid: 5001 });
  // Asked again afterwards, it sees a live holder.
  expect(takeSenderLease(second, { now, pid: 5002, isAlive: (p) => p === 5001 })).toMatchObject({ ok: false });
  if (taken.ok) taken.release();
});

it.skipIf(process.platform !== 'linux')('a holder killed and not yet reaped (a zombie) is dead: its lease is taken over at once', async () => {
  // A shell that starts `sleep` and becomes another `sleep`: it never reaps the first.
  const parent = spawn('sh', ['-c', 'sleep 60 & echo $!; exec sleep 60'], { stdio: ['ignore', 'pipe', 'ignore'] });
  cleanup.add(() => void parent.kill('SIGKILL'));
  const pid = await new Promise<number>((resolve) => parent.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim()))));
  expect(processAlive(pid)).toBe(true);
  process.kill(pid, 'SIGKILL');
  for (let i = 0; i < 100 && processAlive(pid); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  // Still a pid kill(pid, 0) answers for, but a zombie.
  expect(() => process.kill(pid, 0)).not.toThrow();
  expect(processAlive(pid)).toBe(false);

  const store = open(tempDir(cleanup));
  holdBy(store, pid);
  const taken = takeSenderLease(store, { now, pid: 5001 });
  expect(taken.ok).toBe(true);
  if (taken.ok) taken.release();
});
