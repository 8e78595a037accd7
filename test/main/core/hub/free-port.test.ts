/**
 * The port a training hub (and the hub's monitoring port) is given: free on 127.0.0.1 and from
 * below the OS's range for outgoing connections, so no outgoing connection can be handed it in
 * the moment before nats-server binds it (CI once lost a run to exactly that).
 */
import net from 'node:net';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { freeLocalPort, QUIET_PORTS } from '../../../../src/main/core/hub/membership';

const held: net.Server[] = [];
afterEach(async () => {
  await Promise.all(held.splice(0).map((s) => new Promise((r) => s.close(r))));
});

function hold(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
    held.push(server);
  });
}

describe('a free local port', () => {
  it('comes from below this machine’s range for outgoing connections and binds', async () => {
    const [lowest] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    expect(QUIET_PORTS.to).toBeLessThanOrEqual(lowest!);
    for (let i = 0; i < 5; i++) {
      const port = await freeLocalPort();
      expect(port).toBeGreaterThanOrEqual(QUIET_PORTS.from);
      expect(port).toBeLessThan(QUIET_PORTS.to);
      await hold(port);
    }
  });

  it('passes over a port something already listens on', async () => {
    const taken = await freeLocalPort();
    await hold(taken);
    const picks = [taken - QUIET_PORTS.from, taken - QUIET_PORTS.from + 1].map((n) => (n + 0.5) / (QUIET_PORTS.to - QUIET_PORTS.from));
    const port = await freeLocalPort(() => picks.shift() ?? Math.random());
    expect(port).not.toBe(taken);
    await hold(port);
  });
});
