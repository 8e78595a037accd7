/**
 * A token server or order service whose certificate this computer does not trust is said as a
 * certificate problem (its own exit code, 7), never as "could not be reached, check the network":
 * a real https server on 127.0.0.1 with a self-signed certificate made for this test by openssl.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bundledCli } from '../support/bundle';
import { envFor } from '../support/cli-env';
import { Cleanup, sandbox, tempDir } from '../support/engine';

const cleanup = new Cleanup();
const cli = bundledCli();

afterEach(() => cleanup.run());

/** An https listener with a fresh self-signed certificate for 127.0.0.1; counts the requests that got through. */
async function selfSigned(): Promise<{ url: string; requests: () => number }> {
  const dir = tempDir(cleanup, 'packdesk-cert-');
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
    '-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
  ], { stdio: 'ignore' });
  let requests = 0;
  const server = https.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) }, (req, res) => {
    requests += 1;
    req.resume();
    res.writeHead(503).end();
  });
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.add(() => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  }));
  return { url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, requests: () => requests };
}

const envAt = (url: string, dataDir: string): Record<string, string> => ({
  PACKDESK_DATA_DIR: dataDir,
  PACKDESK_AUTH_URL: url,
  PACKDESK_BASE_URL: url,
  PACKDESK_CLIENT_ID: 'store-7',
  PACKDESK_CLIENT_SECRET: 'the-real-secret',
  PACKDESK_ENVIRONMENT: 'production',
  PACKDESK_SERVICE_PROVIDER_ID: 'SP-1',
});

describe('an untrusted certificate', () => {
  it('intake --once and fetch exit 7 and say it is the certificate, not the network; nothing is sent', async () => {
    const server = await selfSigned();
    const dir = tempDir(cleanup);
    for (const args of [['intake', '--once'], ['fetch', 'ORD-1']]) {
      const r = await cli.run(args, envAt(server.url, dir));
      const said = `${r.stdout}${r.stderr}`;
      expect({ args, code: r.code }).toEqual({ args, code: 7 });
      expect(said).toMatch(/certificate is not trusted: it is self-signed/);
      expect(said).toMatch(/not a network fault/);
      expect(said).not.toMatch(/could not be reached/);
    }
    expect(server.requests()).toBe(0);
  });

  it('drain keeps the tap and exits 7, saying it is the certificate', async () => {
    const server = await selfSigned();
    const dir = tempDir(cleanup);
    expect((await cli.run(['enqueue', 'order-state', 'ORD-1', 'ACCEPTED', '--no-undo'], envAt(server.url, dir))).code).toBe(0);
    const r = await cli.run(['drain', '--timeout', '3'], envAt(server.url, dir));
    expect(r.code).toBe(7);
    expect(r.stdout).toMatch(/certificate is not trusted/);
    expect(r.stdout).toMatch(/remaining 1/);
    expect(server.requests()).toBe(0);
  });

  it('drain exits 7 when only the order service is untrusted and the token server is fine', async () => {
    const server = await selfSigned();
    const box = await sandbox(cleanup);
    const dir = tempDir(cleanup);
    const env = envFor(box, dir, { PACKDESK_BASE_URL: server.url });
    expect((await cli.run(['enqueue', 'order-state', 'ORD-1', 'ACCEPTED', '--no-undo'], env)).code).toBe(0);
    const r = await cli.run(['drain', '--timeout', '3'], env);
    expect(r.code).toBe(7);
    expect(r.stdout).toMatch(/certificate is not trusted/);
    expect(r.stdout).not.toMatch(/could not be reached/);
    expect(r.stdout).toMatch(/remaining 1/);
    // The screens name the order service, not the sign-in server the token's certificate notice names.
    const j = await cli.run(['drain', '--timeout', '2', '--json'], env);
    expect(j.code).toBe(7);
    expect((JSON.parse(j.stdout) as { status: { notice: { code: string } | null } }).status.notice?.code).toBe('SERVICE_CERTIFICATE');
    expect(server.requests()).toBe(0);
  });

  it('doctor names the certificate on the token server and order service lines', async () => {
    const server = await selfSigned();
    const r = await cli.run(['doctor', '--json'], envAt(server.url, tempDir(cleanup)));
    expect(r.code).toBe(1);
    const checks = JSON.parse(r.stdout) as { name: string; ok: boolean; detail: string; fix?: string }[];
    for (const name of ['token server', 'order service']) {
      const check = checks.find((c) => c.name === name);
      expect(check, name).toMatchObject({ ok: false });
      expect(check?.detail, name).toMatch(/certificate is not trusted/);
      expect(check?.fix, name).toMatch(/certificate/);
      expect(check?.fix, name).not.toMatch(/^check the network/);
    }
  });
});
