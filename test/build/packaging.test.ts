import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FuseState, FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { afterAll, describe, expect, it } from 'vitest';
import { electronBinaryPath, packdeskFuses } from '../../build/fuses.mjs';
import { REPO_ROOT } from '../support/paths';

const repo = REPO_ROOT;
/** The marker Electron puts before its fuse wire (@electron/fuses' constants; not exported by it). */
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const work = mkdtempSync(path.join(tmpdir(), 'packdesk-packaging-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * A stand-in for a packed Electron executable: filler bytes around the fuse sentinel and a V1
 * wire in Electron's default state. (The real binary cannot be downloaded here; the fuse wire
 * format is the same bytes @electron/fuses looks for in it.)
 */
function fakeElectronBinary(file: string): void {
  const defaults = [
    FuseState.ENABLE, // RunAsNode
    FuseState.DISABLE, // EnableCookieEncryption
    FuseState.ENABLE, // EnableNodeOptionsEnvironmentVariable
    FuseState.ENABLE, // EnableNodeCliInspectArguments
    FuseState.DISABLE, // EnableEmbeddedAsarIntegrityValidation
    FuseState.DISABLE, // OnlyLoadAppFromAsar
    FuseState.DISABLE, // LoadBrowserProcessSpecificV8Snapshot
    FuseState.ENABLE, // GrantFileProtocolExtraPrivileges
    FuseState.ENABLE, // WasmTrapHandlers
  ];
  writeFileSync(
    file,
    Buffer.concat([Buffer.alloc(4096, 0x90), Buffer.from(SENTINEL), Buffer.from([1, defaults.length, ...defaults]), Buffer.alloc(4096, 0x90)]),
  );
}

describe('Electron fuses at packaging', () => {
  it('flips exactly the hardening fuses on the packed binary (afterPack hook)', async () => {
    const appOutDir = path.join(work, 'linux-unpacked');
    mkdirSync(appOutDir, { recursive: true });
    const binary = path.join(appOutDir, 'packdesk');
    fakeElectronBinary(binary);
    const { default: afterPack } = await import('../../build/afterPack.mjs');
    await afterPack({ appOutDir, electronPlatformName: 'linux', packager: { appInfo: { productFilename: 'Packdesk' }, executableName: 'packdesk' } });
    const wire = (await getCurrentFuseWire(binary)) as unknown as Record<number, number>;
    expect(wire[FuseV1Options.RunAsNode]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.EnableNodeCliInspectArguments]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.EnableEmbeddedAsarIntegrityValidation]).toBe(FuseState.ENABLE);
    expect(wire[FuseV1Options.OnlyLoadAppFromAsar]).toBe(FuseState.ENABLE);
    expect(wire[FuseV1Options.EnableCookieEncryption]).toBe(FuseState.ENABLE);
    expect(wire[FuseV1Options.GrantFileProtocolExtraPrivileges]).toBe(FuseState.DISABLE);
    // Fuses we do not set keep Electron's default.
    expect(wire[FuseV1Options.LoadBrowserProcessSpecificV8Snapshot]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.WasmTrapHandlers]).toBe(FuseState.ENABLE);
  });

  it('fails the packaging when the binary has no fuse wire', async () => {
    const appOutDir = path.join(work, 'broken');
    mkdirSync(appOutDir, { recursive: true });
    writeFileSync(path.join(appOutDir, 'packdesk'), 'not electron');
    const { default: afterPack } = await import('../../build/afterPack.mjs');
    await expect(afterPack({ appOutDir, electronPlatformName: 'linux', packager: { appInfo: { productFilename: 'Packdesk' }, executableName: 'packdesk' } })).rejects.toThrow(/sentinel/);
  });

  it('finds the executable the way electron-builder names it', () => {
    const packager = { appInfo: { productFilename: 'Packdesk' }, executableName: 'packdesk' };
    expect(electronBinaryPath({ appOutDir: '/o/win-unpacked', electronPlatformName: 'win32', packager })).toBe(path.join('/o/win-unpacked', 'Packdesk.exe'));
    expect(electronBinaryPath({ appOutDir: '/o/linux-unpacked', electronPlatformName: 'linux', packager })).toBe(path.join('/o/linux-unpacked', 'packdesk'));
    expect(() => electronBinaryPath({ appOutDir: '/o', electronPlatformName: 'aix', packager })).toThrow(/unsupported/);
  });

  it('sets every fuse explicitly that matters for security', () => {
    const fuses = packdeskFuses() as unknown as Record<number, boolean>;
    expect(fuses[FuseV1Options.RunAsNode]).toBe(false);
    expect(fuses[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(false);
    expect(fuses[FuseV1Options.EnableNodeCliInspectArguments]).toBe(false);
    expect(fuses[FuseV1Options.EnableEmbeddedAsarIntegrityValidation]).toBe(true);
    expect(fuses[FuseV1Options.OnlyLoadAppFromAsar]).toBe(true);
    expect(fuses[FuseV1Options.EnableCookieEncryption]).toBe(true);
  });
});

