/**
 * bench/memory.ts's figures as it prints them, each beside its bound (issue 41): what it read of the
 * host and the page settled and idle, and the growth between two settled readings.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ResidentKinds } from './procfs';
import { type Spread, spread } from './stats';

export const MB = 1024 * 1024;
export const BOUND = { settledRss: 150, peakRss: 250, settledHeap: 60, rendererOverFloor: 60, growth: 0.05, idleCpuPercent: 0.3 };

/** "312.4 MB (n=10: median; p99 313.0 MB); bound 150 MB: 2.08x (OVER)". */
export function againstBound(title: string, s: Spread, bound: number, unit: string, digits = 1): string {
  const v = (x: number): string => `${x.toFixed(digits)} ${unit}`;
  const head = s.n > 1 ? `median ${v(s.median)}  p99 ${v(s.p99)} (n=${s.n})` : v(s.median);
  const verdict = s.p99 <= bound ? 'within' : 'OVER';
  return `${title}: ${head}; bound ${v(bound)}: median ${(s.median / bound).toFixed(2)}x  p99 ${(s.p99 / bound).toFixed(2)}x (${verdict})`;
}

export function figure(title: string, s: Spread, unit: string, digits = 1): string {
  const v = (x: number): string => `${x.toFixed(digits)} ${unit}`;
  return `${title}: ${s.n > 1 ? `median ${v(s.median)}  p99 ${v(s.p99)} (n=${s.n})` : v(s.median)}`;
}


export interface Settled {
  readonly hostRss: Spread;
  readonly hostHeap: Spread;
  readonly appRss: Spread;
  readonly appPss: Spread;
  /** The page's renderer's own pages (procfs.ts, `uss`): not moved by what else runs on the machine. */
  readonly appUss: Spread;
  readonly floorRss: Spread;
  readonly floorPss: Spread;
  readonly browserPss: Spread;
  /** rests: the page's own collections after busy spells so far (renderer memory/rest.ts), restAgoS: seconds since the last. */
  readonly page: { heap: number; nodes: number; liveHeap: number; rests: number; restAgoS: number | null };
  readonly orders: number;
  /** The host at the last reading: where its resident set lies, and V8's and Node's own counts. */
  readonly hostKinds: ResidentKinds;
  readonly hostUsage: NodeJS.MemoryUsage;
  /** The host's JS heap after a compacting collection, MB: what it holds, garbage aside. */
  readonly liveHeap: number;
  /** Of which V8's compiled code, MB. */
  readonly liveCode: number;
  /** What the engine keeps between calls, by count. */
  readonly held: { bodies: number; actions: number; tapProjections: number; viewProjections: number } | null;
}


export interface Idle {
  readonly host: Spread;
  readonly app: Spread;
  readonly floor: Spread;
  readonly loads: string[];
}


export function settledReport(title: string, s: Settled, hostScale: number): string {
  const margin = s.floorRss.median + BOUND.rendererOverFloor;
  return [
    `${title} (${s.orders} orders on the terminal)`,
    `  ${againstBound('host RSS', s.hostRss, BOUND.settledRss * hostScale, 'MB')}`,
    `  ${againstBound('host JS heap (used)', s.hostHeap, BOUND.settledHeap * hostScale, 'MB')}`,
    `    ${whereItLies(s.hostKinds, s.hostUsage)}`,
    `    live JS heap, after the bench asked for a compacting collection (read last): ${s.liveHeap.toFixed(1)} MB, of which V8's compiled code ${s.liveCode.toFixed(1)} MB`,
    `    the engine keeps: ${s.held ? `${s.held.bodies} parsed order bodies, ${s.held.actions} parsed taps' actions, projections of ${s.held.tapProjections} orders for taps and ${s.held.viewProjections} for the screens` : 'no engine'}`,
    `  ${againstBound("page's renderer RSS", s.appRss, margin, 'MB')}  [the floor's ${s.floorRss.median.toFixed(1)} MB + ${BOUND.rendererOverFloor} MB]`,
    `    over the floor: ${(s.appRss.median - s.floorRss.median).toFixed(1)} MB RSS (bound ${BOUND.rendererOverFloor} MB: ${((s.appRss.median - s.floorRss.median) / BOUND.rendererOverFloor).toFixed(2)}x)`,
    `  ${figure("page's renderer PSS", s.appPss, 'MB')}; ${figure('its own pages (USS)', s.appUss, 'MB')}; ${figure("the floor's renderer RSS", s.floorRss, 'MB')}; ${figure('PSS', s.floorPss, 'MB')}`,
    `  the page's JS heap ${(s.page.heap / MB).toFixed(1)} MB (after a full collection the bench asked for, read last: ${(s.page.liveHeap / MB).toFixed(1)} MB), ${s.page.nodes} DOM nodes; all of Chromium's processes together: PSS ${s.browserPss.median.toFixed(1)} MB`,
    `    the page's own collections after busy spells so far: ${s.page.rests}${s.page.restAgoS === null ? '' : `, the last ${s.page.restAgoS.toFixed(0)} s before this reading`}`,
  ].join('\n');
}

