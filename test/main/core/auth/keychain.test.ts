/**
 * The keytar vault against a real Secret Service (gnome-keyring under dbus-run-session).
 * Run with: dbus-run-session -- bash scripts/with-keyring.sh npx vitest run test/keychain
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../../sandbox';
import { KeytarVault, NO_SECRET_SERVICE_MESSAGE, TokenManager } from '../../../../src/main/core/auth';
import { createLogger, MemorySink, SecretRegistry } from '../../../../src/main/core/log';
import { ProblemError } from '../../../../src/shared/result';
import { TRAINING } from '../../../support/credentials';

const run = promisify(execFile);
const keyring = Boolean(process.env.PACKDESK_KEYRING);
const why = keyring ? '' : ' (SKIPPED: needs a real keychain; run under scripts/with-keyring.sh, which sets PACKDESK_KEYRING)';
if (!keyring) console.warn(`test/main/core/auth keychain tests skipped:${why}`);

// A fresh environment name per run, so runs never see each other's entries.
const environment = `test-${process.pid}-${randomBytes(3).toString('hex')}`;

/** Reads an entry with libsecret's own tool: proof the value is in the keyring, not in our memory. */
async function secretTool(service: string, account: string): Promise<string | null> {
  try {
    const { stdout } = await run('secret-tool', ['lookup', 'service', service, 'account', account]);
    return stdout;
  } catch {
    return null;
  }
}

describe.skipIf(!keyring)(`keytar vault on gnome-keyring${why}`, () => {
  const vault = new KeytarVault({ environment });
  const other = new KeytarVault({ environment: `${environment}-other` });

  afterAll(async () => {
    await vault.clear();
    await other.clear();
  });

  it('reports a working keychain after a real round trip', async () => {
    const health = await vault.health();
    expect(health).toEqual({ ok: true, message: `The keychain works; credentials are kept under "${vault.service}".` });
  });

  it('saves, reads, replaces and deletes the credentials', async () => {
    expect(await vault.getCredentials()).toBeNull();
    await vault.setCredentials({ clientId: 'store-12', clientSecret: 'first-secret-value' });
    expect(await vault.getCredentials()).toEqual({ clientId: 'store-12', clientSecret: 'first-secret-value' });
    expect(await secretTool(vault.service, 'client-secret')).toBe('first-secret-value');

    // A second instance (a restart) reads what the first saved.
    expect(await new KeytarVault({ environment }).getCredentials()).toEqual({ clientId: 'store-12', clientSecret: 'first-secret-value' });

    await vault.setCredentials({ clientId: 'store-12', clientSecret: 'second-secret-value' });
    expect(await vault.getCredentials()).toEqual({ clientId: 'store-12', clientSecret: 'second-secret-value' });

    await vault.clear();
    expect(await vault.getCredentials()).toBeNull();
    expect(await secretTool(vault.service, 'client-secret')).toBeNull();
  });

  it('saves, reads, replaces and deletes the tokens as JSON', async () => {
    const first = { accessToken: 'access-one-123', refreshToken: 'refresh-one-123', tokenType: 'O-Bearer', expiresAt: 1_700_000_000_000 };
    await vault.setTokens(first);
    expect(await vault.getTokens()).toEqual(first);
    const second = { accessToken: 'access-two-123', tokenType: 'O-Bearer', expiresAt: 1_700_000_900_000 };
    await vault.setTokens(second);
    expect(await vault.getTokens()).toEqual(second);
    await vault.setTokens(null);
    expect(await vault.getTokens()).toBeNull();
  });

  it('keeps environments apart', async () => {
    await vault.setCredentials({ clientId: 'training-id', clientSecret: 'training-secret-x' });
    expect(await other.getCredentials()).toBeNull();
    await other.setCredentials({ clientId: 'prod-id', clientSecret: 'prod-secret-xyz' });
    expect((await vault.getCredentials())?.clientId).toBe('training-id');
    expect((await other.getCredentials())?.clientId).toBe('prod-id');
  });

  it('says clearly that there is no Secret Service when D-Bus has none, and refuses to save', async () => {
    const child = join(__dirname, 'no-secret-service.child.ts');
    const { stdout } = await run(process.execPath, ['--import', 'tsx', child], {
      env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: `unix:path=/nonexistent/packdesk-${process.pid}/bus` },
      timeout: 30_000,
    });
    const answer = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as { health: { ok: boolean; message: string }; saveError: string | null };
    expect(answer.health.ok).toBe(false);
    expect(answer.health.message).toContain(NO_SECRET_SERVICE_MESSAGE);
    expect(answer.saveError).toContain(NO_SECRET_SERVICE_MESSAGE);
    expect(answer.saveError).not.toContain('child-secret-never-stored');
    // And nothing reached the real keychain.
    expect(await secretTool('Packdesk-training', 'client-id')).not.toBe('child-client');
  });

  it('the token manager keeps its tokens in the keychain, and a restart reuses them', async () => {
    const sandbox = await startSandbox({ seed: 5 });
    const sink = new MemorySink();
    const logger = createLogger([sink], { registry: new SecretRegistry(), minLevel: 'debug' });
    const tokenVault = new KeytarVault({ environment: `${environment}-tm`, logger });
    const first = new TokenManager({ authUrl: sandbox.url, vault: tokenVault, logger });
    try {
      await tokenVault.setCredentials(TRAINING);
      const header = await first.authorization();
      expect(header.ok).toBe(true);
      const saved = await secretTool(tokenVault.service, 'tokens');
      expect(saved && header.ok && header.value.endsWith(JSON.parse(saved).accessToken)).toBe(true);

      const restarted = new TokenManager({ authUrl: sandbox.url, vault: new KeytarVault({ environment: `${environment}-tm` }) });
      expect(await restarted.authorization()).toEqual(header);
      await restarted.close();
      expect(sandbox.stats().tokenRequests.client_credentials).toBe(1);
      const logs = JSON.stringify(sink.records);
      expect(logs).not.toContain(TRAINING.clientSecret);
      if (header.ok) expect(logs).not.toContain(header.value.split(' ')[1]);
    } finally {
      await first.close();
      await tokenVault.clear();
      await sandbox.close();
    }
  });

  it('rejects with a ProblemError the shell can show', async () => {
    const broken = new KeytarVault({ environment, platform: 'linux', loadBinding: () => Promise.reject(new Error('no libsecret')) });
    await expect(broken.getTokens()).rejects.toBeInstanceOf(ProblemError);
  });
});
