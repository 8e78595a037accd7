/**
 * The fleet at scale, simulated: `--stores` stores (default 500) of three counters each, as
 * lightweight publishers using the product's north sender (same subjects, same messages, every 10 s
 * with each its own phase), into ONE central nats-server on 127.0.0.1. Leaf links are left out (500
 * nats-server processes do not fit this machine): the central stream takes the subjects directly,
 * as it holds them once sourced, each message stamped with its store's source as nats-server
 * stamps a sourced message (so the centre believes it: src/fleet/belief.ts). Prints messages per second, the central server's CPU and memory,
 * how long `fleet status` takes (read + judge), and whether every counter was seen within 15 s.
 * Run: npx tsx bench/fleet.ts [--stores 500] [--seconds 60] [--connections 50]
 */
import { readFileSync } from 'node:fs';
import { jetstreamManager, StorageType } from '@nats-io/jetstream';
import { connect, nanos, type NatsConnection } from '@nats-io/transport-node';
import { readFleet, SOURCE_HEADER } from '../src/fleet/central';
import { sourceTag } from '../src/fleet/belief';
import { FLEET_STREAM, NORTH_EVERY_MS, NORTH_PREFIX, NORTH_STREAM } from '../src/main/core/hub/chain/north';
import { fleetStatus } from '../src/fleet/status';
import { type NorthSender, startNorthSender } from '../src/main/core/hub/chain/north-sender';
import { startTestNats } from '../test/support/nats';

const FRESH_MS = 15_000;

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

/** utime + stime of a process in seconds, and its resident memory in MB (Linux /proc). */
function usage(pid: number): { cpuS: number; rssMb: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const ticks = Number(stat[11]) + Number(stat[12]);
  const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return { cpuS: ticks / 100, rssMb: Number(rss ?? 0) / 1024 };
}

async function main(): Promise<void> {
  const stores = arg('stores', 500);
  const seconds = arg('seconds', 60);
  const connections = arg('connections', 50);
  const server = await startTestNats();
  const pid = server.pid()!;
  const ncs: NatsConnection[] = [];
  const senders: NorthSender[] = [];
  try {
    const admin = await connect({ servers: server.url });
    ncs.push(admin);
    const jsm = await jetstreamManager(admin);
    await jsm.streams.add({ name: FLEET_STREAM, subjects: [`${NORTH_PREFIX}.>`], storage: StorageType.File, max_age: nanos(3_600_000) });
    for (let i = 0; i < connections; i += 1) ncs.push(await connect({ servers: server.url }));
    const before = usage(pid);
    const started = Date.now();
    let sent = 0;
    const storeIds: string[] = [];
    // Start every sender within one period, as stores would come and go through a day.
    for (let s = 0; s < stores; s += 1) {
      const storeId = `store-${String(s).padStart(4, '0')}`;
      storeIds.push(storeId);
      const headers = { [SOURCE_HEADER]: `${sourceTag(storeId)} ${s + 1}` };
      const nc = ncs[1 + (s % connections)]!;
      await new Promise((r) => setTimeout(r, NORTH_EVERY_MS / stores));
      for (let c = 1; c <= 3; c += 1) {
        senders.push(
          startNorthSender({
            nc,
            now: Date.now,
            headers,
            build: (stamp) => {
              sent += 1;
              return { kind: 'counter', storeId, counterId: `${storeId}-c${c}`, counterName: `Counter ${c}`, version: '2.3.0', ...stamp, tapsWaiting: c - 1, oldestWaitingAt: null, lastSentAt: stamp.at - 1000, online: true, clockDifferenceMs: 120, lastIntakeAt: stamp.at - 2000, storageWarnings: [] };
            },
          }),
        );
      }
      senders.push(startNorthSender({ nc, now: Date.now, headers, build: (stamp) => ((sent += 1), { kind: 'summary', storeId, ...stamp, awaitingAccept: 1, beingPacked: 2, late: 0, cancelledAlarmsOpen: 0 }) }));
    }
    const statusMs: number[] = [];
    let worstFresh = 1;
    while (Date.now() - started < seconds * 1000) {
      await new Promise((r) => setTimeout(r, 5_000));
      const t0 = performance.now();
      const status = fleetStatus(await readFleet(admin, { sources: storeIds.map((storeId) => ({ storeId, name: NORTH_STREAM })) }), Date.now());
      statusMs.push(performance.now() - t0);
      const counters = status.stores.flatMap((st) => st.counters);
      if (Date.now() - started > NORTH_EVERY_MS + 2_000) {
        const fresh = counters.filter((c) => Date.now() - c.lastHeardAt <= FRESH_MS).length / (stores * 3);
        worstFresh = Math.min(worstFresh, fresh);
      }
    }
    const elapsed = (Date.now() - started) / 1000;
    const after = usage(pid);
    statusMs.sort((a, b) => a - b);
    console.log(`stores ${stores}, counters ${stores * 3}, senders ${senders.length} over ${connections} connections, ${elapsed.toFixed(0)} s`);
    console.log(`messages ${sent} -> ${(sent / elapsed).toFixed(0)} msg/s into the central stream`);
    console.log(`central nats-server: CPU ${(((after.cpuS - before.cpuS) / elapsed) * 100).toFixed(1)}% of one core, RSS ${after.rssMb.toFixed(0)} MB`);
    console.log(`fleet status (read ${stores * 4} subjects + judge): median ${statusMs[Math.floor(statusMs.length / 2)]!.toFixed(0)} ms, worst ${statusMs[statusMs.length - 1]!.toFixed(0)} ms over ${statusMs.length} runs`);
    console.log(`counters seen within 15 s, worst look: ${(worstFresh * 100).toFixed(1)}%`);
    if (worstFresh < 1) process.exitCode = 1;
  } finally {
    for (const s of senders) s.close();
    for (const nc of ncs) await nc.close().catch(() => undefined);
    await server.stop();
  }
}

void main();
