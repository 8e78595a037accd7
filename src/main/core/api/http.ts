/**
 * The small pieces every outgoing HTTP call of the engine shares: injectable timers, a deadline
 * combined with the caller's AbortSignal, and network failures described in words.
 */

import { systemTimers, type Timers } from '../time';

export type { Timers } from '../time';
/** Node's timers, unref'd (a pending deadline never keeps a CLI open): core/time's, under the name HTTP callers know. */
export const realTimers: Timers = systemTimers;

/** A per-request deadline joined with the caller's signal. Call `done()` once the body is read. */
export interface Deadline {
  readonly signal: AbortSignal;
  /** True when our deadline (not the caller) ended the request. */
  timedOut(): boolean;
  /** True when the caller's signal ended the request. */
  cancelled(): boolean;
  done(): void;
}

/** Starts a deadline of `timeoutMs` that also ends when `callerSignal` aborts. */
export function startDeadline(timeoutMs: number, timers: Timers, callerSignal?: AbortSignal): Deadline {
  const controller = new AbortController();
  let expired = false;
  const handle = timers.setTimeout(() => {
    expired = true;
    controller.abort(new DOMException('The request took too long', 'TimeoutError'));
  }, timeoutMs);
  const onCallerAbort = (): void => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted) onCallerAbort();
  else callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => expired,
    cancelled: () => !expired && callerSignal?.aborted === true,
    done() {
      timers.clearTimeout(handle);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    },
  };
}

export type NetworkFailureCause = 'timeout' | 'cancelled' | 'refused' | 'dns' | 'reset' | 'network' | 'certificate';

/** Problem code of a server whose certificate this computer does not trust (self-signed, expired, another name). */
export const CERTIFICATE_UNTRUSTED = 'CERTIFICATE_UNTRUSTED';

// TLS verdicts on the server's certificate: the network worked, the server was reached, and this
// computer refused to talk to it. Retrying or "checking the network" cannot mend them.
const CERTIFICATE_CODES: Readonly<Record<string, string>> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'it is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'it is signed by an authority this computer does not trust',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its signer cannot be verified',
  UNABLE_TO_GET_ISSUER_CERT: 'its signer cannot be verified',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'it is signed by an authority this computer does not trust',
  CERT_UNTRUSTED: 'it is not trusted',
  CERT_REJECTED: 'it is not trusted',
  CERT_REVOKED: 'it was revoked',
  CERT_HAS_EXPIRED: "it has expired (or this computer's clock is far ahead)",
  CERT_NOT_YET_VALID: "it is not valid yet (or this computer's clock is far behind)",
  CERT_SIGNATURE_FAILURE: 'its signature is broken',
  ERR_TLS_CERT_ALTNAME_INVALID: 'it was issued for another address',
};

/** A request that got no HTTP answer, in words, and whether it may have reached the server. */
export interface NetworkFailure {
  readonly cause: NetworkFailureCause;
  readonly message: string;
  /** True when the request may have been received and acted on although we saw no answer. */
  readonly noAnswer: boolean;
}

// Failures that happen before a single byte of the request can have left this machine.
const BEFORE_SENDING = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

function errorCode(error: unknown): string | undefined {
  // undici wraps the socket error as `cause`, sometimes two levels deep.
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Hostname and port of a URL, for messages (never the path or query). */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the configured address';
  }
}

/** Describes a fetch that threw (or whose body could not be read) for a support person. */
export function describeNetworkFailure(
  error: unknown,
  context: { readonly what: string; readonly url: string; readonly deadline: Deadline; readonly timeoutMs: number },
): NetworkFailure {
  const where = `${context.what} at ${hostOf(context.url)}`;
  if (context.deadline.timedOut())
    return {
      cause: 'timeout',
      message: `${where} did not answer within ${Math.round(context.timeoutMs / 100) / 10} s`,
      noAnswer: true,
    };
  if (context.deadline.cancelled())
    return { cause: 'cancelled', message: `The request to ${where.charAt(0).toLowerCase()}${where.slice(1)} was cancelled`, noAnswer: true };
  const code = errorCode(error);
  if (code === 'ECONNREFUSED')
    return { cause: 'refused', message: `${where} refused the connection (is it running?)`, noAnswer: false };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return { cause: 'dns', message: `${where} could not be found (DNS lookup failed; check the network)`, noAnswer: false };
  const certificate = code === undefined ? undefined : CERTIFICATE_CODES[code];
  if (certificate !== undefined)
    return {
      cause: 'certificate',
      message: `${where} was reached, but its certificate is not trusted: ${certificate} (${code}). This is not a network fault: check the address; if it is right, the server's certificate must be fixed (or, on a store network that inspects https, that network's)`,
      noAnswer: false,
    };
  if (code !== undefined && BEFORE_SENDING.has(code))
    return { cause: 'network', message: `${where} could not be reached (${code})`, noAnswer: false };
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE' || code === 'UND_ERR_CLOSED')
    return { cause: 'reset', message: `${where} closed the connection before answering`, noAnswer: true };
  return {
    cause: 'network',
    message: `${where} could not be reached${code ? ` (${code})` : ''}`,
    // Unknown failure: assume the request may have gone out, so the outbox treats a later refusal with care.
    noAnswer: true,
  };
}

/** A response body read up to a cap. */
export interface CappedBody {
  /** The body as UTF-8 text, or its first `maxBytes` bytes when it was larger. */
  readonly text: string;
  /** True when the body was larger than the cap: the rest was never read. */
  readonly overCap: boolean;
}

/** Size of the cap in words, for messages ("4 MiB", "256 KiB"). */
export function describeBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB` : `${Math.round(bytes / 1024)} KiB`;
}

/**
 * Reads at most `maxBytes` of a response body, then cancels the rest: an answer is never held
 * whole in memory, whatever the server sends (a 600 MB answer must not take the process with it).
 */
export async function readCappedBody(response: Response, maxBytes: number): Promise<CappedBody> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    return { text: '', overCap: true };
  }
  if (!response.body) return { text: '', overCap: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const room = maxBytes - total;
    if (value.byteLength > room) {
      chunks.push(value.subarray(0, room));
      await reader.cancel().catch(() => undefined);
      return { text: decodeChunks(chunks), overCap: true };
    }
    chunks.push(value);
    total += value.byteLength;
  }
  return { text: decodeChunks(chunks), overCap: false };
}

function decodeChunks(chunks: readonly Uint8Array[]): string {
  const decoder = new TextDecoder('utf-8');
  return chunks.map((c, i) => decoder.decode(c, { stream: i < chunks.length - 1 })).join('');
}

/** Joins a configured base address and a spec path without doubling or losing a slash. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}
