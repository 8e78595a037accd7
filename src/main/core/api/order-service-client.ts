/**
 * The order service client: one update call, classified exactly as decisions.md says, so the
 * outbox can decide what to do from the outcome alone. It never throws and never puts a token in a
 * message.
 */
import { randomUUID } from 'node:crypto';
import {
  buildStatusRequest,
  CHANGES_PATH,
  changesAnswerSchema,
  type ChangesRequest,
  STATUS_PATH,
  statusAnswerSchema,
} from '../../../shared/protocol/intake';
import { printableId } from '../../../shared/protocol/orderId';
import {
  describeZodError,
  errorResponseSchema,
  type Order,
  type OrderUpdateRequest,
  orderUpdateSuccessSchema,
} from '../../../shared/protocol/schemas';
import type { Problem } from '../../../shared/result';
import { silentLogger, type Logger } from '../log/logger';
import { secrets as processSecrets, type SecretRegistry } from '../log/redact';
import {
  type Deadline,
  describeBytes,
  describeNetworkFailure,
  joinUrl,
  type NetworkFailure,
  readCappedBody,
  realTimers,
  startDeadline,
  type Timers,
} from './http';
import type { UpdateAnswer, UpdateOutcome, UpdateSender } from './outcome';
import { classifyRead, type ChangesOutcome, type Exchange, type HttpAnswer, type StatusOutcome } from './read-outcome';

export type { Exchange, HttpAnswer } from './read-outcome';
import { capRetryAfter, describeWait, MAX_RETRY_AFTER_MS, parseRetryAfter } from './retry-after';
import { TOKEN_SERVER_FAULT, type TokenSource } from './token-source';

/** Path of the update operation under `{base_url}` (spec, endpoint 3). */
export const UPDATE_PATH = '/tsp/order/v1/update';

export interface OrderServiceClientOptions {
  /** `{base_url}` of the order service. */
  readonly baseUrl: string;
  readonly tokens: TokenSource;
  readonly fetch?: typeof fetch;
  readonly timers?: Timers;
  /** Wall clock, for Retry-After dates and durations in logs. */
  readonly now?: () => number;
  /** A new requestId for each read call (the spec wants one per call). Default: crypto.randomUUID. */
  readonly newRequestId?: () => string;
  /** Deadline of one update request, body included. Default 15 s. */
  readonly timeoutMs?: number;
  /** Deadline of a reachability probe. Default 3 s. */
  readonly probeTimeoutMs?: number;
  /** The most of an answer that is read; past it the rest is left unread. Default 4 MiB. */
  readonly maxBodyBytes?: number;
  /** How much of an unreadable 2xx body is kept for support. Default 64 KiB. */
  readonly maxRawBodyBytes?: number;
  readonly logger?: Logger;
  /** Registry of secret values, used to scrub service messages. Default: the process-wide one. */
  readonly secrets?: SecretRegistry;
  /**
   * Told the `Date` header (or null) of every answer, with its receive time on this terminal's
   * clock: the order service's own witness of its clock (core/time/service-clock).
   */
  readonly onServiceDate?: (date: string | null, receivedAt: number) => void;
}

const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_PROBE_TIMEOUT_MS = 3_000;
const DEFAULT_MAX_RAW_BODY = 64 * 1024;
// An order's answer is a few kB; 4 MiB leaves room for the largest order and caps what a broken
// or hostile server can make the terminal hold.
const DEFAULT_MAX_BODY = 4 * 1024 * 1024;
const MAX_SERVICE_MESSAGE = 500;

/** HTTP statuses the spec uses for an expired or refused token. */
export function isTokenRefusal(status: number): boolean {
  return status === 401 || status === 412;
}

/** HTTP statuses that mean "try again later" (decisions.md). */
export function isTransientStatus(status: number): boolean {
  return status === 408 || status === 425 || status === 429 || (status >= 500 && status <= 599);
}

/** Cuts a string to at most `maxBytes` bytes of UTF-8. */
function truncateBytes(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  return bytes.length <= maxBytes ? text : bytes.subarray(0, maxBytes).toString('utf8');
}