describe('electron-builder configuration', () => {
  it('is accepted by electron-builder and packs only the build output, in an asar', async () => {
    const { getConfig, validateConfiguration } = await import('app-builder-lib/out/util/config/config');
    const { DebugLogger } = await import('builder-util');
    const config = await getConfig(repo, null, null);
    await validateConfiguration(config, new DebugLogger(false));
    expect(config.appId).toBe('com.packdesk.terminal');
    expect(config.productName).toBe('Packdesk');
    expect(config.asar).toBe(true);
    expect(config.npmRebuild).toBe(true);
    expect(config.files).toEqual([{ filter: ['out/**', '!out/**/*.map', 'package.json'] }]);
    expect(config.afterPack).toBe('./build/afterPack.mjs');
    // Fuses come from our hook only, so there is one place that sets them.
    expect(config.electronFuses).toBeUndefined();
    const targets = (t: unknown) => JSON.stringify(t);
    expect(targets(config.win?.target)).toContain('nsis');
    expect(targets(config.linux?.target)).toContain('AppImage');
    expect(targets(config.linux?.target)).toContain('deb');
    expect(config.publish).toEqual([{ provider: 'generic', url: '${env.PACKDESK_UPDATE_URL}', channel: 'latest' }]);
  });

  it('loads our afterPack hook the way electron-builder resolves hooks, and that hook flips the fuses', async () => {
    const { resolveFunction } = await import('app-builder-lib/out/util/resolve');
    const cwd = process.cwd();
    process.chdir(repo);
    let hook: unknown;
    try {
      hook = await resolveFunction<unknown>(undefined, './build/afterPack.mjs', 'afterPack', repo);
    } finally {
      process.chdir(cwd);
    }
    expect(typeof hook).toBe('function');
    const appOutDir = path.join(work, 'resolved-hook');
    mkdirSync(appOutDir, { recursive: true });
    fakeElectronBinary(path.join(appOutDir, 'packdesk'));
    await (hook as (ctx: unknown) => Promise<void>)({ appOutDir, electronPlatformName: 'linux', packager: { appInfo: { productFilename: 'Packdesk' }, executableName: 'packdesk' } });
    const wire = (await getCurrentFuseWire(path.join(appOutDir, 'packdesk'))) as unknown as Record<number, number>;
    expect(wire[FuseV1Options.RunAsNode]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.OnlyLoadAppFromAsar]).toBe(FuseState.ENABLE);
  });

  it('keeps native modules and the updater out of the main bundle', () => {
    const text = readFileSync(path.join(repo, 'electron.vite.config.ts'), 'utf8');
    expect(text).toMatch(/externalizeDeps: \{ include: \['better-sqlite3', 'keytar'/);
    expect(text).toMatch(/preload:[\s\S]*externalizeDeps: false/);
  });
});

describe('update feed at packaging (build/check-feed.ts)', () => {
  it('packages only an https feed without credentials, the rule the packaged app applies', async () => {
    const { packagingFeedProblem } = await import('../../build/check-feed');
    expect(packagingFeedProblem({ PACKDESK_UPDATE_URL: 'https://updates.example/packdesk' })).toBeNull();
    expect(packagingFeedProblem({})).toMatch(/not set/);
    expect(packagingFeedProblem({ PACKDESK_UPDATE_URL: '  ' })).toMatch(/not set/);
    expect(packagingFeedProblem({ PACKDESK_UPDATE_URL: 'http://updates.example/packdesk' })).toMatch(/must be https/);
    expect(packagingFeedProblem({ PACKDESK_UPDATE_URL: 'updates.example/packdesk' })).toMatch(/not a web address/);
    const withPassword = packagingFeedProblem({ PACKDESK_UPDATE_URL: 'https://ci:hunter2@updates.example/packdesk' });
    expect(withPassword).toMatch(/user name or password/);
    expect(withPassword).not.toContain('hunter2');
    expect(packagingFeedProblem({ PACKDESK_UPDATE_URL: 'https://updates.example/p\nprovider: s3' })).toMatch(/one line/);
  });

  it('runs before anything is built or packaged, and stops packaging with a non-zero exit', () => {
    const scripts = (JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.package?.startsWith('tsx build/check-feed.ts && ')).toBe(true);
    const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(repo, 'build/check-feed.ts')], {
      cwd: repo,
      env: { ...process.env, PACKDESK_UPDATE_URL: 'http://updates.example/packdesk' },
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('Packaging stopped');
  });
});
