import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { parseFlags } from '../../sandbox/flags';
import { REPO_ROOT } from '../support/paths';

const root = REPO_ROOT;
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** Starts the CLI the way `npm run sandbox` does (tsx), without npm in between so signals reach it. */
function cli(args: string[]): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'sandbox/cli.ts', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return child;
}

/** The first `count` lines of stdout; fails with the child's stderr if it ends sooner. */
async function firstLines(child: ChildProcess, count: number): Promise<string[]> {
  if (!child.stdout) throw new Error('no stdout');
  const stderr = collect(child.stderr);
  const lines: string[] = [];
  for await (const line of createInterface({ input: child.stdout })) {
    lines.push(line);
    if (lines.length === count) return lines;
  }
  throw new Error(`the CLI ended before printing ${count} line(s) (exit ${String(child.exitCode)}): ${stderr()}`);
}

async function exitOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const [code] = (await once(child, 'exit')) as [number | null];
  return code;
}

function collect(stream: NodeJS.ReadableStream | null): () => string {
  let text = '';
  stream?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return () => text;
}

describe('sandbox CLI', () => {
  it('prints where it listens first, serves on 127.0.0.1 and stops with exit 0 on SIGTERM', async () => {
    const child = cli(['--port', '0', '--seed', '5', '--orders', '31', '--client-secret', 'cli-secret-value']);
    const stderr = collect(child.stderr);
    const [listening, adminLine] = await firstLines(child, 2);
    expect(listening).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
    expect(adminLine).toMatch(/^admin on http:\/\/127\.0\.0\.1:\d+$/);
    const url = listening?.slice('listening on '.length) ?? '';
    const admin = adminLine?.slice('admin on '.length) ?? '';

    const orders = (await (await fetch(`${admin}/__sandbox/orders`)).json()) as unknown[];
    expect(orders).toHaveLength(31);
    const tokenAnswer = await fetch(`${url}/olympus/im/v1/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'training', client_secret: 'cli-secret-value' }),
    });
    expect(tokenAnswer.status).toBe(200);

    child.kill('SIGTERM');
    expect(await exitOf(child)).toBe(0);
    expect(stderr()).not.toContain('cli-secret-value');
  });

  it('stops with exit 0 on SIGINT', async () => {
    const child = cli(['--port', '0']);
    expect(await firstLines(child, 1)).toHaveLength(1);
    child.kill('SIGINT');
    expect(await exitOf(child)).toBe(0);
  });

  it('prints usage and exits 2 on a bad flag', async () => {
    const child = cli(['--bogus']);
    const stderr = collect(child.stderr);
    expect(await exitOf(child)).toBe(2);
    expect(stderr()).toContain("Unknown option '--bogus'");
    expect(stderr()).toContain('Usage: npm run sandbox');
  });

  it('refuses bad flag values and maps good ones to sandbox options', () => {
    for (const args of [['--port', 'eighty'], ['--port', '70000'], ['--expired-status', '403'], ['--orders', '0'], ['stray'], ['--seed']]) {
      const parsed = parseFlags(args);
      expect(parsed.ok, args.join(' ')).toBe(false);
    }
    expect(
      parseFlags(['--port', '0', '--admin-port', '9', '--seed', '3', '--orders', '30', '--client-id', 'c', '--client-secret', 's', '--token-ttl', '60', '--expired-status', '412', '--latency', '5']),
    ).toEqual({
      ok: true,
      help: false,
      latencyMs: 5,
      options: { port: 0, adminPort: 9, seed: 3, orderCount: 30, clientId: 'c', clientSecret: 's', tokenTtlSeconds: 60, expiredStatus: 412 },
    });
  });

  it('prints usage on --help and exits 0', async () => {
    const child = cli(['--help']);
    const stdout = collect(child.stdout);
    expect(await exitOf(child)).toBe(0);
    expect(stdout()).toContain('--expired-status');
  });
});
