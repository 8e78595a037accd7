/**
 * The sandbox order service: token server and order service on one port, the admin API on that
 * port and on a port of its own. Both listen on 127.0.0.1 only.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { z } from 'zod';
import { silentLogger } from '../src/main/core/log';
import { CHANGES_PATH, STATUS_PATH } from '../src/shared/protocol/intake';
import { describeZodError, type Order, orderUpdateRequestSchema } from '../src/shared/protocol/schemas';
import { ADMIN_PREFIX, type AdminTarget, handleAdmin, type ServedBody } from './admin';
import { type Answer, type EchoContext, errorAnswer, looseContext } from './answers';
import { FaultState, parseFaultsPatch } from './faults';
import { json, MAX_BODY_BYTES, readBody, send, tryParseJson } from './http';
import { OrderBook } from './orders';
import { mulberry32 } from './prng';
import { createReads, pageOffset } from './reads';
import { STORE } from './catalogue';
import { freshOrder, seedOrders } from './seed';
import { TokenFormSchema, TokenStore } from './tokens';
import type { BadStatusAnswer, Faults, OrderChange, ReadLogEntry, RequestLogEntry, Sandbox, SandboxOptions, SandboxStats } from './types';

export const TOKEN_PATH = '/olympus/im/v1/oauth/token';
export const UPDATE_PATH = '/tsp/order/v1/update';
const HOST = '127.0.0.1';

const OptionsSchema = z.object({
  port: z.number().int().min(0).max(65_535).default(0),
  adminPort: z.number().int().min(0).max(65_535).default(0),
  seed: z.number().int().default(1),
  orderCount: z.number().int().min(1).max(100_000).default(40),
  clientId: z.string().min(1).default('training'),
  clientSecret: z.string().min(1).default('training-secret'),
  tokenTtlSeconds: z.number().int().min(1).max(30 * 86_400).default(3600),
  expiredStatus: z.union([z.literal(401), z.literal(412)]).default(401),
  arrivalEveryMs: z.number().int().min(0).max(86_400_000).default(180_000),
  changesMaxPageSize: z.number().int().min(1).max(10_000).default(100),
  changesMinIntervalMs: z.number().int().min(0).max(3_600_000).default(5_000),
});

/** A listener whose open sockets are tracked, so an outage or close() can cut them. */
class Listener {
  readonly server: Server;
  readonly sockets = new Set<Socket>();
  listening = false;

  constructor(handler: (req: IncomingMessage, res: ServerResponse) => void) {
    this.server = createServer(handler);
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  /** Listens on 127.0.0.1; resolves with the bound port. */
  listen(port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const onError = (error: Error): void => reject(error);
      this.server.once('error', onError);
      this.server.listen(port, HOST, () => {
        this.server.off('error', onError);
        this.listening = true;
        const address = this.server.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });
  }

  /** Stops listening and destroys every open socket, hung ones included. */
  close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    if (!this.listening) return Promise.resolve();
    this.listening = false;
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** Starts a sandbox order service; resolves once both ports listen. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const { now: injectedNow, log: injectedLog, ...plain } = options;
  const parsedOptions = OptionsSchema.safeParse(plain);
  if (!parsedOptions.success) throw new TypeError(`Bad sandbox options: ${describeZodError(parsedOptions.error)}`);
  const opts = parsedOptions.data;
  const now = injectedNow ?? Date.now;
  const log = (injectedLog ?? silentLogger).child('sandbox');

  const book = new OrderBook(seedOrders(opts.seed, opts.orderCount, now()), now);
  const faults = new FaultState(opts.expiredStatus, opts.seed);
  const tokens = new TokenStore({
    clientId: opts.clientId,
    clientSecret: opts.clientSecret,
    ttlSeconds: opts.tokenTtlSeconds,
    now,
    refuseRefresh: () => faults.get().refuseRefresh,
    rejectCredentials: () => faults.get().rejectCredentials,
    clockOffsetMs: () => faults.get().tokenClockOffsetMs,
  });
  /** First answer per requestId, replayed byte for byte on a repeat. */
  const answered = new Map<string, Answer>();
  const requests: RequestLogEntry[] = [];
  const stats: SandboxStats = {
    tokenRequests: { client_credentials: 0, refresh_token: 0, refused: 0 },
    updateRequests: 0,
    changesRequests: 0,
    statusRequests: 0,
    probeRequests: 0,
    updateArrivals: 0,
  };
  const reads = createReads({ book, now, maxPageSize: opts.changesMaxPageSize, minIntervalMs: opts.changesMinIntervalMs, faults: () => faults.get() });
  const readLog: ReadLogEntry[] = [];
  /** When the last `changes` request was let through (the changesEveryMs fault). */
  let lastChangesAt: number | null = null;
  // New orders get their own stream, so arrivals never change the seeded orders.
  const arrivalRandom = mulberry32((opts.seed ^ 0x5bd1e995) >>> 0);
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;

  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  // ---- token endpoint ------------------------------------------------------------------

  const handleToken = (req: IncomingMessage, body: string): Answer => {
    const contentType = req.headers['content-type'] ?? '';
    const noStore = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };
    if (!contentType.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
      stats.tokenRequests.refused += 1;
      return json(400, { error: 'invalid_request', error_description: 'Send the form as application/x-www-form-urlencoded' }, noStore);
    }
    const form = TokenFormSchema.safeParse(Object.fromEntries(new URLSearchParams(body)));
    if (!form.success) {
      stats.tokenRequests.refused += 1;
      return json(400, { error: 'invalid_request', error_description: describeZodError(form.error) }, noStore);
    }
    const outcome = tokens.grant(form.data);
    if (outcome.grant !== 'other') stats.tokenRequests[outcome.grant] += 1;
    if (!outcome.ok) {
      stats.tokenRequests.refused += 1;
      log.warn('token refused', { grant: outcome.grant, error: outcome.refusal.body.error });
      return json(outcome.refusal.status, outcome.refusal.body, noStore);
    }
    log.info('token issued', { grant: outcome.grant, expiresIn: outcome.body.expires_in });
    return json(200, outcome.body, noStore);
  };

