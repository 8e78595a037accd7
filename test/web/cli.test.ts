/** `npm run web` (after its build step): the CLI prints the URL, serves the app, and stops cleanly on SIGTERM. */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_RENDERER_DIR } from '../../src/web';
import { REPO_ROOT } from '../support/paths';

const root = REPO_ROOT;

describe('npm run web', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'packdesk-web-cli-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('prints "Packdesk (training) at <url>", serves the app there, and exits 0 on SIGTERM', async () => {
    expect(existsSync(join(DEFAULT_RENDERER_DIR, 'index.html')), 'run `npm run build` first').toBe(true);
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/web/cli.ts', '--data-dir', dataDir], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    await expect.poll(() => out, { timeout: 30_000 }).toMatch(/Packdesk \(training\) at http:\/\/127\.0\.0\.1:\d+\/#t=\S+/);
    const url = /at (\S+)/.exec(out)![1]!;
    const origin = new URL(url).origin;
    const page = await fetch(`${origin}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('/packdesk-bridge.js');
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(err).toBe('');
    expect(readdirSync(join(dataDir, 'logs'))).toContain('packdesk.log');
  });

  it('refuses unknown flags with the usage and exit code 2', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/web/cli.ts', '--nope'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    expect(await new Promise((r) => child.once('exit', r))).toBe(2);
    expect(err).toContain('usage: npm run web');
  });
});
