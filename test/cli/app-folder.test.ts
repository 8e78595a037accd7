/**
 * The CLI pointed at the app's data folder (README: PACKDESK_DATA_DIR=~/.config/Packdesk) finds the
 * environment's data file the way the app does, `<folder>/environments/<env>/packdesk.sqlite`, and
 * never makes a data file in a folder that holds `environments/` (issue 38).
 */
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

describe("the CLI on the app's data folder", () => {
  it("reads the app's environment file (settings' environment, or --environment), and refuses an environment it does not hold without making a file", async () => {
    const box = await sandbox(cleanup, { orderCount: 5, arrivalEveryMs: 0, changesMinIntervalMs: 0 });
    const folder = tempDir(cleanup, 'packdesk-app-folder-');
    const staging = path.join(folder, 'environments', 'staging');
    // What the app leaves: its settings on staging, and staging's engine file holding the orders.
    openSettingsStore({ file: path.join(folder, 'settings.json') }).switchTo('staging', { authUrl: box.url, baseUrl: box.url });
    expect((await cli.run(['intake', '--once'], envFor(box, staging))).code).toBe(0);
    const straySqlite = path.join(folder, 'packdesk.sqlite');
    const env = envFor(box, folder);

    const named = await cli.run(['orders', '--json'], env);
    expect(named.code, named.stderr).toBe(0);
    expect(JSON.parse(named.stdout)).toHaveLength(5);

    // No --environment: the one the app's settings name.
    const fromSettings = { ...env };
    delete (fromSettings as Record<string, string | undefined>).PACKDESK_ENVIRONMENT;
    const listed = await cli.run(['orders', '--json'], fromSettings);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toHaveLength(5);

    const production = await cli.run(['orders', '--json', '--environment', 'production'], env);
    expect(production.code).toBe(3);
    expect(production.stdout).toBe('');
    expect(production.stderr).toMatch(/is the app's data folder, and it holds no production data file \(environments\/production\/packdesk\.sqlite\); it has staging: pass --environment staging .*Nothing was created/);
    expect(fs.existsSync(path.join(folder, 'environments', 'production'))).toBe(false);
    expect(fs.existsSync(straySqlite)).toBe(false);

    // Doctor reads the app's settings and update status beside environments/, the engine's file inside.
    const doctor = await cli.run(['doctor'], env);
    expect(doctor.stdout).toMatch(/^ok\s+data file\s+.*environments\/staging\/packdesk\.sqlite/m);
    expect(doctor.stdout).toMatch(/^ok\s+settings\s+settings\.json reads fine/m);
    expect(fs.existsSync(straySqlite)).toBe(false);
  });

  it('says a data file an older packdesk made beside environments/ is not the app\'s, and does not use it', async () => {
    const box = await sandbox(cleanup, { orderCount: 3, arrivalEveryMs: 0, changesMinIntervalMs: 0 });
    const folder = tempDir(cleanup, 'packdesk-app-folder-');
    expect((await cli.run(['intake', '--once'], envFor(box, path.join(folder, 'environments', 'staging')))).code).toBe(0);
    fs.writeFileSync(path.join(folder, 'packdesk.sqlite'), '');
    const r = await cli.run(['orders', '--json'], envFor(box, folder));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(3);
    expect(r.stderr).toMatch(/warning: .*packdesk\.sqlite is not the app's data file/);
  });
});