  // ---- update endpoint -----------------------------------------------------------------

  const record = (entry: Omit<RequestLogEntry, 'at'>): void => {
    requests.push({ ...entry, at: now() });
    log.info('update request', { ...entry });
  };

  /** Handles one update request: gateway faults, auth, parsing, replay, then the order book. Logs it. */
  const handleUpdate = (req: IncomingMessage, body: string): Answer => {
    stats.updateRequests += 1;
    const parsedJson = tryParseJson(body);
    const loose = parsedJson.ok ? looseContext(parsedJson.value) : {};
    const context: EchoContext = {};
    if (loose.requestId !== undefined) context.requestId = loose.requestId;
    if (loose.transactionId !== undefined) context.transactionId = loose.transactionId;
    const base = { requestId: loose.requestId ?? '', orderId: loose.orderId ?? '', duplicate: false };
    const refuse = (answer: Answer, fault?: RequestLogEntry['fault']): Answer => {
      record({ ...base, status: answer.status, ...(answer.errorCode ? { errorCode: answer.errorCode } : {}), ...(fault ? { fault } : {}) });
      return answer;
    };

    // Gateway faults come before anything the service itself decides, as a real front door would.
    const retryAfter = faults.takeRateLimit();
    if (retryAfter !== undefined)
      return refuse(
        errorAnswer(429, context, 'RATE_LIMITED', `Too many requests; retry after ${retryAfter} s`, { 'Retry-After': String(retryAfter) }),
        'rate-limit',
      );
    if (faults.takeError())
      return refuse(errorAnswer(503, context, 'SERVICE_UNAVAILABLE', 'The order service is temporarily unavailable'), 'error-rate');

    const auth = checkAuthorization(req.headers.authorization);
    if (auth !== 'valid') {
      const challenge = { 'WWW-Authenticate': 'O-Bearer realm="sandbox", error="invalid_token"' };
      if (auth === 'expired') {
        const status = faults.get().expiredStatus;
        return refuse(errorAnswer(status, context, 'TOKEN_EXPIRED', 'The access token has expired; refresh it', challenge));
      }
      return refuse(errorAnswer(401, context, 'UNAUTHORIZED', auth, challenge));
    }

    if (!parsedJson.ok) return refuse(errorAnswer(400, context, 'INVALID_REQUEST', `The body is not valid JSON: ${parsedJson.message}`));
    const request = orderUpdateRequestSchema().safeParse(parsedJson.value);
    if (!request.success) return refuse(errorAnswer(400, context, 'INVALID_REQUEST', describeZodError(request.error)));

    const requestId = request.data.requestContext.requestId;
    const first = faults.get().dedupe ? answered.get(requestId) : undefined;
    if (first) {
      record({ ...base, requestId, orderId: request.data.orderId, duplicate: true, status: first.status, ...(first.errorCode ? { errorCode: first.errorCode } : {}) });
      return first;
    }
    const answer = book.update(request.data);
    answered.set(requestId, answer);
    const entry = { ...base, requestId, orderId: request.data.orderId, status: answer.status };
    if (answer.status === 200 && faults.takeMalformed()) {
      // A body cut in half, as a proxy dropping the connection mid-answer would leave it. The
      // service's own record (replayed on a repeat) stays the real answer.
      record({ ...entry, fault: 'malformed' });
      return { status: 200, body: answer.body.slice(0, Math.floor(answer.body.length / 2)) };
    }
    if (answer.status === 200 && faults.takeDrop()) {
      record({ ...entry, fault: 'dropped' });
      return { ...answer, drop: true };
    }
    if (answer.status === 200 && faults.takeEmpty()) {
      record({ ...entry, status: 204, fault: 'empty' });
      return { status: 204, body: '' };
    }
    record({ ...entry, ...(answer.errorCode ? { errorCode: answer.errorCode } : {}) });
    return answer;
  };

