/**
 * The host as a process of its own, for bench/memory.ts (which measures it) and bench/ui-packer.ts
 * (which pins it with Chromium to the cores it measures, its own driver elsewhere): the browser
 * harness (the app host, its engine and the server that hands the page its renderer), pointed at
 * an order service in another process (the sandbox, run by the benchmark) as staging, so nothing
 * but the host is in this process. The benchmark bundles it first, as electron-vite bundles the
 * app's main process, so the figures are of the code the app runs, not of a TypeScript loader.
 *
 * Argv: one JSON object (HostConfig). Prints one line, `{"url": ..., "pid": ...}`, once the harness
 * serves; then answers the benchmark's messages over the IPC channel (HostRequest). It does
 * nothing of its own between messages, so an idle host's CPU is the app's own.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';
import { fullCollection } from '../src/main/core/host/heap-trim';
import { MemoryVault } from '../src/main/core/auth';
import { systemTimers, type TimerOptions, type Timers } from '../src/main/core/time';
import { startWebHarness } from '../src/web';

export interface HostConfig {
  readonly dataDir: string;
  readonly rendererDir: string;
  /** The order service and token server (the sandbox in a process of its own). */
  readonly serviceUrl: string;
  readonly serviceProviderId: string;
  /** How long a finished order stays on the terminal (the engine's keep period, compressed for the busy hour); absent, the engine's own. */
  readonly finishedKeepMs?: number;
}

export type HostRequest =
  | { readonly id: number; readonly kind: 'memory' }
  /** The live JS heap: heapUsed after one compacting full collection (what is held, not garbage yet to collect), and V8's compiled code in it. */
  | { readonly id: number; readonly kind: 'liveHeap' }
  /** What the engine keeps between calls, by count (Engine.held): parsed bodies, tap and view projections. */
  | { readonly id: number; readonly kind: 'held' }
  | { readonly id: number; readonly kind: 'handle'; readonly command: string; readonly payload: unknown }
  | { readonly id: number; readonly kind: 'snapshot'; readonly file: string }
  /** Samples where the heap is allocated (V8's sampling heap profiler), freed objects included, until `stopSampling`. */
  | { readonly id: number; readonly kind: 'startSampling' }
  /** Writes the samples since `startSampling` to `file` (a .heapprofile, for Chromium's DevTools) and returns its path. */
  | { readonly id: number; readonly kind: 'stopSampling'; readonly file: string }
  /** Samples where the host spends its CPU (V8's CPU profiler) until `stopCpuProfile`. */
  | { readonly id: number; readonly kind: 'startCpuProfile' }
  /** Writes the CPU samples since `startCpuProfile` to `file` (a .cpuprofile, for Chromium's DevTools) and returns its path. */
  | { readonly id: number; readonly kind: 'stopCpuProfile'; readonly file: string }
  /** The busy hour begins: the engine's six-hourly walk for finished orders runs every `everyMs`; null: it ends, back to six hours. */
  | { readonly id: number; readonly kind: 'compressWalks'; readonly everyMs: number | null }
  /** How the host answered each orders.head since the last ask (the page's first question at a load): HeadTiming[]. */
  | { readonly id: number; readonly kind: 'headTimes' }
  | { readonly id: number; readonly kind: 'stop' };

/** One orders.head as the host answered it: wall time, and this process's CPU over it. */
export interface HeadTiming {
  readonly wall: number;
  readonly cpu: number;
}

/** The engine's walk for finished orders runs every six hours (engine.ts RETIRE_EVERY_MS). */
const RETIRE_EVERY_MS = 6 * 60 * 60 * 1000;
/** The host's own compacting collection (host/heap-trim.ts), for reading the live heap. */
const collectFully = fullCollection();

/**
 * Node's timers, with the six-hourly walk for finished orders brought forward once `compress` is
 * called (the busy hour: a busy day's walks within it); before that, every timer is the engine's
 * own, so the idle figures are the app's. A walk already armed is armed again at the new pace.
 */
