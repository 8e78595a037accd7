/** The chain link in the hub's nats.conf: leaf remote with credentials and TLS, the store's domain, nothing south. */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ChainLinkSchema } from '../../src/main/core/hub/chain/link';
import { runFleet } from '../../src/fleet/cli';
import { configuredPasswordHash, createHubFiles, hubFiles, natsConfig, writeHubConfig } from '../../src/main/core/hub/server';
import { Cleanup, tempDir } from '../support/engine';

async function fleet(argv: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await runFleet(argv, { env: {}, write: (t) => (out += t), writeError: (t) => (out += t), now: Date.now });
  return { code, out };
}

const files = hubFiles('/data/packdesk');

describe('chain link', () => {
  it('refuses a link without credentials or without TLS outside training', () => {
    const base = { storeId: 'store-17', url: 'tls://central.example:7422', credentialsPath: '/data/store-17.creds', caPath: null, training: false };
    expect(ChainLinkSchema.safeParse(base).success).toBe(true);
    expect(ChainLinkSchema.safeParse({ ...base, credentialsPath: null }).error?.issues[0]?.message).toBe('The chain link needs the store’s credentials file');
    expect(ChainLinkSchema.safeParse({ ...base, url: 'nats-leaf://central.example:7422' }).error?.issues[0]?.message).toBe('The chain link must use TLS (tls://host:port)');
    expect(ChainLinkSchema.safeParse({ ...base, url: 'nats-leaf://127.0.0.1:7422', credentialsPath: null, training: true }).success).toBe(true);
    expect(ChainLinkSchema.safeParse({ ...base, storeId: 'store 17' }).success).toBe(false);
  });

  it('writes the two accounts, the leaf remote bound to the chain account, the store domain and what the link refuses into nats.conf', () => {
    const link = ChainLinkSchema.parse({ storeId: 'store-17', url: 'tls://central.example:7422', credentialsPath: '/data/store-17.creds', caPath: '/data/chain-ca.pem', training: false });
    const text = natsConfig(files, '0.0.0.0:4222', '$2a$10$hash', link, null, '$2a$10$keeper');
    expect(text).toMatch(/jetstream \{[^}]*domain: "store-17"/);
    expect(text).toContain('url: "tls://central.example:7422"');
    expect(text).toContain('account: CHAIN');
    expect(text).toContain('credentials: "/data/store-17.creds"');
    expect(text).toContain('tls { ca_file: "/data/chain-ca.pem" }');
    // The counters' account exports exactly the store's own north and open subjects, to CHAIN only; CHAIN imports them.
    expect(text).toContain('exports: [ { stream: "packdesk.north.store-17.>", accounts: [CHAIN] }, { stream: "packdesk.open.store-17", accounts: [CHAIN] } ]');
    expect(text).toContain('imports: [ { stream: { account: STORE, subject: "packdesk.north.store-17.>" } }, { stream: { account: STORE, subject: "packdesk.open.store-17" } } ]');
    expect(text).toContain('users: [ { user: "packdesk", password: "$2a$10$hash" } ]');
    expect(text).toContain('user: "packdesk-keeper", password: "$2a$10$keeper"');
    expect(text).toContain('"$JS.store-17.API.STREAM.>"');
    expect(text).toContain('"$JS.store-17.API.CONSUMER.CREATE.*.>"');
    expect(text).toContain('"packdesk.>"');
    expect(text).toContain('server_name: packdesk_hub_store-17');
    expect(text).toContain('deny_exports: ["packdesk.>","$KV.>","$JS.API.>","$JS.EVENT.>","$SYS.>","_PDKEEP.>"]');
    // A store without a chain link has the counters' account alone: no chain account, no link, no domain.
    const solo = natsConfig(files, '0.0.0.0:4222', '$2a$10$hash');
    expect(solo).not.toMatch(/leafnodes|domain|CHAIN|exports/);
    expect(solo).toContain('STORE {');
  });

  it('fleet link saves the link and rewrites the hub nats.conf keeping its secret hash; later rewrites keep it; unlink removes it', async () => {
    const cleanup = new Cleanup();
    try {
      const dataDir = tempDir(cleanup, 'packdesk-chain-');
      const files = hubFiles(dataDir);
      await createHubFiles(files, { listen: '127.0.0.1:4333', secret: 'store-secret-1', now: new Date() });
      const hash = configuredPasswordHash(files)!;
      expect(await fleet(['link', '--data-dir', dataDir, '--store-id', 'store-17', '--url', 'tls://central.example:7422'])).toMatchObject({ code: 2, out: expect.stringContaining('credentials file') as string });
      expect(readFileSync(files.configPath, 'utf8')).not.toContain('leafnodes');
      const linked = await fleet(['link', '--data-dir', dataDir, '--store-id', 'store-17', '--url', 'tls://central.example:7422', '--creds', '/etc/store-17.creds']);
      expect(linked).toEqual({ code: 0, out: 'This store hub joins the chain as store-17 at tls://central.example:7422 when Packdesk next starts it.\n' });
      const text = readFileSync(files.configPath, 'utf8');
      expect(text).toContain('credentials: "/etc/store-17.creds"');
      expect(text).toContain('domain: "store-17"');
      expect(text).toContain('listen: "127.0.0.1:4333"');
      expect(configuredPasswordHash(files)).toBe(hash);
      expect(text).not.toContain('store-secret-1');
      // Another writer of nats.conf (the hub CLI) keeps the link without knowing of it.
      writeHubConfig(files, '127.0.0.1:4334', hash);
      expect(readFileSync(files.configPath, 'utf8')).toContain('domain: "store-17"');
      expect(await fleet(['unlink', '--data-dir', dataDir])).toMatchObject({ code: 0 });
      expect(existsSync(`${files.dir}/chain.json`)).toBe(false);
      expect(readFileSync(files.configPath, 'utf8')).not.toMatch(/leafnodes|domain/);
      expect(await fleet(['link', '--data-dir', `${dataDir}/nothing`, '--store-id', 'x', '--url', 'nats-leaf://a:1', '--training'])).toMatchObject({ code: 1 });
    } finally {
      await cleanup.run();
    }
  });
});