  // ---- read calls ------------------------------------------------------------------------

  /** Handles `changes` or `status`: gateway faults, access, auth, then the book. */
  const handleRead = (req: IncomingMessage, body: string, call: 'changes' | 'status'): Answer => {
    stats[call === 'changes' ? 'changesRequests' : 'statusRequests'] += 1;
    const parsedJson = tryParseJson(body);
    const loose = parsedJson.ok ? looseContext(parsedJson.value) : {};
    const context: EchoContext = {};
    if (loose.requestId !== undefined) context.requestId = loose.requestId;
    if (loose.transactionId !== undefined) context.transactionId = loose.transactionId;
    const entry: ReadLogEntry = { call, status: 0, at: now() };
    if (call === 'changes') entry.offset = (parsedJson.ok ? pageOffset((parsedJson.value as { nextPage?: unknown } | null)?.nextPage) : undefined) ?? 0;
    else if (loose.orderId !== undefined) entry.orderId = loose.orderId;
    const done = (answer: Answer, fault?: ReadLogEntry['fault']): Answer => {
      readLog.push({ ...entry, status: answer.status, ...(fault ? { fault } : {}) });
      log.info(`${call} request`, { status: answer.status, ...(loose.orderId ? { orderId: loose.orderId } : {}), ...(fault ? { fault } : {}) });
      return answer;
    };
    const retryAfter = faults.takeReadsRateLimit(call);
    if (retryAfter !== undefined)
      return done(errorAnswer(429, context, 'RATE_LIMITED', `Too many requests; retry after ${retryAfter} s`, { 'Retry-After': String(retryAfter) }), 'rate-limit');
    const every = faults.get().changesEveryMs;
    if (call === 'changes' && every > 0) {
      const at = now();
      if (lastChangesAt !== null && at - lastChangesAt < every) {
        const wait = Math.max(1, Math.ceil((lastChangesAt + every - at) / 1000));
        return done(errorAnswer(429, context, 'RATE_LIMITED', `changes is allowed once every ${every} ms; retry after ${wait} s`, { 'Retry-After': String(wait) }), 'changes-every');
      }
      lastChangesAt = at;
    }
    const auth = checkAuthorization(req.headers.authorization);
    if (auth === 'expired') return done(errorAnswer(faults.get().expiredStatus, context, 'TOKEN_EXPIRED', 'The access token has expired; refresh it'));
    if (auth !== 'valid') return done(errorAnswer(401, context, 'UNAUTHORIZED', auth));
    if (faults.get().forbidReads[call]) return done(errorAnswer(403, context, 'FORBIDDEN', `This client may not use ${call}`), 'forbidden');
    if (!parsedJson.ok) return done(errorAnswer(400, context, 'INVALID_REQUEST', `The body is not valid JSON: ${parsedJson.message}`));
    const answer = call === 'changes' ? reads.changes(parsedJson.value, context) : reads.status(parsedJson.value, context);
    const bad = call === 'status' && answer.status === 200 ? faults.takeBadStatus(loose.orderId ?? '') : undefined;
    return bad ? done(spoilStatus(answer, bad, context, loose.orderId ?? ''), bad) : done(answer);
  };

