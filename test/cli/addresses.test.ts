/**
 * The CLI applies the app's address rule (production must be https) and refuses a whitespace-only
 * secret, before any byte leaves the machine: checked against a real listener on 127.0.0.1 that
 * records every request it sees.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/shared/ipc';
import { bundledCli } from '../support/bundle';
import { Cleanup, tempDir } from '../support/engine';

const cleanup = new Cleanup();
const cli = bundledCli();

afterEach(() => cleanup.run());

/** A plain-http listener that answers 503 and remembers each request's path and body. */
async function recorder(): Promise<{ url: string; seen: { path: string; body: string }[] }> {
  const seen: { path: string; body: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      seen.push({ path: req.url ?? '', body });
      res.writeHead(503).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.add(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

describe('CLI configuration', () => {
  it('refuses plain http addresses in production and sends nothing (exit 3)', async () => {
    const server = await recorder();
    for (const environment of [undefined, 'production']) {
      const r = await cli.run(['doctor'], {
        PACKDESK_DATA_DIR: tempDir(cleanup),
        PACKDESK_AUTH_URL: server.url,
        PACKDESK_BASE_URL: server.url,
        PACKDESK_CLIENT_ID: 'store-7',
        PACKDESK_CLIENT_SECRET: 'the-real-secret',
        ...(environment ? { PACKDESK_ENVIRONMENT: environment } : {}),
      });
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(/production token server address must start with https:\/\//);
    }
    expect(server.seen).toEqual([]);
  });

  it('accepts plain http on staging and training, as the app does', async () => {
    const server = await recorder();
    for (const environment of ['staging', 'training']) {
      const r = await cli.run(['outbox'], {
        PACKDESK_DATA_DIR: tempDir(cleanup),
        PACKDESK_AUTH_URL: server.url,
        PACKDESK_BASE_URL: server.url,
        PACKDESK_ENVIRONMENT: environment,
      });
      expect({ environment, code: r.code, stderr: r.stderr }).toEqual({ environment, code: 0, stderr: '' });
    }
  });

  it('refuses addresses the app refuses (user info, query)', async () => {
    for (const url of ['https://user:pw@auth.example.com', 'https://auth.example.com/?x=1', 'ftp://auth.example.com']) {
      const r = await cli.run(['outbox'], { PACKDESK_DATA_DIR: tempDir(cleanup), PACKDESK_AUTH_URL: url });
      expect({ url, code: r.code }).toEqual({ url, code: 3 });
    }
  });

  it('refuses an empty "?" or "#" part too (the URL parser drops them), sending nothing', async () => {
    const server = await recorder();
    for (const tail of ['/?', '?', '/#', '#', '/?#']) {
      const url = `${server.url}${tail}`;
      const r = await cli.run(['doctor'], {
        PACKDESK_DATA_DIR: tempDir(cleanup),
        PACKDESK_AUTH_URL: url,
        PACKDESK_BASE_URL: url,
        PACKDESK_ENVIRONMENT: 'staging',
        PACKDESK_CLIENT_ID: 'store-7',
        PACKDESK_CLIENT_SECRET: 'the-real-secret',
      });
      expect({ url, code: r.code }).toEqual({ url, code: 3 });
      expect(r.stderr).toMatch(/must not contain "\?" or "#" parts/);
    }
    expect(server.seen).toEqual([]);
  });

  it('refuses a whitespace-only client secret like an empty one, sending nothing', async () => {
    const server = await recorder();
    for (const secret of ['', '   ', '\t\n']) {
      const r = await cli.run(['doctor'], {
        PACKDESK_DATA_DIR: tempDir(cleanup),
        PACKDESK_AUTH_URL: server.url,
        PACKDESK_BASE_URL: server.url,
        PACKDESK_ENVIRONMENT: 'staging',
        PACKDESK_CLIENT_ID: 'store-7',
        PACKDESK_CLIENT_SECRET: secret,
      });
      // Doctor reports the missing credentials as a problem (exit 1), exactly as for an empty one.
      expect({ secret, code: r.code }).toEqual({ secret, code: 1 });
      expect(r.stdout).toMatch(/keychain.*PACKDESK_CLIENT_SECRET must both be set to a non-empty value/);
    }
    expect(server.seen.filter((s) => s.path.includes('oauth'))).toEqual([]);
  });
});

describe('the app takes the same rule for a secret', () => {
  it('credentials.save refuses a whitespace-only secret at the IPC boundary', () => {
    const payload = (clientSecret: string) => ({ pin: '1234', environment: 'staging', clientId: 'store-7', clientSecret });
    expect(COMMANDS['credentials.save'].payload.safeParse(payload('  \t ')).success).toBe(false);
    expect(COMMANDS['credentials.save'].payload.safeParse(payload(' s3cret ')).success).toBe(true);
  });
});
