/**
 * `npm run electronegativity`: scans the built app (out/) with Electronegativity and fails on any
 * finding not in electronegativity-accepted.json, on any stale accepted entry, and on any file
 * the scanner could not parse. Run after `npm run build` (scripts/test.sh does).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import run from '@doyensec/electronegativity';
import { z } from 'zod';
import { REPO_ROOT } from '../support/paths';
import { AcceptedFileSchema, ScanResultSchema, describeIssue, judge, passes } from './findings';

const repo = REPO_ROOT;
const outDir = path.join(repo, 'out');
const acceptedFile = path.join(repo, 'electronegativity-accepted.json');
const ElectronPackageSchema = z.object({ version: z.string().regex(/^\d+\.\d+\.\d+/) });

async function main(): Promise<number> {
  if (!existsSync(path.join(outDir, 'main', 'index.js'))) {
    console.error('electronegativity: out/ has no build; run `npm run build` first.');
    return 1;
  }
  const accepted = AcceptedFileSchema.parse(JSON.parse(readFileSync(acceptedFile, 'utf8')));
  // out/ has no package.json, so the scanner is told the Electron version the app is built with.
  const electronVersion = ElectronPackageSchema.parse(JSON.parse(readFileSync(path.join(repo, 'node_modules', 'electron', 'package.json'), 'utf8'))).version;
  const started = Date.now();
  const raw = await run({
    input: outDir,
    isRelative: true,
    electronVersionOverride: electronVersion,
    excludeFromScan: accepted.excludedChecks.map((c) => c.check.toLowerCase()),
  });
  const scan = ScanResultSchema.parse(raw);
  const verdict = judge(scan, accepted);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`electronegativity: ${scan.globalChecks} global and ${scan.atomicChecks} atomic checks on out/ (Electron ${electronVersion}) in ${seconds} s`);
  for (const { issue, entry } of verdict.accepted) console.log(`  accepted  ${describeIssue(issue)}\n            because: ${entry.reason}`);
  for (const issue of verdict.unaccepted) console.error(`  FINDING   ${describeIssue(issue)}`);
  for (const entry of verdict.stale) console.error(`  STALE     accepted ${entry.id} in ${entry.file} ("${entry.sampleIncludes}") matched nothing: remove it, or find out why the scanner no longer sees it`);
  for (const e of verdict.unparsed) console.error(`  UNPARSED  ${e.file}: ${e.message}`);
  if (scan.atomicChecks === 0) {
    console.error('electronegativity: no checks ran');
    return 1;
  }
  if (!passes(verdict)) {
    console.error('electronegativity: FAILED. Fix the finding, or accept it in electronegativity-accepted.json with a reason.');
    return 1;
  }
  console.log('electronegativity: nothing unaccepted');
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error('electronegativity: the scan itself failed:', err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