function parseJson(body: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  try {
    return { ok: true, value: JSON.parse(body) as unknown };
  } catch {
    return { ok: false, reason: body.trim() === '' ? 'the body is empty' : 'the body is not JSON' };
  }
}

/** Maps a token problem to the outcome the outbox expects: nothing was sent to the order service. */
function fromTokenProblem(problem: Problem): UpdateOutcome {
  if (problem.kind === 'transient' && problem.code === TOKEN_SERVER_FAULT)
    return { kind: 'transient', message: problem.message, noAnswer: false, tokenServer: true };
  if (problem.kind === 'transient') return { kind: 'transient', message: problem.message, noAnswer: false };
  return { kind: 'auth', message: problem.message };
}

/** Sends order updates to `{base_url}/tsp/order/v1/update` with the token manager's header. */
export class OrderServiceClient implements UpdateSender {
  private readonly url: string;
  private readonly fetchImpl: typeof fetch;
  private readonly timers: Timers;
  private readonly now: () => number;
  private readonly timeoutMs: number;
  private readonly probeTimeoutMs: number;
  private readonly maxRawBodyBytes: number;
  private readonly maxBodyBytes: number;
  private readonly log: Logger;
  private readonly secrets: SecretRegistry;
  private readonly newRequestId: () => string;
  // The last call's certificate refusal, until the service next answers HTTP: the sync bar and
  // `drain` say the certificate, not "no connection", when the token server alone is fine.
  private untrusted: string | null = null;

  constructor(private readonly options: OrderServiceClientOptions) {
    this.url = joinUrl(options.baseUrl, UPDATE_PATH);
    this.fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
    this.timers = options.timers ?? realTimers;
    this.now = options.now ?? Date.now;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.probeTimeoutMs = options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
    this.maxRawBodyBytes = options.maxRawBodyBytes ?? DEFAULT_MAX_RAW_BODY;
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
    this.log = (options.logger ?? silentLogger).child('api');
    this.secrets = options.secrets ?? processSecrets;
    this.newRequestId = options.newRequestId ?? randomUUID;
  }

  /**
   * Sends one update request for the outbox. A 2xx without a body (204) is success: the order is
   * then fetched with `status`; if that fails the entry still counts as delivered and the order is
   * flagged for a refresh (the `unreadable` path), never resent.
   */
  async update(request: OrderUpdateRequest, signal?: AbortSignal): Promise<UpdateOutcome> {
    const answer = await this.updateAnswer(request, signal);
    if (answer.kind !== 'accepted') return answer;
    const fetched = await this.status(request.orderId, signal);
    if (fetched.kind === 'order' && fetched.order.id === request.orderId)
      return { kind: 'success', status: answer.status, order: fetched.order, raw: fetched.raw };
    return {
      kind: 'unreadable',
      status: answer.status,
      rawBody: '',
      message: `The order service accepted the update (HTTP ${answer.status}) without sending the order back, and the order could not be fetched (${describeStatusFailure(fetched)}). The update was applied; refresh the order to see its state.`,
    };
  }

  /** Sends one update request and classifies the answer, 204 included (`accepted`); never throws. */
  async updateAnswer(request: OrderUpdateRequest, signal?: AbortSignal): Promise<UpdateAnswer> {
    try {
      const outcome = await this.send(request, signal);
      this.log.debug('update answered', {
        orderId: request.orderId,
        requestId: request.requestContext.requestId,
        outcome: outcome.kind,
        ...('status' in outcome && outcome.status !== undefined ? { status: outcome.status } : {}),
      });
      return outcome;
    } catch (error) {
      // Only a bug gets here; the request may or may not have gone out.
      const message = `Unexpected failure while sending the update: ${this.scrub(error instanceof Error ? error.message : String(error))}`;
      this.log.error('update failed unexpectedly', { orderId: request.orderId, error: message });
      return { kind: 'transient', message, noAnswer: true };
    }
  }

