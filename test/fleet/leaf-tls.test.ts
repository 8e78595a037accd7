/**
 * The leaf link over TLS as the hub's nats.conf writes it (`tls://` address, the chain's CA file):
 * with the right CA the store's figures reach the centre; with another CA the link is refused and
 * nothing arrives. (The credentials file needs the chain's operator JWTs: not exercised here.)
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureFleetStream, readFleet } from '../../src/fleet/central';
import { jetstreamManager } from '@nats-io/jetstream';
import { leafLine } from '../../src/main/core/hub/chain/monitor';
import { makeCertificate } from '../../src/main/core/hub/server';
import { Cleanup, tempDir } from '../support/engine';
import { startCentral, startStore, until } from './fleet-world';

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
    const x = await startStore(cleanup, central, 'store-x', 1, 1_000, { caPath: other.certPath });
    let refusedX = 0;
    cleanup.add(x.onLine((line) => {
      if (leafLine(line)?.kind === 'refused') refusedX += 1;
    }));
    await ensureFleetStream(central.nc, ['store-t', 'store-x']);
    const { value: stores } = await until('store-t at the centre', 15_000, async () => {
      const seen = [...new Set((await readFleet(central.nc)).latest.map((a) => a.message.storeId))];
      return seen.includes('store-t') ? seen : null;
    });
    expect(stores).toContain('store-t');
    // store-x's hub holds its counter's health, ready to go north; it tries the link twice more and is refused both times.
    await until('store-x’s health kept on its hub', 10_000, async () => ((await (await jetstreamManager(x.chainNc)).streams.info('PACKDESK_NORTH')).state.messages > 0 ? true : null));
    const refusedSoFar = refusedX;
    await until('two more refusals of store-x’s link', 15_000, async () => (refusedX >= refusedSoFar + 2 ? true : null));
    expect((await readFleet(central.nc)).latest.map((a) => a.message.storeId)).not.toContain('store-x');
  }, 60_000);
});
