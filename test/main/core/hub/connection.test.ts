/**
 * A counter's connection to a real hub (nats-server with TLS and the bcrypted secret, supervised on
 * 127.0.0.1): the right join code connects and can use JetStream; a wrong secret, another hub's
 * certificate, a hub without TLS, a plain-text client and no hub at all are each refused in words;
 * a hub that is away is noticed within seconds and the connection comes back by itself.
 */
import net from 'node:net';
import { Kvm } from '@nats-io/kv';
import { connect } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHub, HUB_PROBLEM_WORDS, type HubConnection, type HubLinkStatus } from '../../../../src/main/core/hub/nats/connection';
import { freePort, startTestNats, type TestNatsServer } from '../../../support/nats';
import { createHubFiles, HubSupervisor } from '../../../../src/main/core/hub/server';
import { makeTestHub, type TestHub, until } from './hub-fixture';

let hub: TestHub;
let other: TestHub;
const open: HubConnection[] = [];

beforeAll(async () => {
  hub = await makeTestHub({ supervisor: { backoff: { initialMs: 4000, maxMs: 4000 } } });
  other = await makeTestHub();
});
afterAll(async () => {
  for (const c of open) await c.close();
  await hub?.dispose();
  await other?.dispose();
});

const target = () => ({ host: '127.0.0.1', port: hub.port, secret: hub.secret, fingerprint: hub.fingerprint.slice(0, 24) });

describe('connecting to the hub', () => {
  it('connects with the right join code and can write and read a JetStream KV bucket', async () => {
    const result = await connectHub(target(), { name: 'Counter 1' });
    if (!result.ok) throw new Error(result.problem.message);
    open.push(result.connection);
    expect(result.connection.status().state).toBe('connected');
    expect(result.connection.fingerprint).toBe(hub.fingerprint);
    const kv = await new Kvm(result.connection.nc).create('test-connection');
    await kv.put('hello', 'world');
    expect((await kv.get('hello'))?.string()).toBe('world');
  });

  it('refuses a wrong (or old) secret with "the join code is wrong or old"', async () => {
    const result = await connectHub({ ...target(), secret: 'ffffffffffffffffffffffff' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problem).toEqual({ kind: 'wrongSecret', message: HUB_PROBLEM_WORDS.wrongSecret });
    expect(result.problem.message).toMatch(/join code is wrong or old/);
  });

  it('refuses a hub whose certificate is not the pinned one, before sending the secret', async () => {
    // Another hub (its own certificate) answering on the address, given the right secret of the first.
    const result = await connectHub({ host: '127.0.0.1', port: other.port, secret: other.secret, fingerprint: hub.fingerprint });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problem.kind).toBe('certificate');
    expect(result.problem.message).toMatch(/not the one the join code names/);
  });

  it('refuses a server without TLS (not a Packdesk hub) and sends it nothing', async () => {
    let plain: TestNatsServer | null = null;
    try {
      plain = await startTestNats();
      const result = await connectHub({ host: '127.0.0.1', port: plain.port, secret: hub.secret, fingerprint: hub.fingerprint });
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.problem.kind).toBe('noTls');
    } finally {
      await plain?.stop();
    }
  });

  it('the hub refuses a plain-text client, even one that knows the secret', async () => {
    // A NATS client that will not do TLS.
    await expect(connect({ servers: `127.0.0.1:${hub.port}`, user: 'packdesk', pass: hub.secret, tls: null, reconnect: false })).rejects.toThrow(/tls|secure/i);
    // A raw socket that just says CONNECT in plain text.
    const said = await new Promise<string>((resolve) => {
      const socket = net.connect({ host: '127.0.0.1', port: hub.port });
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString('latin1');
        if (text.includes('\r\n') && !text.includes('CONNECT sent')) {
          text += 'CONNECT sent';
          socket.write(`CONNECT {"user":"packdesk","pass":"${hub.secret}","verbose":true}\r\nPING\r\n`);
        }
      });
      socket.on('close', () => resolve(text));
      socket.on('error', () => undefined);
      setTimeout(() => socket.destroy(), 5000);
    });
    expect(said).not.toMatch(/\+OK|PONG/);
  });

  it('says the hub cannot be reached when nothing listens there', async () => {
    const port = await freePort();
    const result = await connectHub({ ...target(), port }, { timeoutMs: 2000 });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem).toEqual({ kind: 'unreachable', message: HUB_PROBLEM_WORDS.unreachable });
  });

  it('notices a hub that is away within seconds and reconnects by itself when it is back', async () => {
    const result = await connectHub(target(), { name: 'Counter 2', pingIntervalMs: 1000, reconnectWaitMs: 250 });
    if (!result.ok) throw new Error(result.problem.message);
    const connection = result.connection;
    open.push(connection);
    const seen: HubLinkStatus[] = [];
    connection.onStatus((s) => seen.push(s));
    const killedAt = Date.now();
    process.kill(hub.supervisor.status().pid!, 'SIGKILL');
    await until(() => connection.status().state === 'reconnecting', 15_000);
    const noticedMs = Date.now() - killedAt;
    expect(noticedMs).toBeLessThan(15_000);
    expect(connection.status().problem?.kind).toBe('unreachable');
    // The supervisor restarts the hub after its pause; the counter comes back without being asked.
    await until(() => connection.status().state === 'connected', 20_000);
    expect(seen.map((s) => s.state)).toEqual(['reconnecting', 'connected']);
    const kv = await new Kvm(connection.nc).open('test-connection');
    expect((await kv.get('hello'))?.string()).toBe('world');
  });

  it('notices a hub that stops answering without closing the connection (a pulled cable) within 15 s, with the default pings', async () => {
    const result = await connectHub(target(), { name: 'Counter 3' });
    if (!result.ok) throw new Error(result.problem.message);
    const connection = result.connection;
    open.push(connection);
    const pid = hub.supervisor.status().pid!;
    // A frozen server keeps its sockets open and answers nothing: as a cable pulled out.
    process.kill(pid, 'SIGSTOP');
    const frozenAt = Date.now();
    try {
      await until(() => connection.status().state === 'reconnecting', 15_000);
      const noticedMs = Date.now() - frozenAt;
      console.info(`hub frozen: noticed after ${noticedMs} ms (default pings every 2 s, two missed)`);
      expect(noticedMs).toBeLessThan(15_000);
      expect(connection.status().problem?.message).toMatch(/The hub cannot be reached/);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    await until(() => connection.status().state === 'connected', 20_000);
  });

  it('says so when the hub at the address is made again with another certificate, and never connects to it', async () => {
    const first = await makeTestHub();
    const result = await connectHub({ host: '127.0.0.1', port: first.port, secret: first.secret, fingerprint: first.fingerprint }, { reconnectWaitMs: 200 });
    if (!result.ok) throw new Error(result.problem.message);
    const connection = result.connection;
    open.push(connection);
    await first.supervisor.stop();
    // Another hub on the same address, with the same secret even: only the certificate differs.
    const again = await makeTestHub({ start: false });
    try {
      await createHubFiles(again.files, { listen: first.listen, secret: first.secret, now: new Date() });
      const replacement = new HubSupervisor({ program: again.program, version: again.version, files: again.files, listen: first.listen });
      expect((await replacement.start()).running).toBe(true);
      try {
        await until(() => connection.status().problem?.kind === 'certificate', 10_000);
        expect(connection.status().state).toBe('reconnecting');
        expect(connection.status().problem?.message).toMatch(/not the one the join code names/);
      } finally {
        await replacement.stop();
      }
    } finally {
      await again.dispose();
      await first.dispose();
    }
  });
});

