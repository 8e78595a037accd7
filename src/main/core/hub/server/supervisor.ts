/**
 * Runs the hub's nats-server as a child process: clears an orphan left by a crash, starts it, waits
 * until it says it is ready, restarts it with growing pauses if it dies, and stops it on quit
 * (SIGTERM, then SIGKILL after a grace). Its health is what `HubStatus.server` shows.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import type { HubStatus } from '../../../../shared/hub';
import { silentLogger, type Logger } from '../../log/logger';
import { systemTimers, type Timers } from '../../time';
import type { HubFiles } from './hub-files';
import { clearOrphan, type CommandLineReader, systemCommandLine } from './orphan';
import { moveToAccounts } from './layout';
import { versionRefusal } from './program';

/** The hub process's health, as `HubStatus.server` carries it. */
export type ServerHealth = NonNullable<HubStatus['server']>;

export interface SupervisorOptions {
  readonly program: string;
  /** The program's version (`readNatsVersion`). */
  readonly version: string;
  readonly files: HubFiles;
  /** HOST:PORT, as written in nats.conf. */
  readonly listen: string;
  readonly timers?: Timers;
  readonly now?: () => number;
  /** How long a start may take before it counts as failed. Default 20 s. */
  readonly readyTimeoutMs?: number;
  /** Pause before the first restart, doubled each time up to maxMs. Default 500 ms .. 30 s. */
  readonly backoff?: { readonly initialMs: number; readonly maxMs: number };
  /** A run this long counts as healthy: the next restart pauses the shortest time again. Default 60 s. */
  readonly stableMs?: number;
  /** SIGTERM's grace before SIGKILL, on stop and for an orphan. Default 5 s. */
  readonly stopGraceMs?: number;
  readonly commandLine?: CommandLineReader;
  readonly logger?: Logger;
}

const READY = /Server is ready/;

/** Supervises one hub's nats-server. */
export class HubSupervisor {
  private child: ChildProcess | null = null;
  private running = false;
  private restarts = 0;
  private failuresInARow = 0;
  private problem: string | null = null;
  private stopping = false;
  private restartHandle: unknown = null;
  private startedAt = 0;
  private readonly listeners = new Set<(health: ServerHealth) => void>();
  private readonly lineListeners = new Set<(line: string) => void>();
  private readonly timers: Timers;
  private readonly now: () => number;
  private readonly log: Logger;

  constructor(private readonly options: SupervisorOptions) {
    this.timers = options.timers ?? systemTimers;
    this.now = options.now ?? Date.now;
    this.log = (options.logger ?? silentLogger).child('hub-server');
  }

  /** The process's health now. */
  status(): ServerHealth {
    return {
      running: this.running,
      pid: this.running ? (this.child?.pid ?? null) : null,
      restarts: this.restarts,
      version: this.options.version,
      listen: this.options.listen,
      problem: this.problem,
    };
  }

