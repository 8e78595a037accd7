/**
 * `packdesk claim ORDER_ID`, `packdesk release ORDER_ID`, and the claims `packdesk orders` shows:
 * the hub's claims module over a short-lived connection (the secret from the keychain, as `hub
 * status` connects), so support can see and move "being packed at Counter 2" from a shell.
 */
import { openClaims } from '../main/core/hub/claims';
import { loadHubConfig } from '../main/core/hub/hub-config';
import { keychainHubSecrets, type HubSecretStore } from '../main/core/hub/server';
import { readClaims, visitHub } from '../main/core/hub/snapshot';
import type { Claim } from '../shared/hub';
import type { OrderView } from '../shared/ipc';
import type { CliConfig } from './config';
import type { CliIo } from './io';
import { EXIT } from './usage';

export interface ClaimCliDeps {
  readonly secrets?: HubSecretStore;
  readonly now?: () => number;
}

/** What a claim command came to, as printed with --json. */
type Said = { ok: true; orderId: string; claim: Claim | null } | { ok: false; orderId: string; message: string; counter?: string; claim?: Claim };

/** Claims or releases an order for this counter; resolves with the exit code. */
export async function runClaim(action: 'claim' | 'release', orderId: string, json: boolean, config: CliConfig, io: CliIo, deps: ClaimCliDeps = {}): Promise<number> {
  const now = deps.now ?? Date.now;
  const answer = (code: number, said: Said, text: string): number => {
    if (json) io.write(`${JSON.stringify(said, null, 2)}\n`);
    else if (code === EXIT.OK) io.write(text);
    else io.writeError(`packdesk ${action}: ${text}`);
    return code;
  };
  const read = loadHubConfig(config.dataDir);
  if (!read.ok) return answer(EXIT.DATA_FILE, { ok: false, orderId, message: read.message }, `${read.message}\n`);
  const hub = read.config;
  if (!hub) {
    const message = 'This counter is not part of a store hub: there are no claims to make or end (packdesk hub join CODE first).';
    return answer(EXIT.HUB, { ok: false, orderId, message }, `${message}\n`);
  }
  const secrets = deps.secrets ?? keychainHubSecrets({ environment: config.environment });
  const counter = { counterId: hub.counterId, counterName: hub.counterName };
  const visit = await visitHub(hub, secrets, action, async (connection) => {
    const claims = await openClaims(connection.nc, { counter, now });
    try {
      if (action === 'claim') return await claims.claim(orderId);
      await claims.release(orderId);
      const after = (await readClaims(connection.nc, [orderId], now())).get(orderId) ?? null;
      return after && after.counterId !== counter.counterId ? ({ kind: 'taken', by: after } as const) : ({ kind: 'released' } as const);
    } finally {
      claims.close();
    }
  });
  if (!visit.ok) {
    const message = `The store hub cannot be reached, so the claim cannot be checked: ${visit.problem.message}`;
    return answer(EXIT.HUB, { ok: false, orderId, message }, `${message}\n`);
  }
  const outcome = visit.value;
  switch (outcome.kind) {
    case 'held':
      return answer(EXIT.OK, { ok: true, orderId, claim: outcome.claim }, `Order ${orderId} is claimed by this counter, "${hub.counterName}", until ${new Date(outcome.claim.expiresAt).toISOString()}.\n`);
    case 'released':
      return answer(EXIT.OK, { ok: true, orderId, claim: null }, `Order ${orderId} is not claimed by this counter (any claim it had is ended).\n`);
    case 'taken': {
      const message = `Order ${orderId} is being packed at ${outcome.by.counterName} (since ${new Date(outcome.by.claimedAt).toISOString()}); take it over there, or on this counter's screen with "Take over".`;
      return answer(EXIT.CLAIMED, { ok: false, orderId, message, counter: outcome.by.counterName, claim: outcome.by }, `${message}\n`);
    }
    case 'unchecked': {
      const message = 'The store hub did not answer the claim in time; nothing was changed.';
      return answer(EXIT.HUB, { ok: false, orderId, message }, `${message}\n`);
    }
  }
}

/** An order's claim as `orders` shows it: known (a claim or none), or "unknown" with the reason. */
export type OrderClaim = { readonly counterName: string; readonly counterId: string; readonly since: number; readonly expiresAt: number; readonly here: boolean } | null | 'unknown';

/** The claims of these orders from the hub, or why they are unknown. */
export async function claimsFor(orders: readonly OrderView[], config: CliConfig, deps: ClaimCliDeps = {}): Promise<{ known: true; claims: Map<string, Claim>; counterId: string } | { known: false; why: string; inHub: boolean }> {
  const read = loadHubConfig(config.dataDir);
  if (!read.ok) return { known: false, why: read.message, inHub: true };
  if (!read.config) return { known: false, why: 'this counter is not part of a store hub', inHub: false };
  const hub = read.config;
  const now = deps.now ?? Date.now;
  const visit = await visitHub(hub, deps.secrets ?? keychainHubSecrets({ environment: config.environment }), 'orders', (c) => readClaims(c.nc, orders.map((o) => o.id), now()));
  return visit.ok ? { known: true, claims: visit.value, counterId: hub.counterId } : { known: false, why: `the store hub cannot be reached: ${visit.problem.message}`, inHub: true };
}

/** One order's claim in the shape `orders --json` prints. */
export function orderClaim(claim: Claim | undefined, counterId: string): OrderClaim {
  return claim ? { counterName: claim.counterName, counterId: claim.counterId, since: claim.claimedAt, expiresAt: claim.expiresAt, here: claim.counterId === counterId } : null;
}
