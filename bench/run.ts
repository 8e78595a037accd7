/**
 * `npm run bench`: runs every benchmark under bench/ one after the other, each in its own process so
 * one's memory and timers cannot colour the next's figures. Extra arguments name a subset:
 *   npm run bench -- drain tap-durable
 * The store soak and the memory bench (each about half an hour) run only when named:
 *   npm run bench -- store-soak memory
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

/** Modules here that are not benchmarks. */
const HELPERS = new Set([
  'run.ts', 'stats.ts', 'engine-start-child.ts', 'floor.ts', 'host-process.ts', 'processes.ts', 'first-screen-probe.ts', 'tap-floor.ts', 'procfs.ts', 'cores.ts', 'ui-packer-report.ts', 'memory-report.ts',
  'store-soak-counter.ts', 'store-soak-check.ts',
]);
/** Benchmarks too long for every run: only when named. */
const LONG = new Set(['store-soak', 'memory']);
const dir = __dirname;
const all = readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && !HELPERS.has(f))
  .map((f) => f.replace(/\.ts$/, ''))
  .sort();
const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !all.includes(w));
if (unknown.length > 0) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; known: ${all.join(', ')}`);
  process.exit(2);
}
let failed = 0;
for (const name of wanted.length > 0 ? wanted : all.filter((n) => !LONG.has(n))) {
  console.log(`\n=== ${name} ===`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(dir, `${name}.ts`)], { stdio: 'inherit' });
  if (r.status !== 0) {
    failed += 1;
    console.error(`${name} exited with ${r.status ?? r.signal}`);
  }
}
process.exit(failed > 0 ? 1 : 0);
