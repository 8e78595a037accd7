/**
 * No packdesk command ends silently before it settles (issue 38): a command left waiting on a timer
 * that does not hold the process open used to end with nothing printed and exit 0. The entry point's
 * guard says so and exits 1; a command that settles keeps its own exit code. The chain's fleet tool
 * ends through the same guard, in its own name.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endedEarlySaid } from '../../src/main/core/entry/exit-guard';
import { FLEET, PACKDESK } from './ended-early.programs';
import { bundle, runNode } from '../support/bundle';
import { Cleanup, tempDir } from '../support/engine';

const cleanup = new Cleanup();
let script = '';
beforeAll(() => {
  script = bundle('test/cli/ended-early.child.ts', path.join(tempDir(cleanup, 'packdesk-guard-'), 'child.cjs'));
});
afterAll(() => cleanup.run());

describe('the CLI exit guard', () => {
  it('a command the event loop leaves unsettled is said on stderr and exits 1, not 0', async () => {
    const r = await runNode(script, ['unref'], {});
    expect(r.stderr).toBe(endedEarlySaid(PACKDESK));
    expect(r.stderr).toMatch(/^packdesk: the command stopped before it finished: .* with --verbose\n$/);
    expect(r.code).toBe(1);
  });

  it('a command that settles exits with its own code and says nothing more', async () => {
    const r = await runNode(script, ['ref'], {});
    expect(r.stderr).toBe('');
    expect(r.code).toBe(4);
  });

  it('the fleet tool: unsettled is said in its name (no --verbose: it has none) and exits 1; settled keeps its code', async () => {
    const unsettled = await runNode(script, ['unref', 'fleet'], {});
    expect(unsettled.stderr).toBe(endedEarlySaid(FLEET));
    expect(unsettled.stderr).toMatch(/^fleet: the command stopped before it finished: .*give support its output\n$/);
    expect(unsettled.code).toBe(1);
    const settled = await runNode(script, ['ref', 'fleet'], {});
    expect(settled.stderr).toBe('');
    expect(settled.code).toBe(4);
  });
});