  /** A `status` answer spoiled as the badStatus fault asks. */
  const spoilStatus = (answer: Answer, bad: BadStatusAnswer, context: EchoContext, orderId: string): Answer => {
    switch (bad) {
      case 'cut':
        return { status: 200, body: answer.body.slice(0, Math.floor(answer.body.length / 2)) };
      case 'otherView':
        return { status: 200, body: JSON.stringify({ type: 'OTHER_VIEW', requestContext: context, response: {} }) };
      case 'empty':
        return { status: 204, body: '' };
      case 'notFound':
        return errorAnswer(404, context, 'ORDER_NOT_FOUND', `Order ${orderId} was not found`);
      default:
        return errorAnswer(400, context, 'INVALID_REQUEST', 'The request could not be processed');
    }
  };

  // ---- orders placed and changed elsewhere ------------------------------------------------

  const placeOrder = () => {
    const order = freshOrder(arrivalRandom, book.highestNumber() + 17, now());
    book.put(order, now());
    log.info('order placed', { orderId: order.id });
    return structuredClone(order);
  };
  const changeOrder = (id: string, change: OrderChange) => {
    const order = book.get(id);
    if (!order) return undefined;
    const at = now();
    if (change === 'accept') order.orderState = 'Accepted';
    if (change === 'cancel') {
      order.orderState = 'Cancelled';
      for (const f of order.fulfillments) f.fulfillmentState = 'Cancelled';
      order.actions = [...(order.actions ?? []), { type: 'CANCEL_ORDER', channel: 'MARKETPLACE', createdAt: String(at) }];
    }
    order.updatedAt = new Date(at).toISOString();
    book.put(order, at);
    log.info('order changed elsewhere', { orderId: id, change });
    return structuredClone(order);
  };
  // A body exactly as a faulty service might send it: nothing checked but its id, so tests and
  // trainers can show what the terminal does with numbers, dates and ids it must not believe.
  const serveOrder = (body: ServedBody): Order => {
    const order = structuredClone(body) as unknown as Order;
    book.put(order, now());
    log.info('order served as given', { orderId: body.id });
    return order;
  };
  if (opts.arrivalEveryMs > 0) {
    const arrivals = setInterval(() => void placeOrder(), opts.arrivalEveryMs);
    arrivals.unref();
    timers.add(arrivals);
  }

  /** 'valid', 'expired', or the reason the header is refused (never repeating the token). */
  const checkAuthorization = (header: string | undefined): string => {
    if (!header) return 'The Authorization header is missing; send "O-Bearer <access token>"';
    const match = /^\s*(\S+)\s+(\S+)\s*$/.exec(header);
    if (!match || match[1]?.toLowerCase() !== 'o-bearer') return 'The Authorization header must be "O-Bearer <access token>"';
    const check = tokens.check(match[2] ?? '');
    return check === 'unknown' ? 'The access token is not known' : check;
  };

  // ---- inspection and switches ----------------------------------------------------------

  const setFaults = (patch: Partial<Faults>): void => {
    const parsed = parseFaultsPatch(patch);
    if (!parsed.ok) throw new TypeError(`Bad faults: ${parsed.problem.message}`);
    changeFaults(() => faults.apply(parsed.value));
  };
  const expireTokens = (): number => {
    const count = tokens.expireAll();
    log.info('tokens expired', { count });
    return count;
  };
  const adminTarget: AdminTarget = {
    orders: () => book.list(),
    order: (id) => book.get(id),
    appliedLog: () => book.log(),
    requestLog: () => structuredClone(requests),
    readLog: () => structuredClone(readLog),
    stats: () => structuredClone(stats),
    faults: () => faults.get(),
    setFaults: async (patch) => {
      setFaults(patch);
      await transitions;
      return faults.get();
    },
    resetFaults: async () => {
      changeFaults(() => faults.reset());
      await transitions;
      return faults.get();
    },
    expireTokens,
    placeOrder,
    changeOrder,
    serveOrder,
  };

  // ---- listeners and outages -----------------------------------------------------------

  /** Serialises stop/start of the service port, so quick fault flips cannot interleave. */
  let transitions: Promise<void> = Promise.resolve();

  const changeFaults = (change: () => Faults): void => {
    const before = change();
    const after = faults.get();
    log.info('faults changed', { faults: after });
    if (before.outage === after.outage) return;
    if (after.outage === 'refuse') {
      // Stop accepting at once (synchronously), so the very next connect is refused.
      const stopping = service.close();
      transitions = transitions.then(() => stopping);
    } else if (before.outage === 'refuse') {
      transitions = transitions.then(async () => {
        if (closed || service.listening || faults.get().outage === 'refuse') return;
        try {
          await service.listen(port);
        } catch (error) {
          log.error('could not listen again on the service port', { port, error });
        }
      });
    }
  };

