/**
 * The sender lock across real processes: when the holder died (SIGKILL), several processes that
 * start at the same moment all find it dead, and exactly one of them takes it over.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { bundle, runNode } from '../../../support/bundle';
import { REPO_ROOT } from '../../../support/paths';
import { Cleanup, tempDir } from '../../../support/engine';

const cleanup = new Cleanup();
afterAll(() => cleanup.run());

const ROUNDS = Number(process.env.LOCK_ROUNDS ?? 6);
const CHILDREN = Number(process.env.LOCK_CHILDREN ?? 4);

/** Starts a child that takes the lock and holds it until it is killed; resolves once it holds it, then kills it. */
async function deadHolder(script: string, dataDir: string): Promise<void> {
  const child = spawn(process.execPath, [script], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH, NODE_PATH: path.join(REPO_ROOT, 'node_modules'), RACE_MODE: 'die', RACE_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve();
    });
    child.on('close', () => reject(new Error(`holder exited early: ${out}`)));
  });
  expect(out.trim()).toBe('sender');
  child.kill('SIGKILL');
  await closed;
}

it(`after the holder died, exactly one of ${CHILDREN} processes starting together becomes the sender (${ROUNDS} rounds)`, { timeout: 120_000 }, async () => {
  const script = bundle('test/main/core/engine/race-child.ts', path.join(tempDir(cleanup, 'packdesk-lock-bin-'), 'race-child.cjs'));
  for (let round = 0; round < ROUNDS; round++) {
    const dataDir = tempDir(cleanup, 'packdesk-lock-');
    await deadHolder(script, dataDir);
    const startAt = String(Date.now() + 400);
    const runs = await Promise.all(
      Array.from({ length: CHILDREN }, () =>
        runNode(script, [], { RACE_MODE: 'sender', RACE_DATA_DIR: dataDir, RACE_START_AT: startAt, RACE_HOLD_MS: '1500' }),
      ),
    );
    const lines = runs.map((r) => r.stdout.trim() || `exit ${String(r.code)}: ${r.stderr.trim()}`).sort();
    expect(lines).toEqual([...Array.from({ length: CHILDREN - 1 }, () => 'not-sender'), 'sender']);
  }
});