function walkTimers(): { timers: Timers; compress(everyMs: number | null): void } {
  let every: number | null = null;
  const walks = new Map<object, { fn: () => void; handle: unknown; options: TimerOptions | undefined }>();
  const arm = (key: object, fn: () => void, ms: number, options: TimerOptions | undefined): void => {
    const handle = systemTimers.setTimeout(() => {
      walks.delete(key);
      fn();
    }, ms, options);
    walks.set(key, { fn, handle, options });
  };
  return {
    timers: {
      setTimeout(fn, ms, options) {
        if (ms !== RETIRE_EVERY_MS) return systemTimers.setTimeout(fn, ms, options);
        const key = {};
        arm(key, fn, every ?? ms, options);
        return key;
      },
      clearTimeout(handle) {
        const walk = handle !== null && typeof handle === 'object' ? walks.get(handle) : undefined;
        if (!walk) return systemTimers.clearTimeout(handle);
        systemTimers.clearTimeout(walk.handle);
        walks.delete(handle as object);
      },
    },
    compress(everyMs) {
      every = everyMs;
      for (const [key, walk] of [...walks]) {
        systemTimers.clearTimeout(walk.handle);
        arm(key, walk.fn, everyMs ?? RETIRE_EVERY_MS, walk.options);
      }
    },
  };
}

/** Notes the wall time and CPU of every orders.head the page asks the host (`handle` wrapped). */
function timedHeads(host: { handle: (command: string, payload: unknown) => Promise<unknown> }): HeadTiming[] {
  const taken: HeadTiming[] = [];
  const handle = host.handle.bind(host);
  host.handle = async (command, payload) => {
    if (command !== 'orders.head') return handle(command, payload);
    const started = performance.now();
    const cpu = process.cpuUsage();
    const reply = await handle(command, payload);
    const used = process.cpuUsage(cpu);
    taken.push({ wall: performance.now() - started, cpu: (used.user + used.system) / 1000 });
    return reply;
  };
  return taken;
}

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2] ?? '') as HostConfig;
  const walks = walkTimers();
  const harness = await startWebHarness({
    dataDir: config.dataDir,
    rendererDir: config.rendererDir,
    host: {
      settingsOverride: {
        environment: 'staging',
        authUrl: config.serviceUrl,
        baseUrl: config.serviceUrl,
        serviceProviderId: config.serviceProviderId,
      },
      vaultFor: () => new MemoryVault({ credentials: { clientId: 'training', clientSecret: 'training-secret' } }),
      engineOptions: { ...(config.finishedKeepMs === undefined ? {} : { finishedKeepMs: config.finishedKeepMs }), timers: walks.timers },
    },
  });
  const heads = timedHeads(harness.host);
  process.on('message', (message: HostRequest) => {
    void answer(message).then(
      (result) => process.send?.({ id: message.id, ok: true, result }),
      (error: unknown) => process.send?.({ id: message.id, ok: false, error: error instanceof Error ? error.message : String(error) }),
    );
  });
  let inspector: Session | null = null;
  async function answer(m: HostRequest): Promise<unknown> {
    switch (m.kind) {
      case 'memory':
        return process.memoryUsage();
      case 'liveHeap':
        collectFully?.();
        // Compiled code is V8's (made once for the hot paths), not what the engine holds: said apart.
        return { heapUsed: process.memoryUsage().heapUsed, code: getHeapSpaceStatistics().find((x) => x.space_name === 'code_space')?.space_used_size ?? 0 };
      case 'held':
        return harness.host.engine()?.held() ?? null;
      case 'handle':
        return harness.host.handle(m.command, m.payload);
      case 'snapshot':
        return writeHeapSnapshot(m.file);
      case 'startSampling':
        inspector ??= new Session();
        inspector.connect();
        await inspector.post('HeapProfiler.startSampling', { samplingInterval: 32_768, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
        return null;
      case 'stopSampling': {
        if (!inspector) throw new Error('not sampling');
        const { profile } = await inspector.post('HeapProfiler.stopSampling');
        inspector.disconnect();
        writeFileSync(m.file, JSON.stringify(profile));
        return m.file;
      }
      case 'startCpuProfile':
        inspector ??= new Session();
        inspector.connect();
        await inspector.post('Profiler.enable');
        await inspector.post('Profiler.setSamplingInterval', { interval: 1_000 });
        await inspector.post('Profiler.start');
        return null;
      case 'stopCpuProfile': {
        if (!inspector) throw new Error('not profiling');
        const { profile } = await inspector.post('Profiler.stop');
        inspector.disconnect();
        writeFileSync(m.file, JSON.stringify(profile));
        return m.file;
      }
      case 'compressWalks':
        walks.compress(m.everyMs);
        return null;
      case 'headTimes':
        return heads.splice(0);
      case 'stop':
        await harness.close();
        setImmediate(() => process.exit(0));
        return null;
    }
  }
  process.stdout.write(`${JSON.stringify({ url: harness.url, pid: process.pid })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