  /** Called on every change of health; returns the function that stops listening. */
  onChange(listener: (health: ServerHealth) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called with each line nats-server writes (its leaf link's errors are said only there); returns the function that stops listening. */
  onLine(listener: (line: string) => void): () => void {
    this.lineListeners.add(listener);
    return () => this.lineListeners.delete(listener);
  }

  /** Clears an orphan, starts nats-server and resolves once it is ready or has failed (its health says why). */
  async start(): Promise<ServerHealth> {
    // Started twice (a second window, a retry from the screen): one server is enough.
    if (this.child && this.child.exitCode === null && this.child.signalCode === null) return this.status();
    this.stopping = false;
    const host = this.options.listen.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
    const refusal = versionRefusal(this.options.version, host);
    if (refusal) {
      this.setProblem(refusal);
      return this.status();
    }
    const orphan = await clearOrphan({
      pidPath: this.options.files.pidPath,
      configPath: this.options.files.configPath,
      commandLine: this.options.commandLine ?? systemCommandLine(),
      timers: this.timers,
      graceMs: this.options.stopGraceMs ?? 5000,
    });
    if (orphan.kind === 'cleared') this.log.warn('stopped a hub process left by an earlier run', { pid: orphan.pid });
    this.moveOldLayout();
    await this.launch();
    return this.status();
  }

  /** Stops nats-server (SIGTERM, SIGKILL after the grace) and cancels any pending restart. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.restartHandle !== null) this.timers.clearTimeout(this.restartHandle);
    this.restartHandle = null;
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) {
      this.running = false;
      this.emit();
      return;
    }
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const killer = this.timers.setTimeout(() => child.kill('SIGKILL'), this.options.stopGraceMs ?? 5000, { keepAlive: true });
    await exited;
    this.timers.clearTimeout(killer);
  }

  /** A hub made before accounts came in: its buckets and streams moved into them, once its nats.conf names them. */
  private moveOldLayout(): void {
    const files = this.options.files;
    if (!existsSync(files.configPath) || !/^accounts \{/m.test(readFileSync(files.configPath, 'utf8'))) return;
    const moved = moveToAccounts(files.storeDir);
    if (moved) this.log.info('moved the hub’s buckets and streams into its accounts', { store: moved.store.length, chain: moved.chain.length });
  }

  private async launch(): Promise<void> {
    const child = spawn(this.options.program, ['-c', this.options.files.configPath], { stdio: ['ignore', 'ignore', 'pipe'], windowsHide: true });
    this.child = child;
    this.startedAt = this.now();
    let output = '';
    let partial = '';
    let ready = false;
    let settle: () => void = () => undefined;
    const settled = new Promise<void>((resolve) => (settle = resolve));
    child.stderr?.on('data', (chunk: Buffer) => {
      // Keep the tail: the last lines say why a start failed.
      output = (output + chunk.toString()).slice(-4000);
      if (this.lineListeners.size > 0) {
        const lines = (partial + chunk.toString()).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) for (const listener of this.lineListeners) listener(line);
      }
      if (!ready && READY.test(output)) {
        ready = true;
        this.running = true;
        this.problem = null;
        this.emit();
        settle();
      }
    });
    const deadline = this.timers.setTimeout(
      () => {
        if (ready) return;
        this.setProblem(`The hub program did not start within ${Math.round((this.options.readyTimeoutMs ?? 20_000) / 1000)} s. ${lastLines(output)}`.trim());
        child.kill('SIGKILL');
      },
      this.options.readyTimeoutMs ?? 20_000,
      { keepAlive: true },
    );
    child.once('error', (error) => {
      this.setProblem(`The hub program could not be started: ${error.message}`);
      settle();
    });
    child.once('exit', (code, signal) => {
      this.timers.clearTimeout(deadline);
      const wasRunning = this.running;
      this.running = false;
      if (this.child === child) this.child = null;
      if (this.stopping) {
        this.emit();
        settle();
        return;
      }
      const ranFor = this.now() - this.startedAt;
      this.failuresInARow = wasRunning && ranFor >= (this.options.stableMs ?? 60_000) ? 0 : this.failuresInARow;
      const backoff = this.options.backoff ?? { initialMs: 500, maxMs: 30_000 };
      const wait = Math.min(backoff.maxMs, backoff.initialMs * 2 ** this.failuresInARow);
      this.failuresInARow += 1;
      const why = signal ? `was stopped (${signal})` : `exited (code ${code ?? '?'})`;
      this.setProblem(`The hub program ${why}; restarting it in ${Math.max(1, Math.round(wait / 1000))} s. ${lastLines(output)}`.trim());
      this.log.warn('hub process ended; restarting', { code, signal, waitMs: wait });
      this.restartHandle = this.timers.setTimeout(
        () => {
          this.restartHandle = null;
          if (this.stopping) return;
          this.restarts += 1;
          void this.launch();
        },
        wait,
        { keepAlive: true },
      );
      settle();
    });
    await settled;
  }

  private setProblem(message: string): void {
    this.problem = message;
    this.emit();
  }

  private emit(): void {
    const health = this.status();
    for (const listener of this.listeners) listener(health);
  }
}

/** nats-server's fatal line, if any, else its last line: what a support person needs. */
function lastLines(output: string): string {
  const lines = output.trim().split('\n').filter(Boolean);
  const fatal = lines.find((l) => /\[FTL\]|\[ERR\]/.test(l));
  const line = (fatal ?? lines.at(-1) ?? '').replace(/^\[\d+\]\s*\S+\s+\S+\s*/, '').trim();
  return line ? `(nats-server said: ${line.slice(0, 300)})` : '';
}
