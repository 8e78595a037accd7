/**
 * Electronegativity findings against the accepted list. The scanner exits 0 whatever it finds, so
 * this decides: every finding must be accepted (by check id, file and a piece of its sample) with
 * a reason, and every accepted entry must still match something, so the list cannot go stale and
 * a scanner that silently stops seeing the code (e.g. after a bundling change) is noticed.
 */
import { z } from 'zod';

/** One issue as the scanner reports it (only the fields used here). */
export const IssueSchema = z.object({
  id: z.string(),
  file: z.string(),
  location: z.object({ line: z.number(), column: z.number() }),
  description: z.unknown().optional(),
  sample: z.string().optional(),
  severity: z.object({ name: z.string() }),
  confidence: z.object({ name: z.string() }),
  manualReview: z.boolean(),
});
export type Issue = z.infer<typeof IssueSchema>;

/** What electronegativity's run() resolves to. */
export const ScanResultSchema = z.object({
  globalChecks: z.number(),
  atomicChecks: z.number(),
  errors: z.array(z.object({ file: z.string(), message: z.string(), tolerable: z.boolean() })),
  issues: z.array(IssueSchema),
});
export type ScanResult = z.infer<typeof ScanResultSchema>;

const Reason = z.string().trim().min(20, 'say why in a sentence');

/** The accepted-findings file (electronegativity-accepted.json). */
export const AcceptedFileSchema = z
  .object({
    /** Checks not run at all, each with why. */
    excludedChecks: z.array(z.object({ check: z.string().regex(/^[A-Za-z]+$/), reason: Reason }).strict()),
    /** Findings accepted after review. */
    accepted: z.array(
      z
        .object({
          id: z.string().regex(/^[A-Z0-9_]+$/),
          /** Path relative to out/, e.g. main/index.js. */
          file: z.string().min(1),
          /** A piece of the finding's sample (the code or CSP it points at). */
          sampleIncludes: z.string().min(1),
          reason: Reason,
        })
        .strict(),
    ),
  })
  .strict();
export type AcceptedFile = z.infer<typeof AcceptedFileSchema>;
export type Accepted = AcceptedFile['accepted'][number];

/** Whether an accepted entry covers an issue. */
export function covers(entry: Accepted, issue: Issue): boolean {
  return entry.id === issue.id && entry.file === issue.file.replace(/\\/g, '/') && (issue.sample ?? '').includes(entry.sampleIncludes);
}

export interface Verdict {
  /** Findings no entry accepts: the test fails on these. */
  readonly unaccepted: readonly Issue[];
  /** Entries that matched nothing: the test fails on these too. */
  readonly stale: readonly Accepted[];
  /** Files the scanner could not parse (not tolerable): blind spots, also a failure. */
  readonly unparsed: readonly { file: string; message: string }[];
  readonly accepted: readonly { issue: Issue; entry: Accepted }[];
}

/** Compares a scan with the accepted list. */
export function judge(scan: ScanResult, accepted: AcceptedFile): Verdict {
  const unaccepted: Issue[] = [];
  const matched: { issue: Issue; entry: Accepted }[] = [];
  const used = new Set<Accepted>();
  for (const issue of scan.issues) {
    const entry = accepted.accepted.find((a) => covers(a, issue));
    if (entry) {
      used.add(entry);
      matched.push({ issue, entry });
    } else {
      unaccepted.push(issue);
    }
  }
  return {
    unaccepted,
    stale: accepted.accepted.filter((a) => !used.has(a)),
    unparsed: scan.errors.filter((e) => !e.tolerable).map(({ file, message }) => ({ file, message })),
    accepted: matched,
  };
}

/** True when the verdict lets the test pass. */
export function passes(verdict: Verdict): boolean {
  return verdict.unaccepted.length === 0 && verdict.stale.length === 0 && verdict.unparsed.length === 0;
}

/** One line per finding for the console. */
export function describeIssue(issue: Issue): string {
  const sample = (issue.sample ?? '').replace(/\s+/g, ' ').slice(0, 120);
  return `${issue.id} ${issue.file}:${issue.location.line}:${issue.location.column} [${issue.severity.name}/${issue.confidence.name}${issue.manualReview ? ', review' : ''}] ${sample}`;
}
