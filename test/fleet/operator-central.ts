/**
 * A chain's centre as a real chain runs it: nats-server in operator mode (JWT accounts, resolver
 * MEMORY with the accounts preloaded), JetStream enabled for the chain's account, a TLS leaf node
 * port; and the leaf credentials a chain's `nsc` would hand a store, made with @nats-io/jwt. A
 * credentials file from another operator is what a wrong or forged one looks like to the centre.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createAccount, createOperator, createUser, encodeAccount, encodeActivation, encodeOperator, encodeUser, fmtCreds, type KeyPair } from '@nats-io/jwt';
import { connect, credsAuthenticator, type NatsConnection } from '@nats-io/transport-node';
import { makeCertificate } from '../../src/main/core/hub/server';
import type { Cleanup } from '../support/engine';
import { freePort, startTestNats, type TestNatsServer } from '../support/nats';

export interface Operator {
  readonly operator: KeyPair;
  readonly operatorJwt: string;
  readonly account: KeyPair;
  readonly accountJwt: string;
  readonly system: KeyPair;
  readonly systemJwt: string;
}

/** An operator with a system account and one chain account with JetStream. */
export async function makeOperator(name: string): Promise<Operator> {
  const operator = createOperator();
  const system = createAccount();
  const account = createAccount();
  const operatorJwt = await encodeOperator(name, operator, { system_account: system.getPublicKey() });
  const systemJwt = await encodeAccount('SYS', system, {}, { signer: operator });
  // JetStream enabled for the account: unlimited here (the chain sizes it).
  const limits = { subs: -1, data: -1, payload: -1, imports: -1, exports: -1, wildcards: true, conn: -1, leaf: -1, mem_storage: -1, disk_storage: -1, streams: -1, consumer: -1 };
  const accountJwt = await encodeAccount('CHAIN', account, { limits }, { signer: operator });
  return { operator, operatorJwt, account, accountJwt, system, systemJwt };
}

/** A user of the chain's account, as a `.creds` file's text (JWT + nkey seed). */
export async function credsFor(op: Operator, name: string): Promise<string> {
  const user = createUser();
  const jwt = await encodeUser(name, user, op.account);
  return new TextDecoder().decode(fmtCreds(jwt, user));
}

export interface OperatorCentral {
  readonly server: TestNatsServer;
  /** `tls://127.0.0.1:PORT`. */
  readonly leafUrl: string;
  /** The CA (the centre's own self-signed certificate) a store needs to trust it. */
  readonly caPem: string;
  /** A support connection in the chain's account. */
  readonly nc: NatsConnection;
  readonly op: Operator;
}

/**
 * The centre's nats-server in operator mode: the accounts' JWTs preloaded (`preload`: public key,
 * JWT) and a TLS leaf port whose certificate (the centre's own, self-signed) is written to `dir`.
 */
async function startCentreServer(
  cleanup: Cleanup,
  dir: string,
  operatorJwt: string,
  systemAccount: string,
  preload: Iterable<readonly [string, string]>,
): Promise<{ server: TestNatsServer; leafUrl: string; caPem: string; certPath: string }> {
  const cert = await makeCertificate({ ips: [], now: new Date(), commonName: 'chain centre' });
  const certPath = path.join(dir, 'centre-cert.pem');
  const keyPath = path.join(dir, 'centre-key.pem');
  writeFileSync(certPath, cert.certPem);
  writeFileSync(keyPath, cert.keyPem);
  const leafPort = await freePort();
  const server = await startTestNats({
    extraConfig: [
      'server_name: central',
      `operator: ${operatorJwt}`,
      `system_account: ${systemAccount}`,
      'resolver: MEMORY',
      `resolver_preload: { ${[...preload].map(([key, jwt]) => `${key}: ${jwt}`).join(', ')} }`,
      `leafnodes { listen: "127.0.0.1:${leafPort}", tls { cert_file: ${JSON.stringify(certPath)}, key_file: ${JSON.stringify(keyPath)} } }`,
    ].join('\n'),
  });
  cleanup.add(() => server.stop());
  return { server, leafUrl: `tls://127.0.0.1:${leafPort}`, caPem: cert.certPem, certPath };
}

export async function startOperatorCentral(cleanup: Cleanup, dir: string): Promise<OperatorCentral> {
  const op = await makeOperator('CHAIN-OP');
  const { server, leafUrl, caPem } = await startCentreServer(cleanup, dir, op.operatorJwt, op.system.getPublicKey(), [
    [op.account.getPublicKey(), op.accountJwt],
    [op.system.getPublicKey(), op.systemJwt],
  ]);
  const nc = await connect({ servers: server.url, authenticator: credsAuthenticator(new TextEncoder().encode(await credsFor(op, 'support'))), maxReconnectAttempts: -1, reconnectTimeWait: 200 });
  cleanup.add(() => nc.close());
  return { server, leafUrl, caPem, nc, op };
}

