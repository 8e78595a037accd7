/** What the hub rules' tests share: counters as client connections to a real nats-server, and waiting for what they see. */
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { Cleanup } from '../../../support/engine';
import { startTestNats, type TestNatsServer } from '../../../support/nats';
import { timeUntil } from '../../../support/until';

export { Cleanup };

/** A bare JetStream nats-server on 127.0.0.1, stopped after the test. */
export async function hub(cleanup: Cleanup): Promise<TestNatsServer> {
  const server = await startTestNats();
  cleanup.add(() => server.stop());
  return server;
}

/** One counter's connection to the hub, reconnecting for ever (the client's default gives up after ~21 s). */
export async function counterConnection(cleanup: Cleanup, server: TestNatsServer): Promise<NatsConnection> {
  const nc = await connect({ servers: server.url, maxReconnectAttempts: -1, reconnectTimeWait: 100 });
  cleanup.add(() => nc.close());
  return nc;
}

/** Waits until `probe` holds, polling every few ms; returns the ms it took, or throws after `timeoutMs`. */
export const waitFor = (probe: () => boolean, timeoutMs: number, what: string): Promise<number> => timeUntil(what, probe, timeoutMs, 2);
