/**
 * The admin API under `/__sandbox/`: inspection for tests and training staff, and fault switches.
 * Served on both the service port and the admin port; JSON in and out.
 */
import { z } from 'zod';
import { describeZodError, type Order } from '../src/shared/protocol/schemas';
import type { Answer } from './answers';
import { parseFaultsPatch } from './faults';
import { json, tryParseJson } from './http';
import type { AppliedEntry, Faults, OrderChange, ReadLogEntry, RequestLogEntry, SandboxStats } from './types';

export const ADMIN_PREFIX = '/__sandbox/';

/** What the admin API can see and switch. */
export interface AdminTarget {
  orders(): Order[];
  order(id: string): Order | undefined;
  appliedLog(): AppliedEntry[];
  requestLog(): RequestLogEntry[];
  readLog(): ReadLogEntry[];
  stats(): SandboxStats;
  faults(): Faults;
  /** Applies a validated patch; resolves once the service port listens (or not) as asked. */
  setFaults(patch: Partial<Faults>): Promise<Faults>;
  resetFaults(): Promise<Faults>;
  expireTokens(): number;
  placeOrder(): Order;
  changeOrder(id: string, change: OrderChange): Order | undefined;
  /** Serves a body exactly as given, however wrong (ServedBody); returns it. */
  serveOrder(body: ServedBody): Order;
}

/** Any JSON object with a string id: what a faulty or hostile service might send as an order. */
export const ServedBodySchema = z.looseObject({ id: z.string() });
export type ServedBody = z.infer<typeof ServedBodySchema>;

const ChangeSchema = z.strictObject({ change: z.enum(['accept', 'cancel', 'touch']) });

const adminError = (status: number, errorCode: string, message: string): Answer =>
  json(status, { error: { errorCode, message } });

/** Answers one admin request; `path` starts with ADMIN_PREFIX. */
export async function handleAdmin(target: AdminTarget, method: string, path: string, body: string): Promise<Answer> {
  const route = path.slice(ADMIN_PREFIX.length);
  const orderMatch = /^orders\/([^/]+)$/.exec(route);
  const changeMatch = /^orders\/([^/]+)\/change$/.exec(route);
  const allow = (methods: string, answer: () => Answer | Promise<Answer>): Answer | Promise<Answer> =>
    methods.split(',').includes(method)
      ? answer()
      : json(405, { error: { errorCode: 'METHOD_NOT_ALLOWED', message: `Use ${methods} for ${path}` } }, { Allow: methods });

  if (changeMatch) {
    const id = decodeURIComponent(changeMatch[1] ?? '');
    return allow('POST', () => {
      const parsedJson = tryParseJson(body);
      if (!parsedJson.ok) return adminError(400, 'INVALID_REQUEST', `The body is not valid JSON: ${parsedJson.message}`);
      const change = ChangeSchema.safeParse(parsedJson.value);
      if (!change.success) return adminError(400, 'INVALID_REQUEST', describeZodError(change.error));
      const order = target.changeOrder(id, change.data.change);
      return order ? json(200, order) : adminError(404, 'NOT_FOUND', `Order ${id} was not found`);
    });
  }
  if (orderMatch) {
    const id = decodeURIComponent(orderMatch[1] ?? '');
    return allow('GET', () => {
      const order = target.order(id);
      return order ? json(200, order) : adminError(404, 'NOT_FOUND', `Order ${id} was not found`);
    });
  }
  switch (route) {
    case 'orders':
      return allow('GET', () => json(200, target.orders()));
    case 'log':
      return allow('GET', () => json(200, target.appliedLog()));
    case 'requests':
      return allow('GET', () => json(200, target.requestLog()));
    case 'reads':
      return allow('GET', () => json(200, target.readLog()));
    case 'stats':
      return allow('GET', () => json(200, target.stats()));
    case 'faults':
      return allow('GET,POST', async () => {
        if (method === 'GET') return json(200, target.faults());
        const parsedJson = tryParseJson(body);
        if (!parsedJson.ok) return adminError(400, 'INVALID_REQUEST', `The body is not valid JSON: ${parsedJson.message}`);
        const patch = parseFaultsPatch(parsedJson.value);
        if (!patch.ok) return adminError(400, 'INVALID_FAULTS', patch.problem.message);
        return json(200, await target.setFaults(patch.value as Partial<Faults>));
      });
    case 'expire-tokens':
      return allow('POST', () => json(200, { expired: target.expireTokens() }));
    case 'place-order':
      return allow('POST', () => json(200, target.placeOrder()));
    case 'serve-order':
      return allow('POST', () => {
        const parsedJson = tryParseJson(body);
        if (!parsedJson.ok) return adminError(400, 'INVALID_REQUEST', `The body is not valid JSON: ${parsedJson.message}`);
        const served = ServedBodySchema.safeParse(parsedJson.value);
        if (!served.success) return adminError(400, 'INVALID_REQUEST', describeZodError(served.error));
        return json(200, target.serveOrder(served.data));
      });
    case 'reset-faults':
      return allow('POST', async () => json(200, await target.resetFaults()));
    default:
      return adminError(404, 'UNKNOWN_PATH', `No admin route ${path}`);
  }
}
