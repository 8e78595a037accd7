/**
 * Several processes opening a new data folder at the same moment race the first migration; every
 * one of them must still queue its tap (real child processes on a real file).
 */
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { bundle, runNode } from '../../../support/bundle';
import { Cleanup, tempDir } from '../../../support/engine';

const cleanup = new Cleanup();
afterAll(() => cleanup.run());

const ROUNDS = 12;
const CHILDREN = 4;

it(`${CHILDREN} processes starting on a new data folder all queue their taps (${ROUNDS} rounds)`, { timeout: 120_000 }, async () => {
  const script = bundle('test/main/core/engine/race-child.ts', path.join(tempDir(cleanup, 'packdesk-race-bin-'), 'race-child.cjs'));
  const lines: string[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const dataDir = path.join(tempDir(cleanup, 'packdesk-race-'), 'data');
    const startAt = String(Date.now() + 400);
    const runs = await Promise.all(
      Array.from({ length: CHILDREN }, (_, i) =>
        runNode(script, [], { RACE_MODE: 'enqueue', RACE_DATA_DIR: dataDir, RACE_START_AT: startAt, RACE_ORDER: `ORD-RACE-${i}` }),
      ),
    );
    for (const r of runs) lines.push(r.stdout.trim() || `exit ${String(r.code)}: ${r.stderr.trim()}`);
  }
  expect(lines.filter((l) => l !== 'ok')).toEqual([]);
  expect(lines).toHaveLength(ROUNDS * CHILDREN);
});
