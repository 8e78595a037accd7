/** The host's public shapes: what a shell passes in (HostOptions) and gets back (AppHost). */
import type { AppInfo, Environment, EventName, Reply, Settings, UpdateStatus } from '../../../shared/ipc';
import type { Result } from '../../../shared/result';
import type { ClientCredentials, CredentialVault } from '../auth';
import type { Engine, ServiceEngineOptions } from '../engine';
import type { Logger } from '../log';
import type { PrintPort } from '../print';
import type { HubLink } from './hub';
import type { SaveFilePort } from './shift-export';

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
    | 'pollMs'
    | 'stopGraceMs'
    | 'backoff'
    | 'requestTimeoutMs'
    | 'probeTimeoutMs'
    | 'backlogThresholdMs'
    | 'random'
    | 'timers'
    | 'intakeMinIntervalMs'
    | 'finishedKeepMs'
    | 'retireFirstMs'
  >
>;

/**
 * Training mode's order service and token server on 127.0.0.1 (the sandbox). The shells start it
 * and hand it over, as they hand over `vaultFor`: the engine's code never loads the sandbox.
 */
export interface TrainingService {
  /** `{auth_url}` and `{base_url}` at once. */
  readonly url: string;
  /** The practice store's service provider id, which intake polls `changes` for. */
  readonly serviceProviderId: string;
  /** The seeded orders, which fill the practice queue. */
  orders(): readonly { readonly id: string }[];
  close(): Promise<void>;
}

export interface HostOptions<S extends TrainingService = TrainingService> {
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
  /** The shell's printing (Electron: webContents.print). Absent (web): the page uses the browser's print dialog. */
  printing?: PrintPort;
  /** The shell's save dialog (Electron). Absent (web): the page downloads the file it is handed. */
  files?: SaveFilePort;
  /** Starts training mode's service when training begins; absent, training mode cannot start. */
  startTraining?: (log: Logger) => Promise<S>;
  /** The client id and secret the training service accepts (default training / training-secret). */
  trainingCredentials?: ClientCredentials;
  /** Laid over settings.json at start (tests: `{ undoWindowMs: 1500 }`; the harness forces training). */
  settingsOverride?: Partial<Settings>;
  /** Also receives every log line (already redacted); the log files always do. */
  log?: Logger;
  now?: () => number;
  /** Engine fine-tuning for tests (poll interval, backoff, request deadlines). */
  engineOptions?: EngineTuning;
  /** The installed app's resources folder (Electron's process.resourcesPath): where the installer put nats-server. */
  resourcesPath?: string;
  /** Tests: how soon a silent store hub counts as away, and the intake lease's timing. */
  hubTuning?: { awayAfterMs?: number; lease?: { leaseMs?: number; renewMs?: number } };
  /** Log file rotation; default 1 MiB x 5 files. */
  logFiles?: { maxBytes?: number; keep?: number };
}

export interface AppHost<S extends TrainingService = TrainingService> {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Validates the command name and payload (COMMANDS), runs it, validates the result; never throws. */
  handle(command: unknown, payload: unknown): Promise<Reply<unknown>>;
  subscribe(listener: (event: EventName, body: unknown) => void): () => void;
  /**
   * Lists the queue's rows now, for the next orders.head: a shell calls it when a page is about to
   * ask (the harness, when a page's socket connects), so the listing runs while the page loads.
   */
  prepareQueue(): void;
  info(): AppInfo;
  settings(): Settings;
  readonly logDir: string;
  /** The host's redacting logger (log files, plus `options.log`), for the shell's own lines. */
  readonly log: Logger;
  /** The training service (the sandbox), when in training mode. */
  readonly sandbox: S | null;
  engine(): Engine | null;
  /** The store hub as the host runs it (the web harness's `--counters` and tests make and join hubs with it). */
  readonly hub: Pick<HubLink, 'status' | 'create' | 'join' | 'joinCode' | 'leave'>;
}
