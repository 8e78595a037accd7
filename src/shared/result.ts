/**
 * Errors are values with a kind, and a message a packer or a support person understands.
 * - transient: try again later (network, 5xx, 429)
 * - auth: credentials or token problem
 * - permanent: the service refused the action; retrying the same thing will not help
 * - invalid: refused locally before anything was queued or sent
 * - storage: the terminal's own data file could not be written (disk full, read-only, I/O error):
 *   never the network's fault, and never the service's
 */
export type ErrorKind = 'transient' | 'auth' | 'permanent' | 'invalid' | 'storage';

export interface Problem {
  readonly kind: ErrorKind;
  readonly message: string;
  /** Machine-readable code, e.g. the service's errorCode or a local refusal code. */
  readonly code?: string;
  /** What the code's sentence needs filled in, so the renderer can say it in the staff's language. */
  readonly values?: Readonly<Record<string, string | number>>;
}

export type Result<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: Problem };

/** A successful result. */
export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

/** A refused result; `values` fill in the code's sentence in the renderer's languages. */
export function fail<T = never>(kind: ErrorKind, message: string, code?: string, values?: Readonly<Record<string, string | number>>): Result<T> {
  if (code === undefined) return { ok: false, problem: { kind, message } };
  return { ok: false, problem: values === undefined ? { kind, message, code } : { kind, message, code, values } };
}

/** An Error that carries a Problem, for code paths that must throw (e.g. async APIs). */
export class ProblemError extends Error {
  readonly problem: Problem;
  constructor(problem: Problem) {
    super(problem.message);
    this.name = 'ProblemError';
    this.problem = problem;
  }
}
