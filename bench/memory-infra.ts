/**
 * Where a Chromium renderer's memory lies, by Chromium's own accounting (MemoryInfra): a memory
 * dump asked for over the browser's DevTools protocol, the sizes its allocators report (V8, Blink's
 * garbage-collected heap, PartitionAlloc's partitions, malloc, the compositor's tiles, Skia's and
 * the fonts' caches…). bench/memory.ts --memory-dumps takes one settled and one after the busy hour
 * and prints what grew: the page's RSS is the OS's count and says nothing of which of these it is.
 * See Chromium's docs/memory-infra. A dump forces a garbage collection first (deterministic).
 */
import type { Browser } from 'playwright-core';

/** Allocator name ("partition_alloc/partitions/buffer") to its size in bytes, for one process. */
export type Allocators = ReadonlyMap<string, number>;

interface DumpEvent {
  readonly ph?: string;
  readonly pid?: number;
  readonly args?: { dumps?: { allocators?: Record<string, { attrs?: { size?: { value?: string } } }>; process_totals?: Record<string, string> } };
}

/** One detailed dump of every Chromium process: by pid, its allocators' sizes and its totals. */
export async function memoryDump(browser: Browser): Promise<Map<number, { allocators: Allocators; totals: Allocators }>> {
  const cdp = await browser.newBrowserCDPSession();
  const events: DumpEvent[] = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...(e.value as DumpEvent[])));
  const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  try {
    await cdp.send('Tracing.start', {
      transferMode: 'ReportEvents',
      traceConfig: { includedCategories: ['disabled-by-default-memory-infra'], excludedCategories: ['*'], memoryDumpConfig: {} },
    });
    const { success } = await cdp.send('Tracing.requestMemoryDump', { deterministic: true, levelOfDetail: 'detailed' });
    await cdp.send('Tracing.end');
    await complete;
    if (!success) throw new Error('Chromium did not complete the memory dump');
  } finally {
    await cdp.detach().catch(() => undefined);
  }
  const byPid = new Map<number, { allocators: Map<string, number>; totals: Map<string, number> }>();
  for (const e of events) {
    const dumps = e.ph === 'v' && e.pid !== undefined ? e.args?.dumps : undefined;
    if (!dumps || e.pid === undefined) continue;
    const into = byPid.get(e.pid) ?? { allocators: new Map<string, number>(), totals: new Map<string, number>() };
    byPid.set(e.pid, into);
    for (const [name, a] of Object.entries(dumps.allocators ?? {})) {
      const hex = a.attrs?.size?.value;
      if (hex !== undefined) into.allocators.set(name, Number.parseInt(hex, 16));
    }
    for (const [name, hex] of Object.entries(dumps.process_totals ?? {})) if (typeof hex === 'string') into.totals.set(name, Number.parseInt(hex, 16));
  }
  return byPid;
}

const MiB = 1024 * 1024;

/**
 * The allocators of three levels at most ("partition_alloc/partitions/buffer") side by side, before and after, those
 * that moved by `least` bytes or more first by how much: what of a process's memory grew.
 */
export function allocatorGrowth(before: Allocators, after: Allocators, least = 256 * 1024): string {
  const names = [...new Set([...before.keys(), ...after.keys()])].filter((n) => n.split('/').length <= 3 && !/0x|[0-9A-F]{16}/.test(n));
  const rows = names
    .map((n) => ({ n, a: before.get(n) ?? 0, b: after.get(n) ?? 0 }))
    .filter((r) => Math.abs(r.b - r.a) >= least || (r.n.split('/').length === 1 && r.b >= least))
    .sort((x, y) => Math.abs(y.b - y.a) - Math.abs(x.b - x.a));
  const mb = (x: number): string => (x / MiB).toFixed(1).padStart(7);
  return rows.map((r) => `    ${r.n.padEnd(44)} ${mb(r.a)} -> ${mb(r.b)} MB (${r.b >= r.a ? '+' : ''}${((r.b - r.a) / MiB).toFixed(1)})`).join('\n');
}
