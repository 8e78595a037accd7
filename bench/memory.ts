/**
 * Packdesk on an old counter PC (issue 41): memory and idle CPU of the host and of the page's
 * renderer, with 5,000 orders on the terminal (50,000 with --orders 50000).
 *
 * The host runs in a process of its own (bench/host-process.ts, bundled as the app's main process
 * is), pointed at the sandbox order service in another process, so the figures are the host's
 * alone. Debian's Chromium shows the queue in one tab and the floor (bench/floor.ts: a trivial page
 * from the harness's own server) in another. Printed, each beside its bound as a ratio:
 * 1. the host's RSS at the peak of the first intake (VmHWM) and its JS heap's most while it ran;
 * 2. settled, 60 s after intake's pass: the host's RSS and JS heap, the page's renderer RSS and PSS
 *    beside the floor's (read ten times a second apart: median and p99);
 * 3. idle, the queue on screen: the CPU of the host and of the renderer over 60 s windows (three;
 *    median and p99), from /proc/<pid>/stat, nothing else touching them meanwhile;
 * 4. a busy hour compressed: taps, new orders, orders cancelled at the marketplace and finished
 *    orders leaving the terminal at ten times a busy store's rate (a busy day is 1,500 orders and
 *    12,000 taps over 12 hours: bench/ui-shift.ts), for --busy-minutes (20); finished orders leave
 *    after 5 minutes instead of three days and the engine's six-hourly walk for them runs every
 *    2 minutes; then, for reference, memory and CPU while intake's passes still read again what
 *    the hour changed in its last minutes (the 2-minute overlap of its window, decisions.md "Order
 *    intake"); once those changes are out of the overlap, settled again (the figures as growth
 *    from the first settled ones, against the bound) and idle CPU again. With --hours N, N busy
 *    hours one after the other, each read settled: does the next hour add what the first one did?
 * With --cpu-profile DIR, the host's CPU and the page's during those last idle windows are written
 * there as .cpuprofile files (open them in Chromium's DevTools, Performance tab); the profilers' own
 * cost is then in the figures (the page's samples every 10 ms, to keep it small).
 * Bounds (issue 41, 5,000 orders): host RSS settled 150 MB, at an intake's peak 250 MB; host JS
 * heap settled 60 MB; the renderer at most the floor's plus 60 MB (RSS); growth after the busy
 * hour 5 %; idle CPU 0.3 % of a core, host and renderer. With more orders, the host's bounds are
 * doubled (50,000 orders: within 2x the 5,000-order figures). MB here are 2^20 bytes, as Task
 * Manager and ps count them.
 * With --memory-dumps, Chromium's own account of the page renderer's memory (bench/memory-infra.ts)
 * settled and after the hour, and what of it grew. With --snapshots DIR, heap snapshots of the host are written there at intake's end, settled,
 * and after the busy hour, and where intake allocated (a sampling heap profile, freed objects
 * included), and the page's settled and after the hour, with what of each heap grew
 * (bench/heap-snapshot.ts): open them in Chromium's DevTools, Memory tab. Writing a snapshot takes hundreds of
 * MB of the host's C heap that stay in its RSS, so every figure read after the first is not the
 * app's: a run with --snapshots is for finding where the memory goes, not for the figures.
 * Run: npm run build && npx tsx bench/memory.ts [--orders 5000] [--busy-minutes 20] [--hours 1] [--settle 60] [--idle 60] [--idle-runs 3] [--intake-minutes 30] [--snapshots DIR] [--cpu-profile DIR] [--memory-dumps] [--v8-flags '--max-semi-space-size=2']
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { FIRST_SCREEN } from '../src/shared/firstScreen';
import { REST_MARK } from '../src/renderer/src/memory/rest';
import type { QueueHead } from '../src/shared/ipc';
import { compressedHour, load, untilOverlapOver } from './busy-hour';
import { startFloorServer } from './floor';
import { heapGrowth, readSummary, writePageSnapshot } from './heap-snapshot';
import { allocatorGrowth, type Allocators, memoryDump } from './memory-infra';
import { againstBound, BOUND, collectionsBetween, growthReport, hostCollections, type Idle, idleReport, MB, type Settled, settledReport, tapReport, whereItLies } from './memory-report';
import { type HostProcess, startHostProcess, startSandboxProcess } from './processes';
import { commandLine, cpuMs, descendants, processMemory, residentByMapping, residentKinds } from './procfs';
import { type Spread, spread } from './stats';
import { LAUNCH } from './ui-packer';

const FINISHED_KEEP_MS = 5 * 60_000;

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

function textFlag(name: string): string | null {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? null) : null;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

// ---- Chromium's processes -------------------------------------------------------------------

interface Browsing {
  readonly browser: Browser;
  readonly browserPid: number;
  readonly app: Page;
  readonly appPid: number;
  readonly floorPid: number;
}

/** The Chromium this process launched (its browser process: no --type). */
function browserProcess(): number {
  const pid = descendants(process.pid).find((p) => /chrom/.test(commandLine(p)) && !commandLine(p).includes('--type='));
  if (pid === undefined) throw new Error("Chromium's browser process was not found under this process");
  return pid;
}

