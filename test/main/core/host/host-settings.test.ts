import { readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../../sandbox';
import { createRotatingFileSink, secrets } from '../../../../src/main/core/log';
import type { OrderView } from '../../../../src/shared/ipc';
import { startTestHost, type TestHost } from '../../../support/host';
import { firstIntakePass } from '../../../support/intake';

/** Orders still waiting for Accept: intake brings seeded orders in their real states, some already further along. */
const awaitsAccept = (o: Pick<OrderView, 'nextStep'>): boolean => o.nextStep?.key === 'ACCEPT';

describe('settings and credentials at the host', () => {
  let t: TestHost | null = null;
  let staging: Sandbox;
  afterEach(async () => {
    await t?.close();
    t = null;
  });
  beforeAll(async () => {
    staging = await startSandbox({ clientId: 'store-42', clientSecret: 'staging-secret-for-store-42', seed: 7, orderCount: 5 });
  });
  afterAll(async () => staging.close());

  it('saves settings with the PIN, applies them to the engine, and keeps them across a restart', async () => {
    t = await startTestHost();
    await t.call('pin.set', { newPin: '2468' });
    const next = await t.call('settings.update', { pin: '2468', patch: { undoWindowMs: 1500, concurrency: 2, sounds: false } });
    expect(next).toMatchObject({ undoWindowMs: 1500, concurrency: 2, sounds: false });
    const [order] = (await t.call('orders.list', {})).filter(awaitsAccept);
    const entry = await t.call('taps.submit', { orderId: order!.id, input: { kind: 'orderState', state: 'ACCEPTED' } });
    expect(entry.sendAfter - entry.createdAt).toBe(1500);
    const dir = t.dataDir;
    await t.host.stop();
    const again = await startTestHost({}, dir);
    try {
      expect(await again.call('settings.get', {})).toMatchObject({ undoWindowMs: 1500, concurrency: 2, sounds: false, environment: 'training' });
      expect((await again.call('app.info', {})).pinSet).toBe(true);
    } finally {
      await again.close();
    }
  });

  it('reports a corrupt settings file, sets it aside and runs on defaults', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'packdesk-host-'));
    writeFileSync(join(dir, 'settings.json'), 'garbage{');
    t = await startTestHost({}, dir);
    expect((await t.call('settings.get', {})).environment).toBe('training');
    expect(readdirSync(dir).some((f) => f.startsWith('settings.json.corrupt-'))).toBe(true);
    const log = readFileSync(join(t.host.logDir, 'packdesk.log'), 'utf8');
    expect(log).toContain('settings file set aside');
  });

  it('a corrupt settings file on a production terminal keeps it on production and says so on the sync bar until a manager saves settings', async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'packdesk-host-'));
    writeFileSync(join(dir, 'settings.json'), '{"version":1,"environment":"production","preferences":{"sounds":fal');
    t = await startTestHost({}, dir);
    expect(t.host.sandbox).toBeNull();
    expect((await t.call('settings.get', {})).environment).toBe('production');
    expect((await t.call('app.info', {})).environment).toBe('production');
    const seen: unknown[] = [];
    const status = await t.call('sync.status', {});
    expect(status.notice).toEqual({ code: 'SETTINGS_DAMAGED' });
    expect(status.message).toMatch(/settings file could not be read.*stays on production.*manager must check Settings/);
    // After a restart too: nothing was changed by itself, and nobody has looked yet.
    await t.host.stop();
    t = await startTestHost({}, dir);
    expect((await t.call('sync.status', {})).notice).toEqual({ code: 'SETTINGS_DAMAGED' });
    const unsubscribe = t.host.subscribe((event, body) => {
      if (event === 'sync.status') seen.push(body);
    });
    await t.call('pin.set', { newPin: '1357' });
    await t.call('settings.update', { pin: '1357', patch: { sounds: false } });
    unsubscribe();
    expect((await t.call('sync.status', {})).notice?.code).not.toBe('SETTINGS_DAMAGED');
    expect(seen.length).toBeGreaterThan(0);
    expect((seen.at(-1) as { notice?: { code: string } | null }).notice?.code).not.toBe('SETTINGS_DAMAGED');
  });

  it('refuses wrong credentials with "rejected" and saves nothing', async () => {
    t = await startTestHost();
    await t.call('pin.set', { newPin: '1357' });
    const answer = await t.call('credentials.save', {
      pin: '1357',
      environment: 'staging',
      authUrl: staging.url,
      baseUrl: staging.url,
      clientId: 'store-42',
      clientSecret: 'not-the-secret',
    });
    expect(answer.result).toBe('rejected');
    expect(answer.message).toMatch(/refused/);
    expect(JSON.stringify(answer)).not.toContain('not-the-secret');
    expect(await t.vaults.get('staging')?.getCredentials() ?? null).toBeNull();
    expect((await t.call('settings.get', {})).environment).toBe('training');
    expect(t.host.sandbox).not.toBeNull();
  });

  it('checks addresses before anything: production needs https', async () => {
    t = await startTestHost();
    await t.call('pin.set', { newPin: '1357' });
    const reply = await t.host.handle('credentials.save', {
      pin: '1357',
      environment: 'production',
      authUrl: staging.url,
      baseUrl: staging.url,
      clientId: 'store-42',
      clientSecret: 'staging-secret-for-store-42',
    });
    expect(reply).toMatchObject({ ok: false, problem: { kind: 'invalid', code: 'ADDRESS_NOT_HTTPS' } });
    expect((await t.call('settings.get', {})).environment).toBe('training');
  });

  it('switches to staging with good credentials: saved in the vault, engine restarted against the new service', async () => {
    t = await startTestHost({ settingsOverride: { undoWindowMs: 0 } });
    await t.call('pin.set', { newPin: '1357' });
    const answer = await t.call('credentials.save', {
      pin: '1357',
      environment: 'staging',
      authUrl: `${staging.url}/`,
      baseUrl: staging.url,
      clientId: 'store-42',
      clientSecret: 'staging-secret-for-store-42',
    });
    expect(answer).toEqual({
      result: 'saved',
      message: expect.stringContaining('staging'),
      code: 'SAVED',
      values: { environment: 'staging' },
    });
    expect(await t.vaults.get('staging')!.getCredentials()).toEqual({ clientId: 'store-42', clientSecret: 'staging-secret-for-store-42' });
    expect(await t.call('settings.get', {})).toMatchObject({ environment: 'staging', authUrl: staging.url, baseUrl: staging.url });
    expect(t.host.sandbox).toBeNull();
    expect(await t.call('orders.list', {})).toEqual([]);
    const orderId = staging.orders()[0]!.id;
    await t.call('orders.add', { orderId });
    await t.call('taps.submit', { orderId, input: { kind: 'orderState', state: 'ACCEPTED' } });
    await t.host.engine()!.drain({ untilEmpty: true, timeoutMs: 10_000 });
    expect(staging.appliedLog().some((a) => a.orderId === orderId)).toBe(true);
    expect((await t.call('sync.status', {})).credentials).toBe('ok');

    // A restart comes back in staging with the saved addresses; the training data stays apart.
    const dir = t.dataDir;
    const vaults = t.vaults;
    await t.host.stop();
    const again = await startTestHost({ vaultFor: (env) => vaults.get(env)! }, dir);
    try {
      expect((await again.call('settings.get', {})).environment).toBe('staging');
      expect((await again.call('orders.list', {})).map((o) => o.id)).toEqual([orderId]);
      // Back to training with the PIN: the practice queue is back.
      expect(await again.call('credentials.save', { pin: '1357', environment: 'training' })).toMatchObject({ result: 'saved' });
      expect(again.host.sandbox).not.toBeNull();
      // The seeded orders fill the queue in by themselves once intake has read them.
      await firstIntakePass(again.host);
      expect((await again.call('orders.list', {})).length).toBeGreaterThanOrEqual(30);
    } finally {
      await again.close();
    }
  });

  it('writes a support bundle with logs, health lines, outbox and settings', async () => {
    t = await startTestHost();
    await t.call('pin.set', { newPin: '1357' });
    const { path } = await t.call('support.exportBundle', { pin: '1357' });
    expect(path.startsWith(join(t.dataDir, 'support'))).toBe(true);
    expect(readdirSync(path).sort()).toEqual(['README.txt', 'doctor.txt', 'hub.json', 'info.json', 'logs', 'outbox.json', 'settings.json', 'status.json']);
    expect(readdirSync(join(path, 'logs'))).toContain('packdesk.log');
    const doctor = readFileSync(join(path, 'doctor.txt'), 'utf8');
    expect(doctor).toMatch(/ok\s+manager PIN/);
    expect(doctor).toMatch(/data file/);
    expect(doctor).toMatch(/ok\s+updates\s+no update status saved yet/);
    expect(JSON.parse(readFileSync(join(path, 'settings.json'), 'utf8'))).toMatchObject({ environment: 'training' });
    expect(JSON.parse(readFileSync(join(path, 'outbox.json'), 'utf8'))).toMatchObject({ available: true });
  });

  it("puts the Electron shell's log files in the bundle too, rotated ones included, redacted", async () => {
    t = await startTestHost();
    await t.call('pin.set', { newPin: '1357' });
    const logDir = t.host.logDir;
    // The shell's sink as src/main/index.ts makes it, small enough to rotate. Records go to the sink
    // directly, skipping the logger's own redaction, so only the bundle's redaction stands between
    // these secrets and the bundle.
    const shell = createRotatingFileSink({ dir: logDir, name: 'shell', maxBytes: 1024, keep: 3 });
    const bearer = 'eyJhbGciOiJIUzI1NiJ9.shell-token-Zq7x';
    const fieldSecret = 'shell-field-secret-Wk4r';
    const registered = 'shell-registered-secret-Pn2m';
    secrets.add(registered);
    for (let i = 0; i < 12; i++) {
      shell.write({
        time: new Date().toISOString(),
        level: 'warn',
        scope: 'shell',
        msg: `blocked navigation #${i} Authorization: Bearer ${bearer} after ${registered}`,
        fields: { url: 'https://example.invalid/', client_secret: fieldSecret },
      });
    }
    shell.close();
    expect(readdirSync(logDir)).toEqual(expect.arrayContaining(['shell.log', 'shell.1.log']));
    // Not ours, so not copied: another program's notes, and a link that only looks like a log.
    writeFileSync(join(logDir, 'notes.txt'), 'not a Packdesk log');
    const outside = join(t.dataDir, 'elsewhere.txt');
    writeFileSync(outside, 'outside the logs folder');
    symlinkSync(outside, join(logDir, 'linked.log'));

    const shellFiles = shell.files().map((f) => basename(f));
    const kept = shellFiles.flatMap((f) => [...readFileSync(join(logDir, f), 'utf8').matchAll(/navigation #(\d+)/g)].map((m) => m[1]));

    const { path } = await t.call('support.exportBundle', { pin: '1357' });
    expect(readdirSync(join(path, 'logs')).sort()).toEqual(['packdesk.log', ...shellFiles].sort());
    const shellText = shellFiles.map((f) => readFileSync(join(path, 'logs', f), 'utf8')).join('');
    // Every line the shell still has on disk, from the newest file and the rotated ones.
    expect([...shellText.matchAll(/navigation #(\d+)/g)].map((m) => m[1])).toEqual(kept);
    expect(kept).toContain('11');
    expect(shellText).toContain('Bearer [redacted]');
    expect(shellText).toContain('"client_secret":"[redacted]"');
    for (const secret of [bearer, fieldSecret, registered]) expect(shellText).not.toContain(secret);
    // Still one JSON record per line after redaction.
    for (const line of shellText.split('\n').filter(Boolean)) expect(JSON.parse(line)).toMatchObject({ scope: 'shell' });
    expect(readFileSync(join(path, 'README.txt'), 'utf8')).toMatch(/host and shell log files/);
  });
});
