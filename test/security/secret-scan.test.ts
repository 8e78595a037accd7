/**
 * No secret and no token on disk or on the wire to the renderer. A session with real credentials
 * (a sandbox with a long random client secret, reached through a recording proxy so the test knows
 * every token issued) switches the terminal to it, taps through orders, has its token expire and
 * refreshed, is refused once with a wrong secret, exports a support bundle; then every byte of
 * the data folder (SQLite + WAL, logs, bundle, settings, PIN file) and every reply and event the
 * renderer received are searched for the secrets and tokens.
 *
 * The keychain variant runs only with PACKDESK_KEYRING=1 (npm test provides gnome-keyring in a
 * private D-Bus session); the in-memory variant always runs.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, TOKEN_PATH, type Sandbox } from '../../sandbox';
import { KeytarVault, MemoryVault } from '../../src/main/core/auth';
import type { CredentialVault } from '../../src/main/core/auth/vault';
import { createAppHost, type AppHost } from '../../src/main/core/host';
import type { CommandName, Environment } from '../../src/shared/ipc';
import { TRAINING } from '../support/credentials';

/** Forwards every request to the sandbox and remembers every token the token server hands out. */
async function recordingProxy(target: string, issued: Set<string>): Promise<{ url: string; grants: string[]; close(): Promise<void> }> {
  const grants: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'content-length') headers[k] = v;
      fetch(`${target}${req.url ?? '/'}`, { method: req.method, headers, ...(body.length ? { body } : {}) })
        .then(async (answer) => {
          const text = await answer.text();
          if (req.url?.startsWith(TOKEN_PATH)) {
            grants.push(new URLSearchParams(body.toString()).get('grant_type') ?? '?');
            if (answer.ok) {
              const json = JSON.parse(text) as { access_token?: string; refresh_token?: string };
              if (json.access_token) issued.add(json.access_token);
              if (json.refresh_token) issued.add(json.refresh_token);
            }
          }
          res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
          res.end(text);
        })
        .catch(() => res.destroy());
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    grants,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

/** Every file under a folder. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile());
}

/** Where any of the needles occurs (as UTF-8, or base64 of it) in the files; "" when nowhere. */
function findSecrets(files: readonly string[], needles: readonly string[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    const bytes = readFileSync(file);
    for (const needle of needles)
      for (const form of [needle, Buffer.from(needle).toString('base64')])
        if (bytes.includes(Buffer.from(form))) found.push(`${file} contains ${needle.slice(0, 6)}…`);
  }
  return found;
}

const variants: { name: string; enabled: boolean; vault: (env: Environment, service: string) => CredentialVault }[] = [
  {
    name: 'with the real keychain (gnome-keyring)',
    enabled: process.env.PACKDESK_KEYRING === '1',
    vault: (env, service) => new KeytarVault({ environment: env, service }),
  },
  { name: 'with the in-memory vault', enabled: true, vault: () => new MemoryVault() },
];