/** The renderer process of `page`: the one whose CPU time grows while the page's thread is kept busy. */
async function rendererOf(page: Page, browserPid: number): Promise<number> {
  const renderers = descendants(browserPid).filter((p) => commandLine(p).includes('--type=renderer'));
  const before = new Map(renderers.map((p) => [p, cpuMs(p)]));
  await page.evaluate('(() => { const end = performance.now() + 2000; while (performance.now() < end); })()');
  const grew = [...before].map(([p, t]) => ({ p, ms: cpuMs(p) - t })).sort((a, b) => b.ms - a.ms);
  const [first, second] = grew;
  if (!first || first.ms < 100 || (second && second.ms * 2 > first.ms)) throw new Error(`the page's renderer could not be told apart: ${JSON.stringify(grew)}`);
  return first.p;
}

/**
 * What the page's own renderer holds: its JS heap (V8's count), DOM nodes, and the JS heap after a
 * full collection the bench asks for (what the page holds, garbage aside: read last).
 */
async function pageInside(page: Page): Promise<Settled['page']> {
  const rest = (await page.evaluate(`(() => {
    const marks = performance.getEntriesByName(${JSON.stringify(REST_MARK)});
    return { rests: marks.length, restAgoS: marks.length ? (performance.now() - marks[marks.length - 1].startTime) / 1000 : null };
  })()`)) as { rests: number; restAgoS: number | null };
  const cdp = await page.context().newCDPSession(page);
  try {
    const heap = (await cdp.send('Runtime.getHeapUsage')).usedSize;
    const nodes = (await cdp.send('Memory.getDOMCounters')).nodes;
    await cdp.send('HeapProfiler.collectGarbage');
    const liveHeap = (await cdp.send('Runtime.getHeapUsage')).usedSize;
    return { heap, nodes, liveHeap, ...rest };
  } finally {
    await cdp.detach();
  }
}

/** The page renderer's allocators and its totals (prefixed "totals/"), from one memory dump. */
async function rendererAllocators(b: Browsing): Promise<Allocators> {
  const mine = (await memoryDump(b.browser)).get(b.appPid);
  if (!mine) throw new Error(`Chromium's memory dump has no process ${b.appPid} (the page's renderer)`);
  // Beside Chromium's count, the OS's: what is mapped, by RSS and PSS ("mapped/…", "mapped-pss/…").
  const mapped = [...residentByMapping(b.appPid)].flatMap(([n, m]) => [[`mapped/${n.replaceAll('/', '|')}`, m.rss], [`mapped-pss/${n.replaceAll('/', '|')}`, m.pss]] as const);
  return new Map([...mine.allocators, ...[...mine.totals].map(([n, v]) => [`totals/${n}`, v] as const), ...mapped]);
}

// ---- Reading the figures --------------------------------------------------------------------