/** The host's resident set by kind of mapping, beside V8's heap and Node's external memory. */
export function whereItLies(k: ResidentKinds, u: NodeJS.MemoryUsage): string {
  const mb = (v: number): string => (v / MB).toFixed(1);
  return (
    `where the host's RSS lies: files mapped (node, libraries) ${mb(k.file)} MB, C heap ${mb(k.brk)} MB, anonymous ${mb(k.anon)} MB ` +
    `(V8's heap committed ${mb(u.heapTotal)} MB, used ${mb(u.heapUsed)} MB; external ${mb(u.external)} MB, of which array buffers ${mb(u.arrayBuffers)} MB)`
  );
}

export function idleReport(title: string, idle: Idle): string {
  return [
    `${title} (windows at ${idle.loads.join(', ')})`,
    `  ${againstBound('host CPU', idle.host, BOUND.idleCpuPercent, '% of a core', 2)}`,
    `  ${againstBound("page's renderer CPU", idle.app, BOUND.idleCpuPercent, '% of a core', 2)}`,
    `  ${figure("the floor's renderer CPU (for reference)", idle.floor, '% of a core', 2)}`,
  ].join('\n');
}

export function growthReport(before: Settled, after: Settled, title = 'Growth after the busy hour, settled figures'): string {
  const line = (title: string, was: Spread, now: Spread): string => {
    const g = now.median / was.median - 1;
    return `  ${title}: ${was.median.toFixed(1)} -> ${now.median.toFixed(1)} MB, ${g >= 0 ? '+' : ''}${(g * 100).toFixed(1)} %; bound +${BOUND.growth * 100} %: ${(g / BOUND.growth).toFixed(2)}x (${g <= BOUND.growth ? 'within' : 'OVER'})`;
  };
  return [
    `${title} (orders on the terminal ${before.orders} -> ${after.orders})`,
    line('host RSS', before.hostRss, after.hostRss),
    line('host JS heap', before.hostHeap, after.hostHeap),
    line('host live JS heap (after a compacting collection)', spread([before.liveHeap]), spread([after.liveHeap])),
    line("  the same without V8's compiled code", spread([before.liveHeap - before.liveCode]), spread([after.liveHeap - after.liveCode])),
    line("page's renderer RSS", before.appRss, after.appRss),
    line("page's renderer PSS", before.appPss, after.appPss),
    line("page's renderer's own pages (USS: what PSS shares with no other process)", before.appUss, after.appUss),
    line("page's live JS heap (after a full collection)", spread([before.page.liveHeap / MB]), spread([after.page.liveHeap / MB])),
  ].join('\n');
}


/** One of the host's own full collections (core/host/heap-trim.ts), as its log says it. */
export interface HostCollection {
  readonly at: number;
  readonly why: string;
  readonly pauseMs: number;
  /** The host's RSS just before and after it (the log's MB, 10^6 bytes). */
  readonly rssMb: readonly [number, number];
}

/** "n (why, s after `from`, pause ms, RSS before -> after)" for the collections between `from` and `to` (epoch ms). */
export function collectionsBetween(all: readonly HostCollection[], from: number, to: number, after: string): string {
  const these = all.filter((c) => c.at > from && c.at <= to);
  return `${these.length}${these.map((c) => ` (${c.why}, ${((c.at - from) / 1_000).toFixed(0)} s after ${after}, ${c.pauseMs} ms, RSS ${c.rssMb[0]} -> ${c.rssMb[1]} MB)`).join('')}`;
}

/** The host's full collections in its log files (every rotated one too), oldest first. */
export function hostCollections(logDir: string): HostCollection[] {
  const found: HostCollection[] = [];
  let names: string[] = [];
  try {
    names = readdirSync(logDir).filter((n) => /^packdesk(\.\d+)?\.log$/.test(n));
  } catch {
    return found;
  }
  for (const name of names) {
    for (const line of readFileSync(join(logDir, name), 'utf8').split('\n')) {
      if (!line.includes('memory given back')) continue;
      try {
        const r = JSON.parse(line) as { time: string; fields?: { why?: string; pauseMs?: number; rssMbBefore?: number; rssMbAfter?: number } };
        const f = r.fields ?? {};
        found.push({ at: Date.parse(r.time), why: String(f.why ?? '?'), pauseMs: Number(f.pauseMs ?? Number.NaN), rssMb: [Number(f.rssMbBefore ?? Number.NaN), Number(f.rssMbAfter ?? Number.NaN)] });
      } catch {
        // A line cut short as the file rotated: not one of these.
      }
    }
  }
  return found.sort((a, b) => a.at - b.at);
}

/** Taps' answers during the busy hour beside the host's collections then (each a pause of its one thread). */
export function tapReport(tapMs: readonly number[], collections: readonly HostCollection[]): string {
  const t = spread(tapMs);
  const frame = tapMs.filter((ms) => ms > 1_000 / 60).length;
  const pauses = spread(collections.map((c) => c.pauseMs));
  const whys = [...new Set(collections.map((c) => c.why))].join(', ') || 'none';
  return (
    `  taps, request to the host's answer (the entry durable): median ${t.median.toFixed(1)} ms  p95 ${t.p95.toFixed(1)}  p99 ${t.p99.toFixed(1)}  max ${t.max.toFixed(1)} (n=${t.n}); ${frame} over a frame (16.7 ms)\n` +
    `  the host's full collections during the hour: ${collections.length} (${whys})${collections.length > 0 ? `, each pausing it ${pauses.median.toFixed(0)} ms (median), ${pauses.max.toFixed(0)} ms at most` : ''}`
  );
}
