import { describe, expect, it } from 'vitest';
import {
  EnvVault,
  keychainService,
  KeytarVault,
  MemoryVault,
  NO_SECRET_SERVICE_MESSAGE,
  type KeychainBinding,
} from '../../../../src/main/core/auth';
import { SecretRegistry } from '../../../../src/main/core/log';
import { ProblemError } from '../../../../src/shared/result';

const tokens = { accessToken: 'access-123456', refreshToken: 'refresh-123456', tokenType: 'O-Bearer', expiresAt: 1_000 };

describe('MemoryVault', () => {
  it('saves, replaces and clears credentials and tokens, and registers the secret', async () => {
    const registry = new SecretRegistry();
    const vault = new MemoryVault({}, registry);
    expect(await vault.getCredentials()).toBeNull();
    await vault.setCredentials({ clientId: 'a', clientSecret: 'secret-one' });
    await vault.setCredentials({ clientId: 'b', clientSecret: 'secret-two' });
    expect(await vault.getCredentials()).toEqual({ clientId: 'b', clientSecret: 'secret-two' });
    expect(registry.redactText('x secret-two y')).toBe('x [redacted] y');
    await vault.setTokens(tokens);
    expect(await vault.getTokens()).toEqual(tokens);
    await vault.clear();
    expect(await vault.getCredentials()).toBeNull();
    expect(await vault.getTokens()).toBeNull();
  });
});

describe('EnvVault', () => {
  it('reads PACKDESK_CLIENT_ID and PACKDESK_CLIENT_SECRET and keeps tokens in memory', async () => {
    const registry = new SecretRegistry();
    const vault = new EnvVault({ PACKDESK_CLIENT_ID: 'store-7', PACKDESK_CLIENT_SECRET: 'env-secret-value' }, registry);
    expect(await vault.getCredentials()).toEqual({ clientId: 'store-7', clientSecret: 'env-secret-value' });
    expect(registry.redactText('env-secret-value')).toBe('[redacted]');
    expect((await vault.health()).ok).toBe(true);
    await vault.setTokens(tokens);
    expect(await vault.getTokens()).toEqual(tokens);
  });

  it('says what is missing and refuses to save credentials', async () => {
    const vault = new EnvVault({ PACKDESK_CLIENT_ID: 'store-7', PACKDESK_CLIENT_SECRET: '' });
    expect(await vault.getCredentials()).toBeNull();
    const health = await vault.health();
    expect(health.ok).toBe(false);
    expect(health.message).toContain('PACKDESK_CLIENT_SECRET');
    await expect(vault.setCredentials({ clientId: 'x', clientSecret: 'y' })).rejects.toThrow(/environment variables/);
  });
});

describe('KeytarVault without a working keychain', () => {
  it('gives the clear message when keytar cannot even be loaded (no libsecret), never crashes at import', async () => {
    const vault = new KeytarVault({
      environment: 'training',
      platform: 'linux',
      loadBinding: () => Promise.reject(new Error('libsecret-1.so.0: cannot open shared object file')),
    });
    const health = await vault.health();
    expect(health.ok).toBe(false);
    expect(health.message).toContain(NO_SECRET_SERVICE_MESSAGE);
    const error = await vault.setCredentials({ clientId: 'c', clientSecret: 'never-stored-secret' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProblemError);
    expect((error as ProblemError).problem).toMatchObject({ kind: 'auth', code: 'NO_KEYCHAIN' });
    expect((error as ProblemError).message).toContain(NO_SECRET_SERVICE_MESSAGE);
    expect((error as ProblemError).message).not.toContain('never-stored-secret');
  });

  it('times out on a keychain that never answers (e.g. locked with no prompt)', async () => {
    const never: KeychainBinding = {
      getPassword: () => new Promise(() => undefined),
      setPassword: () => new Promise(() => undefined),
      deletePassword: () => new Promise(() => undefined),
    };
    const vault = new KeytarVault({ environment: 'staging', platform: 'linux', timeoutMs: 20, loadBinding: async () => never });
    await expect(vault.getCredentials()).rejects.toThrow(/did not answer/);
  });

  it('ignores saved tokens that do not parse instead of using them', async () => {
    const store = new Map<string, string>([['Packdesk-training/tokens', '{"accessToken":42}']]);
    const api: KeychainBinding = {
      getPassword: async (s, a) => store.get(`${s}/${a}`) ?? null,
      setPassword: async (s, a, p) => void store.set(`${s}/${a}`, p),
      deletePassword: async (s, a) => store.delete(`${s}/${a}`),
    };
    const vault = new KeytarVault({ environment: 'training', loadBinding: async () => api });
    expect(await vault.getTokens()).toBeNull();
  });

  it('keeps each environment under its own service name', () => {
    expect(keychainService('training')).toBe('Packdesk-training');
    expect(keychainService('Production')).toBe('Packdesk-production');
    expect(() => keychainService('../x')).toThrow();
  });
});
