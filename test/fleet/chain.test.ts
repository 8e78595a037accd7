/** The chain link in the hub's nats.conf: leaf remote with credentials and TLS, the store's domain, nothing south. */
import { describe, expect, it } from 'vitest';
import { ChainLinkSchema } from '../../src/fleet/chain';
import { hubFiles, natsConfig } from '../../src/main/core/hub/server';

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

  it('writes the leaf remote, the store domain and the south deny list into nats.conf', () => {
    const link = ChainLinkSchema.parse({ storeId: 'store-17', url: 'tls://central.example:7422', credentialsPath: '/data/store-17.creds', caPath: '/data/chain-ca.pem', training: false });
    const text = natsConfig(files, '0.0.0.0:4222', '$2a$10$hash', link);
    expect(text).toMatch(/jetstream \{[^}]*domain: "store-17"/);
    expect(text).toContain('url: "tls://central.example:7422"');
    expect(text).toContain('credentials: "/data/store-17.creds"');
    expect(text).toContain('tls { ca_file: "/data/chain-ca.pem" }');
    expect(text).toContain('deny_imports: ["$KV.>"');
    // A store without a chain link is written exactly as before.
    expect(natsConfig(files, '0.0.0.0:4222', '$2a$10$hash')).not.toMatch(/leafnodes|domain/);
  });
});