/** Ten readings a second apart of every process's memory. */
async function readSettled(host: HostProcess, b: Browsing, readings = 10): Promise<Settled> {
  const rows: { hostRss: number; hostHeap: number; appRss: number; appPss: number; appUss: number; floorRss: number; floorPss: number; browserPss: number }[] = [];
  for (let i = 0; i < readings; i++) {
    if (i > 0) await sleep(1_000);
    const h = processMemory(host.pid);
    const heap = (await host.memory()).heapUsed;
    const a = processMemory(b.appPid);
    const f = processMemory(b.floorPid);
    // The whole browser: every Chromium process's proportional share, for the reader's sake.
    const browserPss = [b.browserPid, ...descendants(b.browserPid)].reduce((sum, p) => sum + processMemory(p).pss, 0);
    rows.push({ hostRss: h.rss, hostHeap: heap, appRss: a.rss, appPss: a.pss, appUss: a.uss, floorRss: f.rss, floorPss: f.pss, browserPss });
  }
  const mb = (k: keyof (typeof rows)[number]): Spread => spread(rows.map((r) => r[k] / MB));
  const head = await host.handle<QueueHead>('orders.head', { rows: 1 });
  const hostKinds = residentKinds(host.pid);
  const hostUsage = await host.memory();
  // Read last: it collects (and compacts) the host's heap, so it must not come before the figures above.
  const held = (await host.request({ kind: 'held' })) as Settled['held'];
  const live = (await host.request({ kind: 'liveHeap' })) as { heapUsed: number; code: number };
  return {
    liveHeap: live.heapUsed / MB,
    liveCode: live.code / MB,
    held,
    hostKinds,
    hostUsage,
    hostRss: mb('hostRss'),
    hostHeap: mb('hostHeap'),
    appRss: mb('appRss'),
    appPss: mb('appPss'),
    appUss: mb('appUss'),
    floorRss: mb('floorRss'),
    floorPss: mb('floorPss'),
    browserPss: mb('browserPss'),
    page: await pageInside(b.app),
    orders: head.ids.length,
  };
}

/** CPU over `runs` windows of `seconds`, as % of one core; nothing from here touches the processes meanwhile. */
async function readIdle(host: HostProcess, b: Browsing, seconds: number, runs: number): Promise<Idle> {
  const rows: { host: number; app: number; floor: number }[] = [];
  const loads: string[] = [];
  for (let i = 0; i < runs; i++) {
    const at = { host: cpuMs(host.pid), app: cpuMs(b.appPid), floor: cpuMs(b.floorPid), t: performance.now() };
    await sleep(seconds * 1_000);
    const wall = performance.now() - at.t;
    const pct = (now: number, was: number): number => ((now - was) / wall) * 100;
    rows.push({ host: pct(cpuMs(host.pid), at.host), app: pct(cpuMs(b.appPid), at.app), floor: pct(cpuMs(b.floorPid), at.floor) });
    loads.push(load());
  }
  return { host: spread(rows.map((r) => r.host)), app: spread(rows.map((r) => r.app)), floor: spread(rows.map((r) => r.floor)), loads };
}

// ---- The run --------------------------------------------------------------------------------

