/**
 * The installers' nats-server (build/nats-server.mjs), tested with local fake archives (no network
 * here): the archive's SHA-256 is checked against the pin before anything is placed, the binary and
 * LICENSE land where electron-builder copies resources/nats-server/ from, and Packdesk finds and
 * runs what was placed there. The real pins name a version without CVE-2023-47090.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NATS_SERVER_PINS, NATS_SERVER_VERSION, prepareNatsServer, releaseUrl } from '../../build/nats-server.mjs';
import { compareVersions, findNatsServer, readNatsVersion, SAFE_NATS_VERSION } from '../../src/main/core/hub/server';
import { REPO_ROOT } from '../support/paths';

const work = mkdtempSync(path.join(tmpdir(), 'packdesk-nats-pack-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** An upstream-shaped archive: a folder named after the release holding the program, LICENSE and README. */
function fakeArchive(kind: 'tar.gz' | 'zip'): { file: string; pins: Record<string, { archive: string; sha256: string; binary: string }> } {
  const version = '9.9.9';
  const folder = kind === 'zip' ? `nats-server-v${version}-windows-amd64` : `nats-server-v${version}-linux-amd64`;
  const root = mkdtempSync(path.join(work, 'src-'));
  mkdirSync(path.join(root, folder));
  const binary = kind === 'zip' ? 'nats-server.exe' : 'nats-server';
  writeFileSync(path.join(root, folder, binary), '#!/bin/sh\necho "nats-server: v9.9.9"\n', { mode: 0o644 });
  writeFileSync(path.join(root, folder, 'LICENSE'), 'Apache License\nVersion 2.0, January 2004\n');
  writeFileSync(path.join(root, folder, 'README.md'), 'readme\n');
  const archive = `${folder}.${kind}`;
  const file = path.join(root, archive);
  if (kind === 'zip') execFileSync('zip', ['-qr', file, folder], { cwd: root });
  else execFileSync('tar', ['czf', file, folder], { cwd: root });
  const target = kind === 'zip' ? 'win32-x64' : 'linux-x64';
  return { file, pins: { [target]: { archive, sha256: sha256(file), binary } } };
}

describe('the installers\' nats-server', () => {
  for (const kind of ['tar.gz', 'zip'] as const) {
    it(`checks the pinned SHA-256 of the ${kind} archive, then places the program and its LICENSE`, async () => {
      const { file, pins } = fakeArchive(kind);
      const target = Object.keys(pins)[0]!;
      const asked: string[] = [];
      const fetchTo = async (url: string, to: string) => {
        asked.push(url);
        copyFileSync(file, to);
      };
      const cacheDir = path.join(work, `cache-${kind}`);
      const outDir = path.join(work, `out-${kind}`, target);
      const placed = await prepareNatsServer({ target, cacheDir, outDir, pins, version: '9.9.9', fetchTo });
      expect(asked).toEqual([releaseUrl('9.9.9', pins[target]!.archive)]);
      expect(asked[0]).toMatch(/^https:\/\/github\.com\/nats-io\/nats-server\/releases\/download\/v9\.9\.9\//);
      expect(placed.sha256).toBe(pins[target]!.sha256);
      expect(readFileSync(path.join(outDir, 'LICENSE'), 'utf8')).toMatch(/Apache License/);
      expect(statSync(placed.binary).mode & 0o111).not.toBe(0);
      // Packaged again: the cached archive is checked and reused, not fetched again.
      await prepareNatsServer({ target, cacheDir, outDir, pins, version: '9.9.9', fetchTo });
      expect(asked).toHaveLength(1);
    });
  }

  it('refuses an archive whose SHA-256 is not the pinned one and places nothing', async () => {
    const { file, pins } = fakeArchive('tar.gz');
    const wrong = { 'linux-x64': { ...pins['linux-x64']!, sha256: '0'.repeat(64) } };
    const outDir = path.join(work, 'out-wrong');
    const cacheDir = path.join(work, 'cache-wrong');
    await expect(
      prepareNatsServer({ target: 'linux-x64', cacheDir, outDir, pins: wrong, version: '9.9.9', fetchTo: async (_u, to) => copyFileSync(file, to) }),
    ).rejects.toThrow(/not the pinned 0{64}: refusing to ship it/);
    expect(existsSync(outDir)).toBe(false);
    expect(existsSync(path.join(cacheDir, wrong['linux-x64'].archive))).toBe(false);
  });

  it('puts it where the installed app looks (resources/nats-server/), and Packdesk finds and runs it', async () => {
    const { file, pins } = fakeArchive('tar.gz');
    const resources = path.join(work, 'linux-unpacked', 'resources');
    // electron-builder's extraResources copies build/nats-server/linux-x64 to resources/nats-server.
    const builder = readFileSync(path.join(REPO_ROOT, 'electron-builder.yml'), 'utf8');
    expect(builder).toMatch(/linux:[\s\S]*extraResources:\s*\n\s*- from: build\/nats-server\/linux-x64\s*\n\s*to: nats-server/);
    expect(builder).toMatch(/win:[\s\S]*extraResources:\s*\n\s*- from: build\/nats-server\/win32-x64\s*\n\s*to: nats-server/);
    expect(JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')).scripts.package).toMatch(/node build\/nats-server\.mjs && .*electron-builder$/);
    await prepareNatsServer({ target: 'linux-x64', cacheDir: path.join(work, 'cache-res'), outDir: path.join(resources, 'nats-server'), pins, version: '9.9.9', fetchTo: async (_u, to) => copyFileSync(file, to) });
    const found = findNatsServer({ resourcesPath: resources, pathEnv: '' });
    expect(found).toEqual({ ok: true, program: path.join(resources, 'nats-server', 'nats-server'), from: 'resources' });
    if (found.ok) expect(await readNatsVersion(found.program)).toEqual({ ok: true, version: '9.9.9' });
  });

  it('pins a nats-server without CVE-2023-47090 for Windows x64 and Linux x64', () => {
    expect(compareVersions(NATS_SERVER_VERSION, SAFE_NATS_VERSION)).toBeGreaterThanOrEqual(0);
    expect(Object.keys(NATS_SERVER_PINS).sort()).toEqual(['linux-x64', 'win32-x64']);
    for (const pin of Object.values(NATS_SERVER_PINS)) {
      expect(pin.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(pin.archive).toContain(`v${NATS_SERVER_VERSION}-`);
    }
  });
});
