/**
 * The classified answer to a read call (`changes`, `status`), as decisions.md's intake section
 * defines the classes. Intake and the outbox's check before resend decide from this value alone.
 */
import { errorResponseSchema, isOrderNotFound, type Order } from '../../../shared/protocol/schemas';
import type { Problem } from '../../../shared/result';
import { CERTIFICATE_UNTRUSTED, describeBytes, type NetworkFailure } from './http';
import { capRetryAfter, parseRetryAfter } from './retry-after';

/** What came back from one POST: an HTTP answer, or no answer at all. */
export type HttpAnswer =
  | { readonly kind: 'http'; readonly status: number; readonly headers: Headers; readonly body: string; readonly overCap: boolean }
  | { readonly kind: 'network'; readonly failure: NetworkFailure };

/** An HTTP exchange after the token dance: the answer, or why no request could be made. */
export type Exchange =
  | HttpAnswer
  | { readonly kind: 'token'; readonly problem: Problem }
  | { readonly kind: 'refusedFresh'; readonly status: number; readonly message: string };

/** Failures shared by both read calls. */
export type ReadFailure =
  /** Network error, timeout, 408/425/429/5xx: back off (Retry-After honoured) and try again. */
  | {
      readonly kind: 'transient';
      readonly message: string;
      readonly status?: number;
      readonly retryAfterMs?: number;
      readonly network: boolean;
      /** The server's certificate is not trusted (token server or order service): reached, so not `network`; a person must look. */
      readonly certificate?: true;
    }
  /** Token refused even after a refresh, or no credentials. */
  | { readonly kind: 'auth'; readonly message: string }
  /** 403, or 404 without the service's "order not found": this client may not use the call. */
  | { readonly kind: 'noAccess'; readonly status: number; readonly message: string }
  /** A 2xx that could not be read, or another 4xx: a bug on one side; said, not retried at once. */
  | { readonly kind: 'refused'; readonly status: number; readonly message: string };

/** One page of `changes`. */
export type ChangesPage = { readonly orderIds: readonly string[]; readonly nextPage: string | null };

export type ChangesOutcome =
  | { readonly kind: 'ok'; readonly value: ChangesPage }
  /** A 2xx with an empty body: no ids on this page, and no next page. */
  | { readonly kind: 'accepted'; readonly status: number }
  | { readonly kind: 'notFound'; readonly message: string }
  | ReadFailure;

export type StatusOutcome =
  | { readonly kind: 'order'; readonly order: Order; readonly raw: unknown }
  /** A 2xx with an empty body: the call succeeded but carried no order. */
  | { readonly kind: 'accepted'; readonly status: number }
  /** NOT_FOUND / ORDER_NOT_FOUND: the service does not know this order. */
  | { readonly kind: 'notFound'; readonly message: string }
  /**
   * This order's body, but one that breaks the schema's ranges or the id rule: set aside as
   * unreadable (the answer kept for support) until the service sends a body that can be read.
   */
  | { readonly kind: 'unreadableOrder'; readonly message: string; readonly rawBody: string }
  | ReadFailure;

type Parse<T> = (json: unknown) => { ok: true; value: T } | { ok: false; reason: string };

/** Classifies an exchange of a read call; `scrub` masks secrets in text from outside. */
export function classifyRead<T>(
  answer: Exchange,
  what: 'changes' | 'status',
  now: number,
  parse: Parse<T>,
  scrub: (text: string) => string,
  maxBytes?: number,
): { readonly kind: 'ok'; readonly value: T } | { readonly kind: 'accepted'; readonly status: number } | { readonly kind: 'notFound'; readonly message: string } | ReadFailure {
  const call = what === 'changes' ? 'the changed-orders call' : 'the order status call';
  if (answer.kind === 'token') return fromTokenProblem(answer.problem);
  if (answer.kind === 'refusedFresh') return { kind: 'auth', message: answer.message };
  if (answer.kind === 'network')
    return answer.failure.cause === 'certificate'
      ? { kind: 'transient', message: answer.failure.message, network: false, certificate: true }
      : { kind: 'transient', message: answer.failure.message, network: true };
  const { status, body } = answer;
  if (status >= 200 && status <= 299) {
    // A cut body is seldom JSON: say what happened, not that the service spoke gibberish.
    if (answer.overCap)
      return {
        kind: 'refused',
        status,
        message: `The order service answered ${call} (HTTP ${status}) with an answer too large to read${maxBytes !== undefined ? ` (over ${describeBytes(maxBytes)})` : ''}`,
      };
    if (body.trim() === '') return { kind: 'accepted', status };
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      return { kind: 'refused', status, message: `The order service answered ${call} (HTTP ${status}) with a body that is not JSON` };
    }
    const parsed = parse(json);
    if (parsed.ok) return { kind: 'ok', value: parsed.value };
    return { kind: 'refused', status, message: `The order service's answer to ${call} could not be read: ${scrub(parsed.reason).slice(0, 300)}` };
  }
  const error = serviceError(body, scrub);
  const said = error ? `: ${error.errorCode}: ${error.message}` : '';
  if (status === 408 || status === 425 || status === 429 || (status >= 500 && status <= 599)) {
    // Capped like the outbox's, so an absurd Retry-After cannot stop intake for days.
    const retryAfterMs = capRetryAfter(parseRetryAfter(answer.headers.get('retry-after'), now));
    return {
      kind: 'transient',
      status,
      network: false,
      message: `The order service ${status === 429 ? 'asked the terminal to slow down' : 'could not answer'} ${call} (HTTP ${status}${said})`,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    };
  }
  if (isOrderNotFound(error?.errorCode)) return { kind: 'notFound', message: error?.message ?? 'The order was not found' };
  if (status === 403 || status === 404)
    return {
      kind: 'noAccess',
      status,
      message: `This terminal has no access to ${call} (HTTP ${status}${said}). Ask the marketplace to enable it for these credentials, or check the order service address; scanning and typing order ids still work.`,
    };
  return { kind: 'refused', status, message: `The order service refused ${call} (HTTP ${status}${said})` };
}

function fromTokenProblem(problem: Problem): ReadFailure {
  if (problem.kind === 'transient' && problem.code === CERTIFICATE_UNTRUSTED) return { kind: 'transient', message: problem.message, network: false, certificate: true };
  if (problem.kind === 'transient') return { kind: 'transient', message: problem.message, network: true };
  return { kind: 'auth', message: problem.message };
}

function serviceError(body: string, scrub: (t: string) => string): { errorCode: string; message: string } | undefined {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return undefined;
  }
  const parsed = errorResponseSchema().safeParse(json);
  if (!parsed.success) return undefined;
  return { errorCode: scrub(parsed.data.error.errorCode).slice(0, 100), message: scrub(parsed.data.error.message).slice(0, 500) };
}