async function main(): Promise<void> {
  const orders = flag('orders', 5_000);
  const busyMinutes = flag('busy-minutes', 20);
  // Busy hours one after the other: whether what the first hour adds is added again by the next (a leak) or not (warming up).
  const hours = flag('hours', 1);
  const settleS = flag('settle', 60);
  const idleS = flag('idle', 60);
  const idleRuns = flag('idle-runs', 3);
  // 50,000 orders: 114 s on a quiet machine since a backlog's passes follow each other (over 90 minutes before).
  const intakeMinutes = flag('intake-minutes', 30);
  const snapshots = textFlag('snapshots');
  // Where the host's idle CPU after the busy hour goes (the profiler's own cost is in the figures then).
  const cpuProfiles = textFlag('cpu-profile');
  // Where the page's renderer memory lies by Chromium's own count, settled and after the hour (bench/memory-infra.ts).
  const dumps = process.argv.includes('--memory-dumps');
  if (cpuProfiles) mkdirSync(cpuProfiles, { recursive: true });
  // V8's flags for the host, space-separated: what a young generation of another size does, say.
  const v8Flags = (textFlag('v8-flags') ?? '').split(' ').filter((f) => f.startsWith('--'));
  if (snapshots) mkdirSync(snapshots, { recursive: true });
  const hostScale = orders > 5_000 ? 2 : 1;
  const work = mkdtempSync(join(tmpdir(), 'packdesk-bench-memory-'));
  const sandbox = await startSandboxProcess(orders);
  let host: HostProcess | undefined;
  let browser: Browser | undefined;
  const floor = await startFloorServer();
  try {
    const hostStartedAt = Date.now();
    host = await startHostProcess(work, sandbox.url, FINISHED_KEEP_MS, v8Flags);
    if (v8Flags.length > 0) console.log(`The host runs with V8's flags ${v8Flags.join(' ')}`);
    // A manager PIN, so the page opens on the queue rather than on the first start's PIN screen.
    await host.handle('pin.set', { newPin: '2468' });
    const snapshot = async (name: string, page?: Page): Promise<void> => {
      if (!snapshots) return;
      console.error(`  heap snapshot: ${String(await host!.request({ kind: 'snapshot', file: join(snapshots, `host-${orders}-${name}.heapsnapshot`) }))}`);
      if (page) console.error(`  the page's heap snapshot: ${await writePageSnapshot(page, join(snapshots, `page-${orders}-${name}.heapsnapshot`))}`);
    };
    browser = await chromium.launch(LAUNCH);
    const browserPid = browserProcess();
    const floorPage = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    await floorPage.goto(floor.url);
    const floorPid = await rendererOf(floorPage, browserPid);
    // A page is open as the host starts, as a terminal's is: the queue fills in while intake reads,
    // and every order it stores goes to the page too. It is closed once the pass is done: each of
    // those orders is a new order to it (a chime, a glow) until someone accepts it, which is no
    // idle terminal. The page measured is opened afterwards, as after a restart.
    const first = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    await first.goto(host.url);

    // 1. The first intake: its peak.
    console.error(`intake of ${orders} orders from the sandbox…`);
    if (snapshots) await host.request({ kind: 'startSampling' });
    let heapMost = 0;
    const t0 = performance.now();
    for (;;) {
      heapMost = Math.max(heapMost, (await host.memory()).heapUsed);
      const status = await host.handle<{ lastCompleteAt: number | null }>('intake.status', {});
      if (status.lastCompleteAt !== null) break;
      if (performance.now() - t0 > intakeMinutes * 60_000) throw new Error(`intake's first pass did not complete in ${intakeMinutes} minutes (--intake-minutes)`);
      await sleep(250);
    }
    const intakeS = (performance.now() - t0) / 1_000;
    const atEnd = processMemory(host.pid);
    const usageAtEnd = await host.memory();
    const kindsAtEnd = residentKinds(host.pid);
    await first.close();
    if (snapshots) console.error(`  allocations during intake: ${String(await host.request({ kind: 'stopSampling', file: join(snapshots, `host-${orders}-intake.heapprofile`) }))}`);
    await snapshot('intake');
    if (snapshots) console.log('(with --snapshots: the host figures after intake include what writing its heap snapshots took)');
    console.log(`Packdesk on an old counter PC: ${orders} orders (${process.platform}, the host a process of its own, the sandbox another; bounds ${hostScale > 1 ? 'for the host doubled: ' : ''}issue 41)`);
    console.log(`First intake: ${orders} orders in ${intakeS.toFixed(0)} s (${load()})`);
    console.log(`  ${againstBound('host RSS at its peak (VmHWM)', spread([atEnd.peakRss / MB]), BOUND.peakRss * hostScale, 'MB')}`);
    console.log(`  host JS heap (used) at its most, read every 250 ms: ${(heapMost / MB).toFixed(1)} MB; at the pass's end RSS ${(atEnd.rss / MB).toFixed(1)} MB, JS heap ${(usageAtEnd.heapUsed / MB).toFixed(1)} MB`);
    console.log(`    ${whereItLies(kindsAtEnd, usageAtEnd)}`);

    // 2. Settled. (The page's renderer is told apart once the queue is in: loading, it is busy anyway.)
    const app = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    await app.goto(host.url);
    const onTerminal = (await host.handle<QueueHead>('orders.head', { rows: 1 })).ids.length;
    // Polled from here: the page's CSP refuses the eval behind a polling waitForFunction. The app's
    // own rows, not the host's drawing of the first screen (FIRST_SCREEN), which is in the page's
    // HTML and would be counted here even if the app never started.
    for (const until = performance.now() + 120_000; ; await sleep(250)) {
      const shown = Number(await app.evaluate(`document.querySelector(${JSON.stringify(FIRST_SCREEN)}) ? 0 : (document.querySelector('[data-testid="order-row"]')?.getAttribute('aria-setsize') ?? 0)`));
      if (shown >= onTerminal) break;
      if (performance.now() > until) {
        await app.screenshot({ path: join(tmpdir(), 'packdesk-bench-memory-page.png') }).catch(() => undefined);
        throw new Error(`the page shows ${shown} of the ${onTerminal} orders on the terminal (its screenshot: ${join(tmpdir(), 'packdesk-bench-memory-page.png')})`);
      }
    }
    const b: Browsing = { browser, browserPid, app, appPid: await rendererOf(app, browserPid), floorPid };
    // The ten readings take nine seconds and end at `settle` seconds after the pass.
    await sleep(Math.max(0, settleS * 1_000 - (performance.now() - t0 - intakeS * 1_000) - 9_000));
    const settledAt = Date.now();
    const settled = await readSettled(host, b);
    await snapshot('settled', app);
    const dumpBefore = dumps ? await rendererAllocators(b) : null;
    console.log(settledReport(`Settled, ${settleS} s after intake's pass, the queue on screen`, settled, hostScale));
    // Whether the host's collection after intake (host/heap-trim.ts) came before the reading: its RSS is the pass's garbage until it does.
    console.log(`  the host's full collections from its start to the reading: ${collectionsBetween(hostCollections(join(work, 'data', 'logs')), hostStartedAt, settledAt, 'its start')}`);

    // 3. Idle.
    console.error(`idle: ${idleRuns} windows of ${idleS} s…`);
    console.log(idleReport(`Idle, the queue on screen, ${idleRuns} windows of ${idleS} s`, await readIdle(host, b, idleS, idleRuns)));

    // 4. The busy hour, compressed (with --hours N, N of them one after the other, each read as the last is).
    let previous = settled;
    for (let hour = 1; hour < hours; hour++) {
      console.error(`busy hour ${hour} of ${hours}: ${busyMinutes} min…`);
      const c = await compressedHour(host, sandbox.adminUrl, busyMinutes);
      const ended = performance.now();
      // Read when the last hour is: `settle` seconds on, and its changes out of intake's overlap.
      await sleep(settleS * 1_000);
      await sleep(untilOverlapOver(ended));
      const reading = await readSettled(host, b);
      console.log(`Busy hour ${hour} of ${hours}: ${c.taps} taps (${c.refused} refused), ${c.placed} orders placed, ${c.cancelled} cancelled; read once its changes were out of intake's overlap`);
      console.log(growthReport(settled, reading, `Growth after busy hour ${hour} of ${hours}, from the first settled figures`));
      if (hour > 1) console.log(growthReport(previous, reading, `Growth in busy hour ${hour} alone`));
      previous = reading;
    }
    console.error(`busy hour${hours > 1 ? ` ${hours} of ${hours}` : ''}: ${busyMinutes} min…`);
    const busyStartedAt = Date.now();
    const counts = await compressedHour(host, sandbox.adminUrl, busyMinutes);
    const busyEnded = performance.now();
    const busyEndedAt = Date.now();
    console.log(
      `Busy hour compressed into ${busyMinutes} min (ten times a busy store's rate): ${counts.taps} taps (${counts.refused} refused), ${counts.placed} orders placed at the marketplace, ${counts.cancelled} cancelled there, ${counts.finished} worked to the end`,
    );
    const collections = hostCollections(join(work, 'data', 'logs'));
    console.log(tapReport(counts.tapMs, collections.filter((c) => c.at >= busyStartedAt && c.at <= busyEndedAt)));
    await sleep(settleS * 1_000);
    // For the overlap after the hour, intake's every pass reads again the orders the hour changed
    // in its last minutes (decisions.md, "Order intake"): the terminal is still at work then, which
    // is shown apart; the settled figures and the idle bound are for the time after it.
    const during = { rss: processMemory(host.pid).rss / MB, heap: (await host.memory()).heapUsed / MB };
    const catchUpFrom = (performance.now() - busyEnded) / 1_000;
    const catchUpS = untilOverlapOver(busyEnded) / 1_000;
    const catchingUp = await readIdle(host, b, catchUpS, 1);
    console.log(
      `For reference, ${catchUpFrom.toFixed(0)} s after the hour, intake still reading its changes again: host RSS ${during.rss.toFixed(1)} MB, JS heap ${during.heap.toFixed(1)} MB; ` +
        `then, until they are out of intake's overlap (${catchUpS.toFixed(0)} s): host CPU ${catchingUp.host.median.toFixed(2)} % of a core, renderer ${catchingUp.app.median.toFixed(2)} %`,
    );
    const afterAt = Date.now();
    const after = await readSettled(host, b);
    console.log(`The host's full collections between the hour's end and the reading: ${collectionsBetween(hostCollections(join(work, 'data', 'logs')), busyEndedAt, afterAt, 'the hour')}`);
    await snapshot('busy', app);
    if (snapshots) await app.screenshot({ path: join(snapshots, `page-${orders}-busy.png`) });
    console.log(settledReport(`Settled after the busy hour, once its changes are out of intake's overlap (${((performance.now() - busyEnded) / 1_000).toFixed(0)} s after it)`, after, hostScale));
    console.log(growthReport(settled, after, hours > 1 ? `Growth after busy hour ${hours} of ${hours}, from the first settled figures` : undefined));
    if (hours > 1) console.log(growthReport(previous, after, `Growth in busy hour ${hours} alone`));
    if (snapshots) {
      for (const who of ['host', 'page']) {
        const [before, after] = ['settled', 'busy'].map((n) => join(snapshots, `${who}-${orders}-${n}.heapsnapshot`));
        console.log(`Where the ${who}'s JS heap grew over the hour, by its heap snapshots (settled, after):\n${heapGrowth(readSummary(before!), readSummary(after!), 15)}`);
      }
    }
    if (dumpBefore) console.log(`Where the page's renderer grew, by Chromium's count (a memory dump after a collection; MB):\n${allocatorGrowth(dumpBefore, await rendererAllocators(b))}`);
    const pageProfiler = cpuProfiles ? await app.context().newCDPSession(app) : null;
    if (pageProfiler) {
      await pageProfiler.send('Profiler.enable');
      await pageProfiler.send('Profiler.setSamplingInterval', { interval: 10_000 });
      await pageProfiler.send('Profiler.start');
    }
    if (cpuProfiles) await host.request({ kind: 'startCpuProfile' });
    console.log(idleReport(`Idle after the busy hour, once its changes are out of intake's overlap, ${idleRuns} windows of ${idleS} s`, await readIdle(host, b, idleS, idleRuns)));
    if (cpuProfiles) console.error(`  where the host's idle CPU went: ${String(await host.request({ kind: 'stopCpuProfile', file: join(cpuProfiles, `host-${orders}-idle-after-busy.cpuprofile`) }))}`);
    if (pageProfiler && cpuProfiles) {
      const { profile } = await pageProfiler.send('Profiler.stop');
      const file = join(cpuProfiles, `page-${orders}-idle-after-busy.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      console.error(`  where the page's idle CPU went: ${file}`);
      // The page's own threads beside its script (compositor, raster, V8's helpers): 10 s of Chromium's trace.
      await browser.startTracing(app, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'cc', 'viz', 'v8', 'blink', 'toplevel', 'benchmark'] });
      await sleep(10_000);
      const trace = join(cpuProfiles, `page-${orders}-idle-after-busy.trace.json`);
      writeFileSync(trace, await browser.stopTracing());
      console.error(`  a trace of the idle page: ${trace}`);
    }
  } finally {
    await browser?.close().catch(() => undefined);
    await host?.stop().catch((e: unknown) => console.error(`the host did not stop cleanly: ${String(e)}`));
    await sandbox.stop();
    await floor.close();
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('memory.ts')) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exitCode = 1;
  });
}
