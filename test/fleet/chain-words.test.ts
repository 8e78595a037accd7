/**
 * Settings -> Chain's checks and words without a server: each field's problem as a code (every
 * field at once; TLS and credentials outside training), nats-server's leaf lines read as a refusal
 * by credentials or certificate, the state in one line for doctor and the bundle, and a credentials
 * file's seed masked in any log line or message.
 */
import { createUser, encodeUser, createAccount, fmtCreds } from '@nats-io/jwt';
import { describe, expect, it } from 'vitest';
import { leafLine } from '../../src/main/core/hub/chain/monitor';
import { SecretRegistry } from '../../src/main/core/log/redact';
import { chainFieldErrors, chainLine, chainOk, credentialsParts, NO_CHAIN } from '../../src/shared/chain';

async function creds(): Promise<string> {
  const user = createUser();
  return new TextDecoder().decode(fmtCreds(await encodeUser('store-1', user, createAccount()), user));
}

describe('chain link checks', () => {
  it('say every field’s problem at once, as codes', async () => {
    const good = { storeId: 'store-0123', url: 'tls://leaf.chain.example:7422', credentials: await creds(), ca: null };
    expect(chainFieldErrors(good, false)).toEqual({});
    expect(chainFieldErrors({ storeId: 'store 1', url: 'nats-leaf://127.0.0.1:7422', credentials: 'a shopping list', ca: 'not a cert' }, false)).toEqual({
      storeId: 'storeIdChars',
      url: 'urlTls',
      credentials: 'credsForm',
      ca: 'caForm',
    });
    expect(chainFieldErrors({ ...good, storeId: 'a.b', credentials: null }, false)).toEqual({ storeId: 'storeIdChars', credentials: 'credsMissing' });
    expect(chainFieldErrors({ ...good, storeId: '', url: 'http://x' }, false)).toEqual({ storeId: 'storeIdEmpty', url: 'urlForm' });
    // Training: a plain address and no credentials file.
    expect(chainFieldErrors({ ...good, url: 'nats-leaf://127.0.0.1:7422', credentials: null }, true)).toEqual({});
    expect(chainFieldErrors({ ...good, credentials: 'x'.repeat(20_000) }, false)).toEqual({ credentials: 'fileLarge' });
    expect(chainFieldErrors({ ...good, extra: 1 }, false)).toEqual({ request: 'request' });
    expect(credentialsParts(good.credentials)?.seed).toMatch(/^SU[A-Z2-7]{56}$/);
  });

  it('read nats-server’s leaf lines as what refused the link', () => {
    expect(leafLine("[13234] 2026/11/27 12:18:04.194577 [ERR] 127.0.0.1:38007 - lid:4 - Leafnode Error 'Authorization Violation'")).toEqual({ kind: 'refused', by: 'credentials', detail: 'Authorization Violation' });
    expect(leafLine('[13273] 2026/11/27 12:18:09.440815 [ERR] 127.0.0.1:38007 - lid:4 - TLS leafnode handshake error: x509: certificate signed by unknown authority')).toMatchObject({ kind: 'refused', by: 'certificate' });
    expect(leafLine('[1] 2026/11/27 12:18:09.440815 [ERR] Error trying to connect as leafnode to remote server "127.0.0.1:7422" (attempt 1): dial tcp 127.0.0.1:7422: connect: connection refused')).toMatchObject({ kind: 'unreachable' });
    expect(leafLine('[13197] 2026/11/27 12:17:56.454206 [INF] 127.0.0.1:38007 - lid:4 - Leafnode connection created for account: $G ')).toBeNull();
  });

  it('say the state in one line, fine only when not in a chain or linked', () => {
    const since = Date.UTC(2026, 10, 27, 9, 30);
    const base = { ...NO_CHAIN, role: 'hub' as const, storeId: 'store-7', centre: 'leaf.chain.example:7422' };
    expect(chainLine(NO_CHAIN)).toBe('not linked to a chain');
    expect(chainLine({ ...base, state: 'linked', since })).toBe('linked as store-7 to leaf.chain.example:7422 since 2026-11-27 09:30:00 UTC');
    expect(chainLine({ ...base, state: 'refused', refusedBy: 'credentials', since })).toContain('bad credentials');
    expect(chainLine({ ...base, state: 'cut', since })).toBe('link to leaf.chain.example:7422 cut since 2026-11-27 09:30:00 UTC');
    expect(chainOk({ ...base, state: 'linked' })).toBe(true);
    expect(chainOk({ ...base, state: 'connecting' })).toBe(false);
  });

  it('mask a credentials file’s seed in any text', async () => {
    const text = await creds();
    const seed = credentialsParts(text)!.seed;
    const redacted = new SecretRegistry().redactText(`could not read ${text}`);
    expect(redacted).not.toContain(seed);
    expect(redacted).toContain('[redacted]');
  });
});
