/**
 * Settings -> Chain's files against a REAL centre: nats-server in operator mode (JWT accounts,
 * resolver MEMORY, JetStream for the chain's account, a TLS leaf port), the store's leaf
 * credentials made as a chain's `nsc` would (@nats-io/jwt). A store hub linked with the product's
 * saveChainLink and started by its supervisor: with good credentials the link is "linked" and a
 * counter's health reaches the centre; with credentials of another operator the centre refuses
 * ("bad credentials"), with another CA the certificate is not trusted; both said in words and
 * nothing arrives. The seed is in a 0600 file beside the hub's key, nowhere else, and gone on unlink.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureFleetStream, readFleet } from '../../src/fleet/central';
import { readChainLink } from '../../src/main/core/hub/chain/link';
import { startNorthSender } from '../../src/main/core/hub/chain/north-sender';
import { newKeeperPassword, startChainKeeper } from '../../src/main/core/hub/chain/keeper';
import { KEEPER_INBOX_PREFIX, KEEPER_USER } from '../../src/main/core/hub/server/accounts';
import { silentLogger } from '../../src/main/core/log/logger';
import { chainFiles, removeChainLink, saveChainLink } from '../../src/main/core/hub/chain/files';
import { type ChainMonitor, leafConnected, leafLine, startChainMonitor } from '../../src/main/core/hub/chain/monitor';
import { connectHub, type HubTarget } from '../../src/main/core/hub/nats/connection';
import { createHubFiles, hashSecret, HubSupervisor, hubFiles, makeCertificate, newHubSecret, writeHubConfig } from '../../src/main/core/hub/server';
import { systemTimers } from '../../src/main/core/time';
import { chainLine, credentialsParts } from '../../src/shared/chain';
import { natsProgram } from '../main/core/hub/hub-fixture';
import { Cleanup, tempDir } from '../support/engine';
import { freePort } from '../support/nats';
import { credsFor, makeOperator, type OperatorCentral, startOperatorCentral } from './operator-central';
import { until } from '../support/until';

describe('a store hub linked to an operator-mode centre', () => {
  const cleanup = new Cleanup();
  let central: OperatorCentral;
  let dir: string;

  beforeAll(async () => {
    dir = tempDir(cleanup, 'packdesk-chain-creds-');
    central = await startOperatorCentral(cleanup, dir);
  }, 30_000);
  afterAll(() => cleanup.run(), 30_000);

  /** A store hub as the host starts one in a chain: the link saved from the manager's request, a monitoring port, the supervisor, the monitor. */
  async function linkedHub(storeId: string, credentials: string, ca: string) {
    const { program, version } = await natsProgram();
    const files = hubFiles(tempDir(cleanup, `packdesk-chain-${storeId}-`));
    const port = await freePort();
    const listen = `127.0.0.1:${port}`;
    const secret = newHubSecret();
    const { fingerprint } = await createHubFiles(files, { listen, secret, now: new Date() });
    const saved = saveChainLink(files, { storeId, url: central.leafUrl, credentials, ca }, false);
    if (!saved.ok) throw new Error(saved.problem.message);
    const monitorPort = await freePort();
    const keeperPassword = newKeeperPassword();
    writeHubConfig(files, listen, hashSecret(secret), saved.value, monitorPort, hashSecret(keeperPassword));
    const supervisor = new HubSupervisor({ program, version, files, listen, stopGraceMs: 3000 });
    const monitor: ChainMonitor = startChainMonitor({ link: saved.value, monitorPort, lines: (l) => supervisor.onLine(l), now: Date.now, timers: systemTimers, everyMs: 500 });
    cleanup.add(() => monitor.stop());
    const started = await supervisor.start();
    cleanup.add(() => supervisor.stop());
    if (!started.running) throw new Error(`hub did not start: ${started.problem}`);
    const keeper = startChainKeeper({
      storeId,
      connect: () => connectHub({ host: '127.0.0.1', port, secret: keeperPassword, fingerprint }, { user: KEEPER_USER, inboxPrefix: KEEPER_INBOX_PREFIX }),
      timers: systemTimers,
      log: silentLogger,
    });
    cleanup.add(() => keeper.stop());
    // Each time nats-server says the centre refused the link (it tries again by itself every second or so).
    let refusals = 0;
    cleanup.add(supervisor.onLine((line) => {
      if (leafLine(line)?.kind === 'refused') refusals += 1;
    }));
    return { files, monitor, monitorPort, refusals: () => refusals, target: { host: '127.0.0.1', port, secret, fingerprint } };
  }

  /** A counter of the store sending its health north every 500 ms, as a hub session does. */
  async function counterSending(target: HubTarget, storeId: string, counterId: string): Promise<void> {
    // Another counter of the store hears the health on the hub: it is there to cross the link, if the link would carry it.
    const listener = await connectHub(target, { name: 'Counter 2' });
    if (!listener.ok) throw new Error(listener.problem.message);
    cleanup.add(() => listener.connection.close());
    let heard = 0;
    listener.connection.nc.subscribe(`packdesk.north.${storeId}.counter.${counterId}`, {
      callback: () => {
        heard += 1;
      },
    });
    await listener.connection.nc.flush();
    const joined = await connectHub(target, { name: 'Counter 1' });
    if (!joined.ok) throw new Error(joined.problem.message);
    cleanup.add(() => joined.connection.close());
    const sender = startNorthSender({
      nc: joined.connection.nc,
      now: Date.now,
      everyMs: 500,
      build: (stamp) => ({ kind: 'counter', storeId, counterId, counterName: 'Counter 1', version: '1.0.0', ...stamp, tapsWaiting: 3, oldestWaitingAt: null, lastSentAt: null, online: true, clockDifferenceMs: 0, lastIntakeAt: null, storageWarnings: ['disk-low'] }),
    });
    cleanup.add(() => sender.close());
    await until('the counter’s health on its hub', () => heard > 0, 10_000, 50);
  }

  it('with good credentials: linked, and a counter’s health reaches the centre', async () => {
    const creds = await credsFor(central.op, 'store-good');
    const hub = await linkedHub('store-good', creds, central.caPem);
    // The seed is in the 0600 file only: nats.conf names the file, chain.json names the file.
    const seed = credentialsParts(creds)!.seed;
    const { credsPath } = chainFiles(hub.files);
    expect(readFileSync(credsPath, 'utf8')).toContain(seed);
    if (process.platform !== 'win32') expect(statSync(credsPath).mode & 0o777).toBe(0o600);
    expect(readFileSync(hub.files.configPath, 'utf8')).not.toContain(seed);
    expect(readFileSync(hub.files.configPath, 'utf8')).toContain(`credentials: ${JSON.stringify(credsPath)}`);
    expect(readFileSync(path.join(hub.files.dir, 'chain.json'), 'utf8')).not.toContain(seed);

    await until('the link is up', () => hub.monitor.status().state === 'linked', 15_000, 250);
    expect(chainLine(hub.monitor.status())).toMatch(/^linked as store-good to 127\.0\.0\.1:\d+ since /);

    await counterSending(hub.target, 'store-good', 'good-c1');
    await ensureFleetStream(central.nc, ['store-good']);
    await until('the counter’s health at the centre', async () => (await readFleet(central.nc)).latest.some((a) => a.message.kind === 'counter' && a.message.counterId === 'good-c1'), 20_000, 250);

    // Unlink: the seed's file is gone, nats.conf has no leaf link.
    removeChainLink(hub.files);
    expect(existsSync(credsPath)).toBe(false);
    expect(readChainLink(hub.files.dir).link).toBeNull();
    expect(readFileSync(hub.files.configPath, 'utf8')).not.toContain('leafnodes');
  }, 60_000);

  it('with another operator’s credentials: refused, "bad credentials", nothing arrives', async () => {
    const forged = await credsFor(await makeOperator('NOT-THE-CHAIN'), 'store-bad');
    const hub = await linkedHub('store-bad', forged, central.caPem);
    await until('the refusal is said', () => hub.monitor.status().state === 'refused', 15_000, 250);
    const status = hub.monitor.status();
    expect(status.refusedBy).toBe('credentials');
    expect(chainLine(status)).toContain('bad credentials');
    expect(chainLine(status)).not.toContain(credentialsParts(forged)!.seed);
    await counterSending(hub.target, 'store-bad', 'bad-c1');
    await ensureFleetStream(central.nc, ['store-bad']);
    // The health is on the hub; the hub tries the link twice more, and the centre refuses both: nothing had a way across.
    const refusedSoFar = hub.refusals();
    await until('two more refusals of the link', () => hub.refusals() >= refusedSoFar + 2, 15_000, 50);
    expect(await leafConnected(hub.monitorPort)).toBe(false);
    expect(hub.monitor.status().state).toBe('refused');
    expect((await readFleet(central.nc)).latest.filter((a) => a.message.storeId === 'store-bad')).toEqual([]);
  }, 60_000);

  it('with another CA: refused, the certificate not trusted', async () => {
    const otherCa = (await makeCertificate({ ips: [], now: new Date(), commonName: 'not the chain' })).certPem;
    const hub = await linkedHub('store-ca', await credsFor(central.op, 'store-ca'), otherCa);
    await until('the refusal is said', () => hub.monitor.status().state === 'refused', 15_000, 250);
    expect(hub.monitor.status().refusedBy).toBe('certificate');
    expect(chainLine(hub.monitor.status())).toContain('certificate not trusted');
  }, 60_000);

  // Last: it stops the centre.
  it('linked, then the centre gone: "cut since", in words', async () => {
    const hub = await linkedHub('store-cut', await credsFor(central.op, 'store-cut'), central.caPem);
    await until('the link is up', () => hub.monitor.status().state === 'linked', 15_000, 250);
    const before = Date.now();
    await central.server.kill();
    await until('the cut is said', () => hub.monitor.status().state === 'cut', 15_000, 250);
    const status = hub.monitor.status();
    expect(status.since).toBeGreaterThanOrEqual(before);
    expect(chainLine(status)).toMatch(/^link to 127\.0\.0\.1:\d+ cut since /);
  }, 60_000);
});
