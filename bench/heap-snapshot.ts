/**
 * Where a JS heap grew between two heap snapshots (.heapsnapshot files, as V8 and DevTools write
 * them): the objects' own sizes summed by what they are, broad kinds first (V8's compiled code,
 * strings, JS objects and arrays, V8's own shapes and system objects, the embedder's), then the
 * groups that grew most: objects by constructor, closures by function, code and system objects by
 * V8's name for them, every string as one group (a string's name is its text).
 * bench/memory.ts --snapshots writes the host's and the page's, settled and after the busy hour.
 * Run: npx tsx bench/heap-snapshot.ts BEFORE.heapsnapshot AFTER.heapsnapshot [--top 25]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

/** A page's JS heap written to `file` over the DevTools protocol (V8 collects before it writes). */
export async function writePageSnapshot(page: Page, file: string): Promise<string> {
  const cdp = await page.context().newCDPSession(page);
  const chunks: string[] = [];
  cdp.on('HeapProfiler.addHeapSnapshotChunk', (e) => chunks.push(e.chunk));
  try {
    await cdp.send('HeapProfiler.enable');
    await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
    await cdp.send('HeapProfiler.disable');
  } finally {
    await cdp.detach().catch(() => undefined);
  }
  writeFileSync(file, chunks.join(''));
  return file;
}

export interface Group {
  count: number;
  bytes: number;
}

export interface HeapSummary {
  readonly kinds: ReadonlyMap<string, Group>;
  readonly groups: ReadonlyMap<string, Group>;
}

interface SnapshotFile {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

const KIND_OF_TYPE: Readonly<Record<string, string>> = {
  code: "V8's code (bytecode, feedback, compiled)",
  string: 'strings',
  'concatenated string': 'strings',
  'sliced string': 'strings',
  object: 'JS objects, arrays, closures',
  closure: 'JS objects, arrays, closures',
  array: 'JS objects, arrays, closures',
  regexp: 'JS objects, arrays, closures',
  number: 'JS objects, arrays, closures',
  symbol: 'JS objects, arrays, closures',
  bigint: 'JS objects, arrays, closures',
  hidden: "V8's shapes and system objects",
  'object shape': "V8's shapes and system objects",
  native: "the embedder's (DOM, Blink, Node)",
  synthetic: "the embedder's (DOM, Blink, Node)",
};

/** The group a node is counted in: see the file's head. */
export function groupOf(type: string, name: string): string {
  if (type === 'string' || type === 'concatenated string' || type === 'sliced string') return 'string';
  if (type === 'code') {
    if (name.startsWith('(code for ')) return 'code (compiled machine code)';
    if (name === '') return 'code (no name)';
    if (name.startsWith('system / ') || name.startsWith('(')) return `code ${name}`;
    return 'code (a function named in it)';
  }
  const short = name.length > 60 ? `${name.slice(0, 57)}...` : name;
  return `${type} ${short}`;
}

function add(map: Map<string, Group>, key: string, bytes: number): void {
  const g = map.get(key);
  if (g) {
    g.count += 1;
    g.bytes += bytes;
  } else map.set(key, { count: 1, bytes });
}

/** Sums a snapshot's nodes by kind and by group. */
export function summarize(snapshot: SnapshotFile): HeapSummary {
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const [typeAt, nameAt, sizeAt] = [fields.indexOf('type'), fields.indexOf('name'), fields.indexOf('self_size')];
  if (typeAt < 0 || nameAt < 0 || sizeAt < 0) throw new Error('not a V8 heap snapshot: its nodes have no type, name or self_size');
  const kinds = new Map<string, Group>();
  const groups = new Map<string, Group>();
  for (let i = 0; i < snapshot.nodes.length; i += fields.length) {
    const type = types[snapshot.nodes[i + typeAt]!] ?? 'unknown';
    const bytes = snapshot.nodes[i + sizeAt]!;
    add(kinds, KIND_OF_TYPE[type] ?? type, bytes);
    add(groups, groupOf(type, snapshot.strings[snapshot.nodes[i + nameAt]!] ?? ''), bytes);
  }
  return { kinds, groups };
}

export function readSummary(file: string): HeapSummary {
  return summarize(JSON.parse(readFileSync(file, 'utf8')) as SnapshotFile);
}

const KB = 1024;

function line(key: string, before: Group | undefined, after: Group | undefined): string {
  const [b, a] = [before ?? { count: 0, bytes: 0 }, after ?? { count: 0, bytes: 0 }];
  const d = a.bytes - b.bytes;
  return `  ${key.padEnd(64)} ${(b.bytes / KB).toFixed(0).padStart(8)} -> ${(a.bytes / KB).toFixed(0).padStart(8)} kB  ${(d >= 0 ? '+' : '') + (d / KB).toFixed(0)} kB  (${b.count} -> ${a.count})`;
}

/** The kinds, then the `top` groups that grew most and the `top` that shrank most, in kB. */
export function heapGrowth(before: HeapSummary, after: HeapSummary, top = 25): string {
  const total = (s: HeapSummary) => [...s.kinds.values()].reduce((t, g) => ({ count: t.count + g.count, bytes: t.bytes + g.bytes }), { count: 0, bytes: 0 });
  const out = [line('the whole heap (objects\' own sizes)', total(before), total(after)), 'by kind:'];
  for (const k of new Set([...before.kinds.keys(), ...after.kinds.keys()])) out.push(line(k, before.kinds.get(k), after.kinds.get(k)));
  const deltas = [...new Set([...before.groups.keys(), ...after.groups.keys()])].map((k) => ({ k, d: (after.groups.get(k)?.bytes ?? 0) - (before.groups.get(k)?.bytes ?? 0) }));
  deltas.sort((x, y) => y.d - x.d);
  out.push(`grew most:`);
  for (const { k, d } of deltas.slice(0, top)) if (d > 0) out.push(line(k, before.groups.get(k), after.groups.get(k)));
  out.push(`shrank most:`);
  for (const { k, d } of deltas.slice(-top).reverse()) if (d < 0) out.push(line(k, before.groups.get(k), after.groups.get(k)));
  return out.join('\n');
}

if (process.argv[1]?.endsWith('heap-snapshot.ts')) {
  const [beforeFile, afterFile] = process.argv.slice(2).filter((a) => a.endsWith('.heapsnapshot'));
  if (!beforeFile || !afterFile) {
    console.error('Run: npx tsx bench/heap-snapshot.ts BEFORE.heapsnapshot AFTER.heapsnapshot [--top 25]');
    process.exit(2);
  }
  const i = process.argv.indexOf('--top');
  const top = i >= 0 ? Number(process.argv[i + 1]) : 25;
  console.log(`${beforeFile} -> ${afterFile}\n${heapGrowth(readSummary(beforeFile), readSummary(afterFile), top)}`);
}
