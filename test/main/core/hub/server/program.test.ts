/** Finding nats-server (explicit path, installer resources, PATH, /usr/sbin) and the version rule for listening beyond 127.0.0.1. */
import { describe, expect, it } from 'vitest';
import { compareVersions, findNatsServer, parseNatsVersion, readNatsVersion, versionRefusal } from '../../../../../src/main/core/hub/server';

describe('finding nats-server', () => {
  const present = (...files: string[]) => (file: string) => files.includes(file);

  it('takes PACKDESK_NATS_SERVER first, then the installer resources, then the PATH, then /usr/sbin', () => {
    const all = present('/opt/x/nats-server', '/app/resources/nats-server/nats-server', '/usr/bin/nats-server', '/usr/sbin/nats-server');
    const base = { platform: 'linux' as const, exists: all, pathEnv: '/usr/bin:/bin' };
    expect(findNatsServer({ ...base, explicit: '/opt/x/nats-server', resourcesPath: '/app/resources' })).toMatchObject({ program: '/opt/x/nats-server', from: 'explicit' });
    expect(findNatsServer({ ...base, resourcesPath: '/app/resources' })).toMatchObject({ program: '/app/resources/nats-server/nats-server', from: 'resources' });
    expect(findNatsServer(base)).toMatchObject({ program: '/usr/bin/nats-server', from: 'path' });
    expect(findNatsServer({ ...base, pathEnv: '/bin' })).toMatchObject({ program: '/usr/sbin/nats-server', from: 'system' });
  });

  it('says in words when the explicit path is wrong or nothing is installed', () => {
    expect(findNatsServer({ platform: 'linux', exists: () => false, explicit: '/nope' })).toMatchObject({ ok: false, message: expect.stringMatching(/PACKDESK_NATS_SERVER does not exist: \/nope/) });
    expect(findNatsServer({ platform: 'win32', exists: () => false, pathEnv: '' })).toMatchObject({ ok: false, message: expect.stringMatching(/missing from this installation; reinstall/) });
  });

  it('reads the version of the real program', async () => {
    const found = findNatsServer();
    if (!found.ok) throw new Error(found.message);
    expect(await readNatsVersion(found.program)).toEqual({ ok: true, version: '2.9.10' });
    expect(parseNatsVersion('nats-server: v2.10.22')).toBe('2.10.22');
  });
});

describe('the version rule (CVE-2023-47090)', () => {
  it('allows 127.0.0.1 with any version and the network only from 2.9.23 on', () => {
    expect(versionRefusal('2.9.10', '127.0.0.1')).toBeNull();
    expect(versionRefusal('2.9.22', '0.0.0.0')).toMatch(/older than 2\.9\.23/);
    expect(versionRefusal('2.9.10', '192.168.1.5')).toMatch(/CVE-2023-47090/);
    expect(versionRefusal('2.9.23', '0.0.0.0')).toBeNull();
    expect(versionRefusal('2.10.1', '192.168.1.5')).toBeNull();
    expect(compareVersions('2.10.0', '2.9.23')).toBeGreaterThan(0);
  });
});
