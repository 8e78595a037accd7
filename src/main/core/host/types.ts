/** The host's public shapes: what a shell passes in (HostOptions) and gets back (AppHost). */
import type { Sandbox, SandboxOptions } from '../../../../sandbox';
import type { AppInfo, Environment, EventName, Reply, Settings, UpdateStatus } from '../../../shared/ipc';
import type { Result } from '../../../shared/result';
import type { CredentialVault } from '../auth';
import type { Engine, ServiceEngineOptions } from '../engine';
import type { Logger } from '../log';

/** The OS's online/offline signal, when the shell has one (one definition, in sync). */
export type { OnlineSignal } from '../sync/connectivity';
import type { OnlineSignal } from '../sync/connectivity';

/** What the Electron glue's updater offers the host. */
export interface UpdateController {
  status(): UpdateStatus;
  installNow(): Promise<Result<true>>;
  onStatus(cb: (s: UpdateStatus) => void): () => void;
}

/** The parts of the engine's options a host may tune (tests). */
export type EngineTuning = Partial<
  Pick<
    ServiceEngineOptions,
    'pollMs' | 'stopGraceMs' | 'backoff' | 'requestTimeoutMs' | 'probeTimeoutMs' | 'backlogThresholdMs' | 'random' | 'timers' | 'intakeMinIntervalMs'
  >
>;

export interface HostOptions {
  shell: 'electron' | 'web';
  dataDir: string;
  version: string;
  /** The vault per environment; default: training -> MemoryVault with the training credentials, else KeytarVault. */
  vaultFor?: (env: Environment) => CredentialVault;
  online?: OnlineSignal;
  /** Absent: `updates.status` answers state 'disabled'. */
  updates?: UpdateController;
  /** Absent (web): `kiosk.leave` answers "not in kiosk mode". */
  kiosk?: { leave(): void };
  /** Training mode's in-app sandbox (port 0 by default). */
  sandboxOptions?: SandboxOptions;
  /** Laid over settings.json at start (tests: `{ undoWindowMs: 1500 }`; the harness forces training). */
  settingsOverride?: Partial<Settings>;
  /** Also receives every log line (already redacted); the log files always do. */
  log?: Logger;
  now?: () => number;
  /** Engine fine-tuning for tests (poll interval, backoff, request deadlines). */
  engineOptions?: EngineTuning;
  /** Log file rotation; default 1 MiB x 5 files. */
  logFiles?: { maxBytes?: number; keep?: number };
}

export interface AppHost {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Validates the command name and payload (COMMANDS), runs it, validates the result; never throws. */
  handle(command: unknown, payload: unknown): Promise<Reply<unknown>>;
  subscribe(listener: (event: EventName, body: unknown) => void): () => void;
  info(): AppInfo;
  settings(): Settings;
  readonly logDir: string;
  /** The host's redacting logger (log files, plus `options.log`), for the shell's own lines. */
  readonly log: Logger;
  /** The training sandbox, when in training mode. */
  readonly sandbox: Sandbox | null;
  engine(): Engine | null;
}
