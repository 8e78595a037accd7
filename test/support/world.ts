/**
 * A real sandbox on 127.0.0.1 with a token manager and an order service client wired to it, the
 * way the engine wires them. It also watches every token the token server hands out, so each test
 * can check that no token or secret reached a log record or an outcome message.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { startSandbox, TOKEN_PATH, type Sandbox, type SandboxOptions } from '../../sandbox';
import { OrderServiceClient, type OrderServiceClientOptions, type UpdateOutcome } from '../../src/main/core/api';
import { MemoryVault, TokenManager, type TokenManagerOptions } from '../../src/main/core/auth';
import type { ClientCredentials } from '../../src/main/core/auth';
import { TRAINING } from './credentials';
import { createLogger, MemorySink, SecretRegistry, secrets } from '../../src/main/core/log';
import { type Action, buildUpdateRequest, type Order, type OrderUpdateRequest } from '../../src/shared/protocol';

export interface WorldOptions {
  readonly sandbox?: SandboxOptions;
  /** Credentials in the vault; null for none. Default: the sandbox's training ones. */
  readonly credentials?: ClientCredentials | null;
  readonly manager?: Partial<TokenManagerOptions>;
  readonly client?: Partial<OrderServiceClientOptions>;
}

export interface World {
  readonly sandbox: Sandbox;
  readonly vault: MemoryVault;
  readonly tokens: TokenManager;
  readonly client: OrderServiceClient;
  readonly sink: MemorySink;
  /** Every access and refresh token the token server issued in this world. */
  readonly issued: string[];
  /** Sends one update and remembers the outcome for the secrets check. */
  send(request: OrderUpdateRequest, signal?: AbortSignal): Promise<UpdateOutcome>;
  /** Remembers any text a user could see (messages of results), for the secrets check. */
  remember(text: string): void;
  /** Asserts no token or secret appears in a log record or a remembered message; closes everything. */
  close(): Promise<void>;
}

/** Starts a sandbox and the engine's token manager and client against it. */
export async function startWorld(options: WorldOptions = {}): Promise<World> {
  const sandbox = await startSandbox({ seed: 7, ...options.sandbox });
  const issued: string[] = [];
  const seen: string[] = [];
  // Records tokens on their way from the token server to the manager; changes nothing else.
  const innerFetch = options.manager?.fetch ?? fetch;
  const watchingFetch: typeof fetch = async (input, init) => {
    const response = await innerFetch(input, init);
    if (String(input).endsWith(TOKEN_PATH) && response.ok) {
      const body = (await response.clone().json().catch(() => ({}))) as { access_token?: string; refresh_token?: string };
      if (body.access_token) issued.push(body.access_token);
      if (body.refresh_token) issued.push(body.refresh_token);
    }
    return response;
  };
  const sink = new MemorySink();
  // The logger gets an EMPTY registry: the test shows the code never logs a secret in the first
  // place, rather than relying on the process-wide registry to mask it.
  const logger = createLogger([sink], { registry: new SecretRegistry(), minLevel: 'debug' });
  const credentials = options.credentials === undefined ? TRAINING : options.credentials;
  const vault = new MemoryVault(credentials ? { credentials } : {});
  const tokens = new TokenManager({ authUrl: sandbox.url, vault, logger, ...options.manager, fetch: watchingFetch });
  const client = new OrderServiceClient({ baseUrl: sandbox.url, tokens, logger, ...options.client });

  return {
    sandbox,
    vault,
    tokens,
    client,
    sink,
    issued,
    async send(request, signal) {
      const outcome = await client.update(request, signal);
      seen.push(JSON.stringify({ ...outcome, raw: undefined }));
      return outcome;
    },
    remember(text) {
      seen.push(text);
    },
    async close() {
      try {
        const secretValues = [...issued, credentials?.clientSecret ?? TRAINING.clientSecret];
        const logs = JSON.stringify(sink.records);
        for (const value of secretValues) {
          expect(logs, 'a token or the client secret reached a log record').not.toContain(value);
          for (const text of seen) expect(text, 'a token or the client secret reached a message').not.toContain(value);
          // The process-wide registry knows it, so every other logger masks it too.
          expect(secrets.redactText(value)).toBe('[redacted]');
        }
      } finally {
        await tokens.close();
        await sandbox.close();
      }
    },
  };
}

/** An update request for one action, with a fresh requestId. */
export function updateOf(orderId: string, action: Action, requestId: string = randomUUID()): OrderUpdateRequest {
  const built = buildUpdateRequest(orderId, requestId, [action]);
  if (!built.ok) throw new Error(built.problem.message);
  return built.value;
}

/** An order the sandbox seeded in state Created, with a STORE and a DELIVERY fulfilment and an item of 2+ units. */
export function freshOrder(sandbox: Sandbox, skip: ReadonlySet<string> = new Set()): Order {
  const found = sandbox
    .orders()
    .find(
      (o) =>
        !skip.has(o.id) &&
        o.orderState.toUpperCase() === 'CREATED' &&
        o.fulfillments.some((f) => f.type === 'STORE') &&
        o.fulfillments.some((f) => f.type === 'DELIVERY') &&
        o.items.some((i) => i.quantity.count >= 2),
    );
  if (!found) throw new Error('the sandbox seeded no suitable order');
  return found;
}

/** Accepts an order so fulfilment updates are allowed; fails the test if it does not succeed. */
export async function accept(world: World, orderId: string): Promise<void> {
  const outcome = await world.send(updateOf(orderId, { type: 'ORDER_STATE_UPDATE', orderState: 'ACCEPTED' }));
  expect(outcome.kind).toBe('success');
}
