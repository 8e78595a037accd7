/**
 * A real `nats-server` (Debian's 2.9.10 here) with JetStream on a free port of 127.0.0.1, for tests of
 * the store hub's rules. Each test stops what it started, by pid. The product's own supervisor
 * (TLS, the store's secret, restarts) lives in src/main/core/hub; this one starts a bare server so a
 * rule can be tested on its own.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freeLocalPort } from '../../src/main/core/hub/membership';

/** The nats-server program: on the PATH, or where Debian puts it (/usr/sbin is not on every user's PATH). */
export function natsServerProgram(): string {
  for (const dir of [...(process.env.PATH ?? '').split(path.delimiter), '/usr/sbin', '/usr/local/sbin']) {
    if (!dir) continue;
    const candidate = path.join(dir, 'nats-server');
    if (existsSync(candidate)) return candidate;
  }
  throw new Error('nats-server is not installed (Debian package nats-server; run scripts/setup.sh)');
}

/** A free TCP port on 127.0.0.1 (asked of the OS, then released): the product's own helper. */
export const freePort = freeLocalPort;

export interface TestNatsServer {
  /** `nats://127.0.0.1:PORT`. */
  readonly url: string;
  readonly port: number;
  /** The JetStream store folder, kept across restart(). */
  readonly storeDir: string;
  pid(): number | undefined;
  /** SIGKILL, as a crash or a pulled plug would. */
  kill(): Promise<void>;
  /** Starts again on the same port and store folder. */
  restart(): Promise<void>;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
}

export interface TestNatsOptions {
  /** Extra lines for the server's configuration file (authorization, tls, leafnodes...). */
  readonly extraConfig?: string;
  /** Keep the store in this folder (default: a fresh temporary one, removed by stop()). */
  readonly storeDir?: string;
  /**
   * The server's JetStream domain. Said here, not in extraConfig: a second `jetstream {}` block
   * replaces the first, store_dir and all, and nats-server then keeps its streams in
   * /tmp/nats/jetstream from one run to the next.
   */
  readonly jetstreamDomain?: string;
}

/** Starts nats-server with JetStream on a free port of 127.0.0.1 and waits until it accepts connections. */
export async function startTestNats(options: TestNatsOptions = {}): Promise<TestNatsServer> {
  const program = natsServerProgram();
  const port = await freePort();
  const ownDir = options.storeDir ? null : mkdtempSync(path.join(os.tmpdir(), 'packdesk-nats-'));
  const storeDir = options.storeDir ?? path.join(ownDir!, 'js');
  mkdirSync(storeDir, { recursive: true });
  const configPath = path.join(ownDir ?? path.dirname(storeDir), `nats-${port}.conf`);
  writeFileSync(
    configPath,
    [`listen: "127.0.0.1:${port}"`, `jetstream { store_dir: ${JSON.stringify(storeDir)}${options.jetstreamDomain ? `, domain: ${JSON.stringify(options.jetstreamDomain)}` : ''} }`, options.extraConfig ?? ''].join('\n'),
  );
  let child: ChildProcess | null = null;

  const launch = async (): Promise<void> => {
    const started = spawn(program, ['-c', configPath], { stdio: ['ignore', 'ignore', 'pipe'] });
    child = started;
    let output = '';
    started.stderr?.on('data', (chunk: Buffer) => {
      if (output.length < 20_000) output += chunk.toString();
    });
    const deadline = Date.now() + 10_000;
    for (;;) {
      if (started.exitCode !== null) throw new Error(`nats-server exited (${started.exitCode}): ${output}`);
      if (/Server is ready/.test(output)) return;
      if (Date.now() > deadline) {
        started.kill('SIGKILL');
        throw new Error(`nats-server did not start in 10 s: ${output}`);
      }
      await new Promise((r) => setTimeout(r, 25));
    }
  };

  const halt = async (signal: NodeJS.Signals): Promise<void> => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    running.kill(signal);
    await exited;
  };

  await launch();
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    storeDir,
    pid: () => (child as ChildProcess | null)?.pid,
    kill: () => halt('SIGKILL'),
    restart: async () => {
      await halt('SIGTERM');
      await launch();
    },
    stop: async () => {
      await halt('SIGTERM');
      if (ownDir) rmSync(ownDir, { recursive: true, force: true });
    },
  };
}
