/** `packdesk doctor` as a real child process against the real sandbox: it names the fault that is there. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSettingsStore } from '../../src/main/core/settings';
import { bundledCli } from '../support/bundle';
import { envFor } from '../support/cli-env';
import { Cleanup, sandbox, tempDir } from '../support/engine';

const cleanup = new Cleanup();
const cli = bundledCli();

afterEach(() => cleanup.run());

interface Check {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
  readonly fix?: string;
}

const checksOf = (stdout: string): Check[] => JSON.parse(stdout) as Check[];

describe('packdesk doctor', () => {
  it('on a data folder that cannot be opened, says so, and still checks the token server and the order service', async () => {
    const box = await sandbox(cleanup);
    // A file where the data folder should be: nothing can be created in it.
    const notAFolder = path.join(tempDir(cleanup), 'packdesk-data');
    fs.writeFileSync(notAFolder, 'a file, not a folder');
    const r = await cli.run(['doctor', '--json'], envFor(box, notAFolder));
    expect(r.code).toBe(1);
    const checks = checksOf(r.stdout);
    const byName = new Map(checks.map((c) => [c.name, c]));
    expect(byName.get('data file')?.ok).toBe(false);
    expect(byName.get('data file')?.detail).not.toMatch(/address/);
    expect(byName.get('token server')).toMatchObject({ ok: true });
    expect(byName.get('token server')?.detail).not.toMatch(/no token server address/);
    expect(byName.get('order service')).toMatchObject({ ok: true });
    expect(checks.filter((c) => !c.ok).map((c) => c.name)).toEqual(['data file', 'integrity', 'order intake', 'queue health', 'updates', 'settings']);
  });

  it("names a damaged settings.json of the app in the same folder, and one the app rebuilt until a manager saves settings", async () => {
    const box = await sandbox(cleanup);
    const dir = tempDir(cleanup);
    fs.writeFileSync(path.join(dir, 'settings.json'), '{"version":1,"environment":"production",');
    const damaged = checksOf((await cli.run(['doctor', '--json'], envFor(box, dir))).stdout).find((c) => c.name === 'settings');
    expect(damaged).toMatchObject({ ok: false });
    expect(damaged?.detail).toMatch(/settings\.json could not be read \(it is not valid JSON\)/);
    // As the app leaves it after such a start: rebuilt, still on production, not yet checked by a manager.
    openSettingsStore({ file: path.join(dir, 'settings.json') });
    const rebuilt = checksOf((await cli.run(['doctor', '--json'], envFor(box, dir))).stdout).find((c) => c.name === 'settings');
    expect(rebuilt).toMatchObject({ ok: false });
    expect(rebuilt?.detail).toMatch(/stays on production/);
    expect(rebuilt?.fix).toMatch(/manager/);
  });

  it("says when the token server's clock and the order service's disagree, rather than blaming this computer's clock", async () => {
    const box = await sandbox(cleanup);
    box.faults.set({ tokenClockOffsetMs: -3 * 3_600_000 });
    const r = await cli.run(['doctor', '--json'], envFor(box, tempDir(cleanup)));
    expect(r.code).toBe(1);
    const clock = checksOf(r.stdout).find((c) => c.name === 'clock skew');
    expect(clock).toMatchObject({ ok: false });
    expect(clock?.detail).toMatch(/token server's clock is 180 min behind the order service's/);
    expect(clock?.detail).not.toMatch(/this computer's clock/);
  });
});
