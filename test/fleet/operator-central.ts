/**
 * A chain's centre as a real chain runs it: nats-server in operator mode (JWT accounts, resolver
 * MEMORY with the accounts preloaded), JetStream enabled for the chain's account, a TLS leaf node
 * port; and the leaf credentials a chain's `nsc` would hand a store, made with @nats-io/jwt. A
 * credentials file from another operator is what a wrong or forged one looks like to the centre.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createAccount, createOperator, createUser, encodeAccount, encodeOperator, encodeUser, fmtCreds, type KeyPair } from '@nats-io/jwt';
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

export async function startOperatorCentral(cleanup: Cleanup, dir: string): Promise<OperatorCentral> {
  const op = await makeOperator('CHAIN-OP');
  const cert = await makeCertificate({ ips: [], now: new Date(), commonName: 'chain centre' });
  const certPath = path.join(dir, 'centre-cert.pem');
  const keyPath = path.join(dir, 'centre-key.pem');
  writeFileSync(certPath, cert.certPem);
  writeFileSync(keyPath, cert.keyPem);
  const leafPort = await freePort();
  const server = await startTestNats({
    extraConfig: [
      'server_name: central',
      `operator: ${op.operatorJwt}`,
      `system_account: ${op.system.getPublicKey()}`,
      'resolver: MEMORY',
      `resolver_preload: { ${op.account.getPublicKey()}: ${op.accountJwt}, ${op.system.getPublicKey()}: ${op.systemJwt} }`,
      `leafnodes { listen: "127.0.0.1:${leafPort}", tls { cert_file: ${JSON.stringify(certPath)}, key_file: ${JSON.stringify(keyPath)} } }`,
    ].join('\n'),
  });
  cleanup.add(() => server.stop());
  const nc = await connect({ servers: server.url, authenticator: credsAuthenticator(new TextEncoder().encode(await credsFor(op, 'support'))), maxReconnectAttempts: -1, reconnectTimeWait: 200 });
  cleanup.add(() => nc.close());
  return { server, leafUrl: `tls://127.0.0.1:${leafPort}`, caPem: cert.certPem, nc, op };
}
