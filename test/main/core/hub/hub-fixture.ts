/**
 * A real store hub for tests: its files made in a temporary data folder (certificate, bcrypted
 * secret, nats.conf) and Debian's nats-server supervised on a free port of 127.0.0.1.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KvWatchInclude } from '@nats-io/kv';
import { LEASE_BUCKET, LEASE_KEY, LeaseValueSchema } from '../../../../src/main/core/hub/lease';
import { openExistingBucket } from '../../../../src/main/core/hub/nats/buckets';
import { connectHub } from '../../../../src/main/core/hub/nats/connection';
import { createHubFiles, findNatsServer, HubSupervisor, hubFiles, type HubFiles, newHubSecret, readNatsVersion, type SupervisorOptions } from '../../../../src/main/core/hub/server';
import { freePort } from '../../../support/nats';
import { timeUntil } from '../../../support/until';

export interface TestHub {
  readonly dataDir: string;
  readonly files: HubFiles;
  readonly port: number;
  readonly listen: string;
  readonly secret: string;
  readonly fingerprint: string;
  readonly program: string;
  readonly version: string;
  readonly supervisor: HubSupervisor;
  /** Stops the supervisor's nats-server and removes the data folder. */
  dispose(): Promise<void>;
}

/** nats-server as found the way the product finds it (here: Debian's, in /usr/sbin). */
export async function natsProgram(): Promise<{ program: string; version: string }> {
  const found = findNatsServer();
  if (!found.ok) throw new Error(found.message);
  const version = await readNatsVersion(found.program);
  if (!version.ok) throw new Error(version.message);
  return { program: found.program, version: version.version };
}

/** Makes a hub's files in a fresh data folder; `start` also starts its supervisor and waits until ready. */
export async function makeTestHub(options: { start?: boolean; supervisor?: Partial<SupervisorOptions> } = {}): Promise<TestHub> {
  const { program, version } = await natsProgram();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'packdesk-hub-'));
  const files = hubFiles(dataDir);
  const port = await freePort();
  const listen = `127.0.0.1:${port}`;
  const secret = newHubSecret();
  const { fingerprint } = await createHubFiles(files, { listen, secret, now: new Date() });
  const supervisor = new HubSupervisor({ program, version, files, listen, stopGraceMs: 3000, ...options.supervisor });
  if (options.start !== false) {
    const health = await supervisor.start();
    if (!health.running) throw new Error(`test hub did not start: ${health.problem}`);
  }
  return {
    dataDir,
    files,
    port,
    listen,
    secret,
    fingerprint,
    program,
    version,
    supervisor,
    dispose: async () => {
      await supervisor.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Waits until `check` holds, polling every 50 ms; fails after `timeoutMs`. */
export async function until(check: () => boolean, timeoutMs = 15_000): Promise<void> {
  await timeUntil('the condition', check, timeoutMs, 50);
}

/** How a counter (or a look from a shell) reaches this hub: 127.0.0.1, its port, the store's secret and its certificate. */
export const hubTarget = (hub: TestHub): Parameters<typeof connectHub>[0] => ({ host: '127.0.0.1', port: hub.port, secret: hub.secret, fingerprint: hub.fingerprint });

/**
 * Watches the intake lease key, from a connection that takes no part, until it has been written
 * `n` more times (the holder's renewals, or a take-over); awaits `each` as each write arrives and
 * returns the counter each one named. Rounds of the lease, counted, for "held steady" checks.
 */
export async function leaseWrites(hub: TestHub, n: number, each: () => void | Promise<void>, timeoutMs = 15_000): Promise<string[]> {
  const look = await connectHub(hubTarget(hub), { name: 'lease watch' });
  if (!look.ok) throw new Error(look.problem.message);
  const named: string[] = [];
  try {
    const kv = await openExistingBucket(look.connection.nc, LEASE_BUCKET);
    const watch = await kv.watch({ key: LEASE_KEY, include: KvWatchInclude.UpdatesOnly });
    const hang = setTimeout(() => watch.stop(), timeoutMs);
    try {
      for await (const entry of watch) {
        named.push(entry.operation === 'PUT' ? LeaseValueSchema.parse(entry.json()).counterId : entry.operation);
        await each();
        if (named.length === n) break;
      }
    } finally {
      clearTimeout(hang);
      watch.stop();
    }
  } finally {
    await look.connection.close();
  }
  if (named.length < n) throw new Error(`only ${named.length} of ${n} lease writes within ${timeoutMs} ms`);
  return named;
}