/**
 * The deployment docs/fleet.md gives for a chain ("Stores apart at the centre"): each store an
 * account of its own at the centre, which its hub's leaf lands in, keeping a copy of the hub's north
 * stream (NORTH_<store>) and exporting, privately to the fleet's account, exactly what the fleet
 * needs: making a consumer on that copy, its flow control, the drill-down's consumer on the hub's
 * open-orders list, and deliveries under `fleet.deliver.<store>`. The fleet's account imports
 * them with activation tokens, as `nsc add export --private` / `nsc generate activation` make them.
 */
export interface StoreAccount {
  readonly storeId: string;
  readonly account: KeyPair;
  /** The store's leaf credentials (what its hub PC is given). */
  readonly leafCreds: string;
  /** A user of the store's account for the chain's operators (makes NORTH_<store>). */
  readonly opsCreds: string;
}

export interface StoreAccountsCentral extends Omit<OperatorCentral, 'op'> {
  readonly stores: readonly StoreAccount[];
  readonly certPath: string;
}

const JS_LIMITS = { subs: -1, data: -1, payload: -1, imports: -1, exports: -1, wildcards: true, conn: -1, leaf: -1, mem_storage: -1, disk_storage: -1, streams: -1, consumer: -1 };

/** What a store's account exports to the fleet's, and the subject the fleet reaches each by. */
function storeExports(id: string): { subject: string; type: 'service' | 'stream'; local?: string }[] {
  return [
    { subject: `$JS.API.CONSUMER.CREATE.NORTH_${id}`, type: 'service', local: `$JS.${id}.API.CONSUMER.CREATE.NORTH_${id}` },
    { subject: `$JS.FC.NORTH_${id}.>`, type: 'service' },
    { subject: `$JS.${id}.API.CONSUMER.CREATE.PACKDESK_OPEN`, type: 'service' },
    { subject: `$JS.${id}.API.CONSUMER.DELETE.PACKDESK_OPEN.*`, type: 'service' },
    { subject: `fleet.deliver.${id}.>`, type: 'stream' },
  ];
}

export async function startStoreAccountsCentral(cleanup: Cleanup, dir: string, storeIds: readonly string[]): Promise<StoreAccountsCentral> {
  const operator = createOperator();
  const system = createAccount();
  const fleet = createAccount();
  const operatorJwt = await encodeOperator('CHAIN-OP', operator, { system_account: system.getPublicKey() });
  const jwts = new Map<string, string>([[system.getPublicKey(), await encodeAccount('SYS', system, {}, { signer: operator })]]);
  const stores: StoreAccount[] = [];
  const imports = [];
  for (const storeId of storeIds) {
    const account = createAccount();
    const exports = storeExports(storeId).map((e) => ({ name: e.subject, subject: e.subject, type: e.type, token_req: true, ...(e.type === 'service' ? { response_type: 'Singleton' as const } : {}) }));
    jwts.set(account.getPublicKey(), await encodeAccount(`STORE_${storeId}`, account, { limits: JS_LIMITS, exports }, { signer: operator }));
    for (const e of storeExports(storeId)) {
      const token = await encodeActivation(e.subject, fleet, account, e.type, { subject: e.subject });
      imports.push({ name: e.subject, subject: e.subject, account: account.getPublicKey(), type: e.type, token, ...(e.local ? { local_subject: e.local } : {}) });
    }
    const user = async (name: string): Promise<string> => {
      const u = createUser();
      return new TextDecoder().decode(fmtCreds(await encodeUser(name, u, account), u));
    };
    stores.push({ storeId, account, leafCreds: await user(`${storeId}-leaf`), opsCreds: await user(`${storeId}-ops`) });
  }
  jwts.set(fleet.getPublicKey(), await encodeAccount('FLEET', fleet, { limits: JS_LIMITS, imports }, { signer: operator }));
  const { server, leafUrl, caPem, certPath } = await startCentreServer(cleanup, dir, operatorJwt, system.getPublicKey(), jwts);
  const fleetUser = createUser();
  const support = new TextDecoder().decode(fmtCreds(await encodeUser('support', fleetUser, fleet), fleetUser));
  const nc = await connect({ servers: server.url, authenticator: credsAuthenticator(new TextEncoder().encode(support)), maxReconnectAttempts: -1, reconnectTimeWait: 200 });
  cleanup.add(() => nc.close());
  return { server, leafUrl, caPem, nc, stores, certPath };
}