  /** One page of `changes`: which orders changed in the window; never throws. */
  async changes(request: ChangesRequest, signal?: AbortSignal): Promise<ChangesOutcome> {
    const url = joinUrl(this.options.baseUrl, CHANGES_PATH);
    try {
      const answer = await this.exchange(url, request, 'changes', signal);
      return classifyRead(answer, 'changes', this.now(), (json) => {
        const parsed = changesAnswerSchema().safeParse(json);
        return parsed.success
          ? { ok: true, value: { orderIds: parsed.data.response.orderIds, nextPage: parsed.data.response.nextPage } }
          : { ok: false, reason: describeZodError(parsed.error) };
      }, (t) => this.scrub(t), this.maxBodyBytes);
    } catch (error) {
      return { kind: 'transient', message: `Unexpected failure while asking for changed orders: ${this.scrub(String(error))}`, network: true };
    }
  }

  /** One `status` call: the order's current body; never throws. */
  async status(orderId: string, signal?: AbortSignal): Promise<StatusOutcome> {
    const url = joinUrl(this.options.baseUrl, STATUS_PATH);
    try {
      const request = buildStatusRequest(this.newRequestId(), orderId);
      const answer = await this.exchange(url, request, `status of ${orderId}`, signal);
      const read = classifyRead<StatusRead>(answer, 'status', this.now(), (json) => {
        const parsed = statusAnswerSchema().safeParse(json);
        if (parsed.success) return { ok: true, value: { order: parsed.data.response, raw: json, reason: '' } };
        const reason = describeZodError(parsed.error);
        // A body that is this order's, but with something that cannot be believed (a count past
        // 2^53, a date of 1e300, an id no one could type): set aside, not retried as if cut short.
        return aboutOrder(json, orderId) ? { ok: true, value: { order: null, raw: json, reason } } : { ok: false, reason };
      }, (t) => this.scrub(t), this.maxBodyBytes);
      this.log.debug('status answered', { orderId, outcome: read.kind });
      if (read.kind !== 'ok') return read;
      if (read.value.order) return { kind: 'order', order: read.value.order, raw: read.value.raw };
      return {
        kind: 'unreadableOrder',
        message: `Order ${printableId(orderId)} could not be read: ${this.scrub(read.value.reason).slice(0, 300)}`,
        rawBody: truncateBytes(this.scrub(JSON.stringify(read.value.raw)), this.maxRawBodyBytes),
      };
    } catch (error) {
      return { kind: 'transient', message: `Unexpected failure while fetching order ${orderId}: ${this.scrub(String(error))}`, network: true };
    }
  }

  /** True when the order service answers HTTP at all (any status); false on a network failure. */
  async probe(signal?: AbortSignal): Promise<boolean> {
    return (await this.reach(signal)) === null;
  }

  /** The probe, saying why there was no answer (for doctor): null when the service answered HTTP. */
  async reach(signal?: AbortSignal): Promise<NetworkFailure | null> {
    const deadline = startDeadline(this.probeTimeoutMs, this.timers, signal);
    try {
      const response = await this.fetchImpl(this.url, {
        method: 'GET',
        headers: { Accept: 'application/json' },
        signal: deadline.signal,
        redirect: 'manual',
      });
      this.heard(response);
      await response.body?.cancel().catch(() => undefined);
      return null;
    } catch (error) {
      return this.failed(describeNetworkFailure(error, { what: 'The order service', url: this.url, deadline, timeoutMs: this.probeTimeoutMs }));
    } finally {
      deadline.done();
    }
  }

  private async send(request: OrderUpdateRequest, signal?: AbortSignal): Promise<UpdateAnswer> {
    const answer = await this.exchange(this.url, request, `order ${request.orderId}`, signal);
    if (answer.kind === 'token') return fromTokenProblem(answer.problem);
    if (answer.kind === 'refusedFresh') return { kind: 'auth', status: answer.status, message: answer.message };
    return this.classify(answer);
  }

