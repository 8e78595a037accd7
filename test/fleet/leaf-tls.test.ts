/**
 * The leaf link over TLS as the hub's nats.conf writes it (`tls://` address, the chain's CA file):
 * with the right CA the store's figures reach the centre; with another CA the link is refused and
 * nothing arrives. (The credentials file needs the chain's operator JWTs: not exercised here.)
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureFleetStream, readFleet } from '../../src/fleet/central';
import { makeCertificate } from '../../src/main/core/hub/server';
import { Cleanup, tempDir } from '../support/engine';
import { startCentral, startStore } from './fleet-world';

describe('leaf link over TLS', () => {
  const cleanup = new Cleanup();
  afterAll(() => cleanup.run(), 30_000);

  it('reaches the centre with the chain CA, and not with another', async () => {
    const dir = tempDir(cleanup, 'packdesk-chain-tls-');
    const write = async (name: string): Promise<{ certPath: string; keyPath: string }> => {
      const cert = await makeCertificate({ ips: [], now: new Date(), commonName: `chain ${name}` });
      const certPath = path.join(dir, `${name}-cert.pem`);
      const keyPath = path.join(dir, `${name}-key.pem`);
      writeFileSync(certPath, cert.certPem);
      writeFileSync(keyPath, cert.keyPem);
      return { certPath, keyPath };
    };
    const centre = await write('centre');
    const other = await write('other');
    const central = await startCentral(cleanup, centre);
    expect(central.leafUrl).toMatch(/^tls:\/\//);
    await startStore(cleanup, central, 'store-t', 1, 1_000, { caPath: centre.certPath });
    await startStore(cleanup, central, 'store-x', 1, 1_000, { caPath: other.certPath });
    await ensureFleetStream(central.nc, ['store-t', 'store-x']);
    const started = Date.now();
    let stores: string[] = [];
    while (Date.now() - started < 15_000) {
      stores = [...new Set((await readFleet(central.nc)).latest.map((a) => a.message.storeId))];
      if (stores.includes('store-t')) break;
      await new Promise((r) => setTimeout(r, 300));
    }
    expect(stores).toContain('store-t');
    await new Promise((r) => setTimeout(r, 3_000));
    expect((await readFleet(central.nc)).latest.map((a) => a.message.storeId)).not.toContain('store-x');
  }, 60_000);
});
