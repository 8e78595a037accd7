/** Helpers for the sandbox tests: start sandboxes that are closed after each test, and talk to them over HTTP. */
import { afterEach } from 'vitest';
import type { Action, Order } from '../../src/shared/protocol/schemas';
import { startSandbox, TOKEN_PATH, UPDATE_PATH, type Sandbox, type SandboxOptions } from '../../sandbox';
import { TRAINING } from './credentials';

const open: Sandbox[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

/** Starts a sandbox that is closed when the test ends. */
export async function sandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const s = await startSandbox(options);
  open.push(s);
  return s;
}

export interface HttpAnswer {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

async function answer(res: Response): Promise<HttpAnswer> {
  const text = await res.text();
  let json: unknown = undefined;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** Posts a token request form. */
export async function tokenRequest(s: Sandbox, fields: Record<string, string>): Promise<HttpAnswer> {
  return answer(await fetch(`${s.url}${TOKEN_PATH}`, { method: 'POST', body: new URLSearchParams(fields) }));
}

export interface Tokens {
  access_token: string;
  refresh_token: string;
  token_type: string;
  expires_in: number;
  expires_at: number;
  issued_at: number;
}

/** Gets a token with client_credentials and the default training credentials. */
export async function token(s: Sandbox): Promise<Tokens> {
  const a = await tokenRequest(s, { grant_type: 'client_credentials', client_id: TRAINING.clientId, client_secret: TRAINING.clientSecret });
  if (a.status !== 200) throw new Error(`token request answered ${a.status}: ${a.text}`);
  return a.json as Tokens;
}

/** An update request body for one order. */
export function updateBody(orderId: string, requestId: string, actions: Action[]): unknown {
  return { requestContext: { requestId, transactionId: orderId, actionType: 'UPDATE' }, orderId, actions };
}

/** Posts an update request; `auth` is the whole Authorization header (or none). */
export async function postUpdate(s: Sandbox, auth: string | undefined, body: unknown, signal?: AbortSignal): Promise<HttpAnswer> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' };
  if (auth !== undefined) headers.Authorization = auth;
  const init: RequestInit = { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) };
  if (signal) init.signal = signal;
  return answer(await fetch(`${s.url}${UPDATE_PATH}`, init));
}

/** Posts an update with a valid token. */
export async function update(s: Sandbox, t: Tokens, orderId: string, requestId: string, actions: Action[]): Promise<HttpAnswer> {
  return postUpdate(s, `O-Bearer ${t.access_token}`, updateBody(orderId, requestId, actions));
}

/** The first order matching a predicate (fails the test if none). */
export function findOrder(s: Sandbox, predicate: (o: Order) => boolean): Order {
  const order = s.orders().find(predicate);
  if (!order) throw new Error('no seeded order matches');
  return order;
}

/** The error code of an error answer. */
export function errorCode(a: HttpAnswer): string | undefined {
  return (a.json as { error?: { errorCode?: string } } | undefined)?.error?.errorCode;
}

/** The error message of an error answer. */
export function errorMessage(a: HttpAnswer): string | undefined {
  return (a.json as { error?: { message?: string } } | undefined)?.error?.message;
}