  /**
   * POSTs `body` with the token; on 401/412 refreshes once (shared with every caller that saw the
   * same token) and tries once more. Every call of this client goes through here.
   */
  async exchange(url: string, body: unknown, what: string, signal?: AbortSignal): Promise<Exchange> {
    const first = await this.options.tokens.authorization(signal);
    if (!first.ok) return { kind: 'token', problem: first.problem };
    const answer = await this.post(url, body, first.value, signal);
    if (answer.kind !== 'http' || !isTokenRefusal(answer.status)) return answer;

    this.log.info('order service refused the token; refreshing once', { status: answer.status, what });
    const next = await this.options.tokens.rejected(first.value, signal);
    if (!next.ok) return { kind: 'token', problem: next.problem };
    const retried = await this.post(url, body, next.value, signal);
    if (retried.kind === 'http' && isTokenRefusal(retried.status)) {
      this.log.warn('order service refused a fresh token too', { status: retried.status, what });
      return {
        kind: 'refusedFresh',
        status: retried.status,
        message: `The order service refused a freshly issued token (HTTP ${retried.status}). Check that the token server and order service addresses belong to the same environment, and the terminal's credentials.`,
      };
    }
    return retried;
  }

  private async post(url: string, request: unknown, authorization: string, signal?: AbortSignal): Promise<HttpAnswer> {
    const deadline: Deadline = startDeadline(this.timeoutMs, this.timers, signal);
    try {
      const response = await this.fetchImpl(url, {
        method: 'POST',
        headers: { Accept: 'application/json', 'Content-Type': 'application/json', Authorization: authorization },
        body: JSON.stringify(request),
        signal: deadline.signal,
        // A redirect would re-send the update somewhere we were not told about; report it instead.
        redirect: 'manual',
      });
      this.heard(response);
      const { text, overCap } = await readCappedBody(response, this.maxBodyBytes);
      return { kind: 'http', status: response.status, headers: response.headers, body: text, overCap };
    } catch (error) {
      return {
        kind: 'network',
        failure: this.failed(describeNetworkFailure(error, { what: 'The order service', url, deadline, timeoutMs: this.timeoutMs })),
      };
    } finally {
      deadline.done();
    }
  }

  private classify(answer: HttpAnswer): UpdateAnswer {
    if (answer.kind === 'network') {
      const { message, noAnswer, cause } = answer.failure;
      return { kind: 'transient', message, noAnswer, ...(cause === 'certificate' ? { certificate: true as const } : {}) };
    }
    const { status, body } = answer;

    // The platform's 204 ACCEPTED: applied, but the answer carries no order.
    if (status >= 200 && status <= 299 && body.trim() === '') return { kind: 'accepted', status };
    if (status >= 200 && status <= 299) {
      if (answer.overCap) {
        // The service took the update; only its answer is unusable. Resending would apply it twice.
        const reason = `its answer was larger than ${describeBytes(this.maxBodyBytes)}, so it was not read`;
        this.log.warn('oversized success body', { status, maxBytes: this.maxBodyBytes });
        return {
          kind: 'unreadable',
          status,
          rawBody: truncateBytes(body.slice(0, this.maxRawBodyBytes), this.maxRawBodyBytes),
          message: `The order service accepted the update (HTTP ${status}) but ${reason}. The update was probably applied; refresh the order to see its state.`,
        };
      }
      const json = parseJson(body);
      if (json.ok) {
        const parsed = orderUpdateSuccessSchema().safeParse(json.value);
        if (parsed.success) return { kind: 'success', status, order: parsed.data.response, raw: json.value };
      }
      const reason = json.ok ? `not an order update response: ${this.describeSchemaMismatch(json.value)}` : json.reason;
      this.log.warn('unreadable success body', { status, reason });
      return {
        kind: 'unreadable',
        status,
        rawBody: truncateBytes(body, this.maxRawBodyBytes),
        message: `The order service accepted the update (HTTP ${status}) but its answer could not be read (${reason}). The update was probably applied; refresh the order to see its state.`,
      };
    }

    const serviceError = this.serviceError(body);
    const said = serviceError ? `: ${serviceError.errorCode}: ${serviceError.message}` : '';

    if (isTransientStatus(status)) {
      const askedMs = parseRetryAfter(answer.headers.get('retry-after'), this.now());
      const retryAfterMs = capRetryAfter(askedMs);
      const why =
        status === 429
          ? 'asked the terminal to slow down'
          : status === 408 || status === 425
            ? 'did not accept the request in time'
            : 'is failing or overloaded';
      const when =
        retryAfterMs === undefined
          ? ''
          : askedMs !== undefined && askedMs > MAX_RETRY_AFTER_MS
            ? `; it asked for a longer wait than the terminal allows, so it will retry in ${describeWait(retryAfterMs)}`
            : `; it asked to retry in ${describeWait(retryAfterMs)}`;
      return {
        kind: 'transient',
        status,
        message: `The order service ${why} (HTTP ${status}${said})${when}. The update will be sent again.`,
        noAnswer: false,
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      };
    }

    if (status >= 400 && status <= 499) {
      if (serviceError) return { kind: 'permanent', status, errorCode: serviceError.errorCode, message: serviceError.message };
      // 404/405 without the service's error body usually means the address points somewhere else.
      const hint = status === 404 || status === 405 ? ' Check the order service address in settings.' : '';
      return {
        kind: 'permanent',
        status,
        errorCode: `HTTP_${status}`,
        message: `The order service refused the update with HTTP ${status} without saying why.${hint}`,
      };
    }

    // 1xx/3xx: not a protocol answer. Most likely a wrong or moved address; keep the tap and retry later.
    return {
      kind: 'transient',
      status,
      message: `The order service answered HTTP ${status}, which is not an answer to an update; check the order service address in settings.`,
      noAnswer: false,
    };
  }