for (const variant of variants) {
  if (!variant.enabled) console.warn(`secret scan ${variant.name}: SKIPPED, needs PACKDESK_KEYRING=1 (npm test runs it with gnome-keyring)`);
  describe.skipIf(!variant.enabled)(`secret scan ${variant.name}${variant.enabled ? '' : ' (skipped: needs PACKDESK_KEYRING=1, which npm test sets)'}`, () => {
    const clientSecret = `cs-${randomBytes(48).toString('base64url')}`;
    const wrongSecret = `wrong-${randomBytes(32).toString('base64url')}`;
    const pin = '480213';
    const issued = new Set<string>();
    const seenByRenderer: unknown[] = [];
    const service = `PackdeskSecretScan-${randomBytes(4).toString('hex')}`;
    const vaults: CredentialVault[] = [];
    let sandbox: Sandbox;
    let proxy: Awaited<ReturnType<typeof recordingProxy>>;
    let dataDir: string;
    let host: AppHost;

    const call = async (command: CommandName, payload: unknown): Promise<unknown> => {
      const reply = await host.handle(command, payload);
      seenByRenderer.push(reply);
      if (!reply.ok) throw new Error(`${command}: ${reply.problem.message}`);
      return reply.value;
    };

    beforeAll(async () => {
      sandbox = await startSandbox({ clientId: 'store-4711', clientSecret, seed: 11, orderCount: 8, tokenTtlSeconds: 600 });
      proxy = await recordingProxy(sandbox.url, issued);
      dataDir = mkdtempSync(join(tmpdir(), 'packdesk-secret-scan-'));
      host = await createAppHost({
        shell: 'web',
        dataDir,
        version: '0.1.0-scan',
        vaultFor: (env) => {
          const v = env === 'training' ? new MemoryVault({ credentials: TRAINING }) : variant.vault(env, service);
          vaults.push(v);
          return v;
        },
        settingsOverride: { undoWindowMs: 0 },
        engineOptions: { pollMs: 200, backoff: { baseMs: 50, capMs: 500 } },
        startTraining: (log) => startSandbox({ log }),
      });
      host.subscribe((event, body) => seenByRenderer.push({ event, body }));
      await host.start();
    });

    afterAll(async () => {
      await host?.stop();
      for (const v of vaults) await v.clear().catch(() => undefined);
      await proxy?.close();
      await sandbox?.close();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    it('leaves neither the secret nor any token in the data folder, the bundle, or anything the renderer received', async () => {
      await call('pin.set', { newPin: pin });
      const credentials = { pin, environment: 'staging', authUrl: proxy.url, baseUrl: proxy.url, clientId: 'store-4711' };

      // A wrong secret first: refused, and it must not be kept anywhere either.
      expect(await call('credentials.save', { ...credentials, clientSecret: wrongSecret })).toMatchObject({ result: 'rejected' });
      // Malformed requests carrying the secret: refused without echoing it.
      expect((await host.handle('credentials.save', { ...credentials, clientSecret, extra: clientSecret })).ok).toBe(false);
      expect((await host.handle('credentials.save', { ...credentials, clientSecret, authUrl: `not a url ${clientSecret}` })).ok).toBe(false);

      expect(await call('credentials.save', { ...credentials, clientSecret })).toMatchObject({ result: 'saved' });
      const engine = host.engine()!;
      // New orders accept cleanly (some seeded ones are already cancelled or under way).
      const orders = sandbox.orders().filter((o) => o.orderState.toUpperCase() === 'CREATED').slice(0, 4);
      expect(orders).toHaveLength(4);
      for (const o of orders) await call('orders.add', { orderId: o.id });
      for (const o of orders) await call('taps.submit', { orderId: o.id, input: { kind: 'orderState', state: 'ACCEPTED' } });
      expect(await engine.drain({ untilEmpty: true, timeoutMs: 15_000 })).toMatchObject({ remaining: 0, failed: 0 });

      // Expire every token: the next sends get 401 and the token manager refreshes.
      sandbox.expireTokensNow();
      for (const o of orders) {
        const view = (await call('orders.get', { orderId: o.id })) as { nextStep: { key: string; fulfilmentId?: string } | null };
        if (view.nextStep?.fulfilmentId)
          await call('taps.submit', { orderId: o.id, input: { kind: 'fulfilment', fulfilmentId: view.nextStep.fulfilmentId, state: view.nextStep.key } });
      }
      expect(await engine.drain({ untilEmpty: true, timeoutMs: 15_000 })).toMatchObject({ remaining: 0, failed: 0 });
      expect(proxy.grants).toContain('refresh_token');
      expect(sandbox.appliedLog().length).toBeGreaterThanOrEqual(orders.length * 2);
      expect(issued.size).toBeGreaterThanOrEqual(4);

      for (const command of ['app.info', 'settings.get', 'sync.status', 'outbox.list', 'orders.list'] as const) await call(command, {});
      await call('settings.update', { pin, patch: { sounds: false } });
      const { path: bundle } = (await call('support.exportBundle', { pin })) as { path: string };

      // The PIN as a quoted string: bare digits could match part of a timestamp by chance.
      const needles = [clientSecret, wrongSecret, `"${pin}"`, ...issued];
      const scan = (): { files: string[]; found: string[] } => {
        const files = filesUnder(dataDir);
        return { files, found: findSecrets(files, needles) };
      };

      // While running (the SQLite WAL is live) ...
      const live = scan();
      expect(live.files.some((f) => f.endsWith('packdesk.sqlite'))).toBe(true);
      expect(live.files.some((f) => f.endsWith('packdesk.sqlite-wal'))).toBe(true);
      expect(live.files.some((f) => f.startsWith(bundle) && f.endsWith('packdesk.log'))).toBe(true);
      expect(live.files.some((f) => f.endsWith('settings.json'))).toBe(true);
      expect(readFileSync(join(dataDir, 'logs', 'packdesk.log'), 'utf8')).toContain('credentials saved');
      expect(live.found).toEqual([]);

      // ... in everything the renderer received ...
      const wire = JSON.stringify(seenByRenderer);
      for (const needle of [clientSecret, wrongSecret, ...issued]) expect(wire.includes(needle)).toBe(false);

      // ... and after a clean stop (the WAL checkpointed into the main file).
      await host.stop();
      expect(scan().found).toEqual([]);

      // The scan itself works: a token planted in a file is found.
      const planted = join(dataDir, 'planted.txt');
      writeFileSync(planted, `x${[...issued][0]}x`);
      expect(findSecrets([planted], needles)).toHaveLength(1);
    });
  });
}
