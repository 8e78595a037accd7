/**
 * The drain's floor: the same update requests, in the same order and as many at once, sent to the
 * same sandbox by a bare client (bodies built before the clock starts, fetch, the answer read as
 * text, nothing recorded). What the drain takes over this is the engine's own (the outbox, SQLite,
 * reading the answers); what this takes over the bound is the way there and back (HTTP on both
 * sides, the sandbox's own work, a timer's lateness), which no client can take away.
 */
import { randomUUID } from 'node:crypto';
import { TOKEN_PATH, UPDATE_PATH } from '../sandbox';
import { type ActionInput, buildAction, buildUpdateRequest } from '../src/shared/protocol';

export interface FloorTarget {
  readonly url: string;
  setFaults(patch: { latencyMs: number }): Promise<void>;
}

async function tokenFrom(url: string, credentials: { clientId: string; clientSecret: string }): Promise<string> {
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: credentials.clientId, client_secret: credentials.clientSecret });
  const r = await fetch(`${url}${TOKEN_PATH}`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: form.toString() });
  const body = (await r.json()) as { access_token?: unknown; token_type?: unknown };
  if (!r.ok || typeof body.access_token !== 'string') throw new Error(`no token from the sandbox: HTTP ${r.status}`);
  return `${typeof body.token_type === 'string' ? body.token_type : 'Bearer'} ${body.access_token}`;
}

/** Runs `work(i)` for every i below `count`, `concurrency` at a time, each lane taking the next i. */
async function inLanes(count: number, concurrency: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < count) await work(next++);
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
}

/** Each (order, action)'s update request as the body sent: built before any clock starts. */
function bodiesFor(work: readonly (readonly [string, ActionInput])[]): (readonly [string, string])[] {
  return work.map(([orderId, input]) => {
    const action = buildAction(input);
    if (!action.ok) throw new Error(`bad action for ${orderId}: ${action.problem.message}`);
    const request = buildUpdateRequest(orderId, randomUUID(), [action.value]);
    if (!request.ok) throw new Error(`bad request for ${orderId}: ${request.problem.message}`);
    return [orderId, JSON.stringify(request.value)] as const;
  });
}

/** POSTs each body in turn, `concurrency` at a time; throws on any answer but 2xx. */
async function sendAll(url: string, authorization: string, bodies: readonly (readonly [string, string])[], concurrency: number): Promise<void> {
  await inLanes(bodies.length, concurrency, async (i) => {
    const [orderId, body] = bodies[i]!;
    const r = await fetch(`${url}${UPDATE_PATH}`, {
      method: 'POST',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json', Authorization: authorization },
      body,
    });
    const text = await r.text();
    if (!r.ok) throw new Error(`the sandbox refused ${orderId}: HTTP ${r.status} ${text.slice(0, 200)}`);
  });
}

/**
 * Accepts every order (no latency), then times `steps` sent with `latencyMs` switched on. `steps`
 * lists, step by step across orders, what the drain queued; returns the timed part in ms.
 */
export async function measureFloor(
  target: FloorTarget,
  credentials: { clientId: string; clientSecret: string },
  ids: readonly string[],
  steps: readonly (readonly [string, ActionInput])[],
  latencyMs: number,
  concurrency: number,
): Promise<number> {
  const authorization = await tokenFrom(target.url, credentials);
  const accept: ActionInput = { kind: 'orderState', state: 'ACCEPTED' };
  await sendAll(target.url, authorization, bodiesFor(ids.map((id) => [id, accept] as const)), 8);
  const timed = bodiesFor(steps);
  await target.setFaults({ latencyMs });
  const start = process.hrtime.bigint();
  await sendAll(target.url, authorization, timed, concurrency);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/**
 * The sandbox's latency alone: `count` waits of `latencyMs` (the sandbox's own sleep, a timer),
 * `concurrency` at a time, in this process, in ms: a timer fires late by up to a millisecond.
 */
export async function measureTimers(count: number, latencyMs: number, concurrency: number): Promise<number> {
  const start = process.hrtime.bigint();
  await inLanes(count, concurrency, () => new Promise((resolve) => setTimeout(resolve, latencyMs)));
  return Number(process.hrtime.bigint() - start) / 1e6;
}