  private serviceError(body: string): { errorCode: string; message: string } | undefined {
    const json = parseJson(body);
    if (!json.ok) return undefined;
    const parsed = errorResponseSchema().safeParse(json.value);
    if (!parsed.success) return undefined;
    return {
      errorCode: this.scrub(parsed.data.error.errorCode).slice(0, 100),
      message: this.scrub(parsed.data.error.message).slice(0, MAX_SERVICE_MESSAGE),
    };
  }

  private describeSchemaMismatch(value: unknown): string {
    const parsed = orderUpdateSuccessSchema().safeParse(value);
    return parsed.success ? 'none' : describeZodError(parsed.error);
  }

  /** The order service's certificate refusal on the last call, in words, or null once it answers HTTP again. */
  certificateProblem(): string | null {
    return this.untrusted;
  }

  /** Notes a certificate refusal (kept until the service next answers) and passes the failure on. */
  private failed(failure: NetworkFailure): NetworkFailure {
    if (failure.cause === 'certificate') this.untrusted = failure.message;
    return failure;
  }

  /** Passes an answer's `Date` on as a witness of the order service's clock; a listener's fault is never the call's. */
  private heard(response: Response): void {
    this.untrusted = null;
    try {
      this.options.onServiceDate?.(response.headers.get('date'), this.now());
    } catch (e) {
      this.log.warn('clock listener failed', { error: e });
    }
  }

  /** Text from outside may echo anything back; never let a registered secret through. */
  private scrub(text: string): string {
    return this.secrets.redactText(text);
  }
}

function describeStatusFailure(outcome: StatusOutcome): string {
  switch (outcome.kind) {
    case 'order':
      return 'another order came back';
    case 'accepted':
      return `HTTP ${outcome.status} without a body`;
    default:
      return outcome.message;
  }
}

/** A status answer read: the order, or why this order's body could not be believed. */
type StatusRead = { readonly order: Order | null; readonly raw: unknown; readonly reason: string };

/** True when `json` is a status answer whose `response` names `orderId`: this order's body, however unreadable. */
function aboutOrder(json: unknown, orderId: string): boolean {
  if (typeof json !== 'object' || json === null) return false;
  const { type, response } = json as { type?: unknown; response?: unknown };
  if (type !== undefined && type !== 'ORDER_VIEW') return false;
  return typeof response === 'object' && response !== null && (response as { id?: unknown }).id === orderId;
}