  const onService = (req: IncomingMessage, res: ServerResponse): void => {
    void serve(req, res, true).catch((error: unknown) => internalError(res, error));
  };
  const onAdmin = (req: IncomingMessage, res: ServerResponse): void => {
    void serve(req, res, false).catch((error: unknown) => internalError(res, error));
  };
  const internalError = (res: ServerResponse, error: unknown): void => {
    log.error('request failed', { error });
    send(res, errorAnswer(500, {}, 'INTERNAL', 'The sandbox failed to answer; see its log'));
  };

  /** True when an outage swallows this request (hang: keep the socket, never answer; reset: cut it). */
  const swallowed = (req: IncomingMessage): boolean => {
    const outage = faults.get().outage;
    if (outage === 'hang') return true;
    if (outage === 'reset') {
      req.socket.resetAndDestroy();
      return true;
    }
    return false;
  };

  const serve = async (req: IncomingMessage, res: ServerResponse, servicePort: boolean): Promise<void> => {
    if (servicePort && swallowed(req)) return;
    // The Date of every answer on the service's own clock (node would stamp the machine's): the
    // terminal takes it as a witness of the service's clock.
    if (servicePort) res.setHeader('Date', new Date(now()).toUTCString());
    const path = new URL(req.url ?? '/', `http://${HOST}`).pathname;
    const method = req.method ?? 'GET';

    if (path.startsWith(ADMIN_PREFIX)) {
      const body = await readBody(req);
      if (!body.ok) return tooLargeOrGone(res, body.reason);
      send(res, await handleAdmin(adminTarget, method, path, body.text));
      return;
    }
    const route = servicePort && [TOKEN_PATH, UPDATE_PATH, CHANGES_PATH, STATUS_PATH].includes(path) ? path : undefined;
    if (!route) {
      send(res, errorAnswer(404, {}, 'UNKNOWN_PATH', `No such path ${path}`));
      return;
    }

    if (route === UPDATE_PATH && method === 'POST') stats.updateArrivals += 1;
    const latency = faults.get().latencyMs;
    if (latency > 0) {
      await sleep(latency);
      if (swallowed(req)) return;
    }
    if (method !== 'POST') {
      if (path === UPDATE_PATH) stats.probeRequests += 1;
      // Clients probe reachability with a GET on the update path: answer at once, read nothing.
      send(res, errorAnswer(405, {}, 'METHOD_NOT_ALLOWED', `Use POST for ${path}`), { Allow: 'POST' });
      return;
    }
    const body = await readBody(req);
    if (!body.ok) return tooLargeOrGone(res, body.reason);
    const answer =
      route === TOKEN_PATH
        ? handleToken(req, body.text)
        : route === UPDATE_PATH
          ? handleUpdate(req, body.text)
          : handleRead(req, body.text, route === CHANGES_PATH ? 'changes' : 'status');
    if (answer.drop) {
      req.socket.destroy();
      return;
    }
    send(res, answer);
  };

  const tooLargeOrGone = (res: ServerResponse, reason: 'too-large' | 'aborted'): void => {
    if (reason === 'aborted') return;
    send(res, errorAnswer(413, {}, 'PAYLOAD_TOO_LARGE', `The request body is larger than ${MAX_BODY_BYTES} bytes`));
  };

  const service = new Listener(onService);
  const admin = new Listener(onAdmin);
  const port = await service.listen(opts.port);
  let adminPort: number;
  try {
    adminPort = await admin.listen(opts.adminPort);
  } catch (error) {
    await service.close();
    throw error;
  }

  log.info('listening', { port, adminPort, seed: opts.seed, orders: opts.orderCount });
  return {
    url: `http://${HOST}:${port}`,
    adminUrl: `http://${HOST}:${adminPort}`,
    port,
    serviceProviderId: STORE.serviceProviderId,
    faults: { get: () => faults.get(), set: setFaults, reset: () => changeFaults(() => faults.reset()) },
    orders: adminTarget.orders,
    order: adminTarget.order,
    appliedLog: adminTarget.appliedLog,
    requestLog: adminTarget.requestLog,
    readLog: adminTarget.readLog,
    stats: adminTarget.stats,
    expireTokensNow: () => void expireTokens(),
    placeOrder,
    changeOrder,
    serveOrder,
    close: async () => {
      if (closed) return;
      closed = true;
      for (const timer of timers) clearTimeout(timer); // clears intervals too
      timers.clear();
      await transitions.catch(() => undefined);
      await Promise.all([service.close(), admin.close()]);
      log.info('stopped');
    },
  };
}
