/**
 * Auto-update over electron-updater: check at start and every few hours, download in the
 * background, and install only when the pure policy (core/update) says so, after re-reading the
 * feed. This file is the glue to electron-updater (its settings, its events, its install); the
 * words, the status kept and the feed read live in core/update. The updater object is injected
 * (structurally typed), so everything here runs under plain Node in tests; src/main/index.ts
 * passes electron-updater's real `autoUpdater`.
 */
import type { Environment, UpdateStatus } from '../shared/ipc';
import { fail, ok, type Result } from '../shared/result';
import { secrets, type Logger } from './core/log';
import { every, systemTimers, type Timers } from './core/time';
import {
  capChannelFileReads,
  createFeedReader,
  createUpdateStatusKeeper,
  decideInstall,
  describeUpdateError,
  downloadingMessage,
  downloadSizeProblem,
  failedBeforeMessage,
  feedChannel,
  forgetPendingInstall,
  hasChecksums,
  INSTALL_FAILED_MESSAGE,
  installingMessage,
  noChecksumMessage,
  NOT_NOW,
  notePendingInstall,
  notNewerMessage,
  readyMessage,
  redactUrlCredentials,
  rolloutBucket,
  sizeProblem,
  type HeldBack,
  type InstallDecision,
  judgeRelease,
  lastInstall,
  type UpdateInfoLike,
  updateSupport,
} from './core/update';

// The words live in core/update (said.ts); these names are the controller's to its callers and tests.
export { describeUpdateError, feedChannel, hasChecksums, notNewerMessage, redactUrlCredentials, sizeProblem, updateSupport, type UpdateInfoLike };


/** electron-updater's logger interface. */
export interface UpdaterLogger {
  info(message?: unknown): void;
  warn(message?: unknown): void;
  error(message?: unknown): void;
  debug?(message: string): void;
}

/** The part of electron-updater's AppUpdater this controller drives. */
export interface AppUpdaterLike {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  allowDowngrade: boolean;
  allowPrerelease: boolean;
  channel: string | null;
  logger: UpdaterLogger | null;
  /** Replaced by the controller: the rollout decision comes from the terminal id (method syntax so electron-updater's wider UpdateInfo fits). */
  isUserWithinRollout(info: UpdateInfoLike): boolean | Promise<boolean>;
  isUpdaterActive(): boolean;
  checkForUpdates(): Promise<{ readonly updateInfo: UpdateInfoLike; readonly downloadPromise?: Promise<unknown> | null } | null>;
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void;
  on(event: 'error', listener: (error: Error, message?: string) => void): unknown;
  on(event: 'checking-for-update', listener: () => void): unknown;
  on(event: 'update-available', listener: (info: UpdateInfoLike) => void): unknown;
  on(event: 'update-not-available', listener: (info: UpdateInfoLike) => void): unknown;
  on(event: 'update-downloaded', listener: (info: UpdateInfoLike) => void): unknown;
  on(event: 'download-progress', listener: (progress: { readonly percent: number }) => void): unknown;
}

/** What the controller reads, fresh, each time it decides. */
export interface UpdateContext {
  /** Stable per-terminal id: the rollout bucket comes from it. */
  readonly terminalId: string;
  readonly channel: 'stable' | 'beta';
  readonly quietHour: number | null;
  readonly sendingCount: number;
  /** Taps committed and waiting to be sent: the schedule installs after they went out. */
  readonly waitingCount?: number;
  readonly lastTapAt: number | null;
  /** Training accepts a practice feed over http on this computer; nothing else does. */
  readonly environment?: Environment;
}

export type { Timers } from './core/time';

export interface UpdateControllerOptions {
  readonly updater: AppUpdaterLike;
  readonly currentVersion: string;
  readonly log: Logger;
  readonly now?: () => number;
  readonly timers?: Timers;
  /** First check after start; default 30 s, so start-up is not slowed. */
  readonly firstCheckDelayMs?: number;
  /** Feed check period; default 4 h. */
  readonly checkEveryMs?: number;
  /** How often a ready update re-asks the policy; default 1 min. */
  readonly decideEveryMs?: number;
  readonly tapQuietMs?: number;
  readonly hourOf?: (epochMs: number) => number;
  /** Runs right before quitAndInstall (stops the engine so SQLite closes cleanly). */
  readonly beforeInstall?: () => Promise<void>;
  /** Runs when quitAndInstall refused after beforeInstall (restarts the engine: this version keeps working). */
  readonly afterFailedInstall?: () => Promise<void>;
  /**
   * Where the note of an install about to run is kept (see core/update/pending-install), so the
   * next start can say whether the installer, which runs after Packdesk quit, worked.
   */
  readonly pendingInstallFile?: string;
  /** Why updates are off for this installation (see updateSupport); the updater is then never touched. */
  readonly disabledReason?: string | null;
  /**
   * The feed address electron-updater reads (app-update.yml's url). Checked before every read of
   * the feed against the terminal's environment: https, or http on 127.0.0.1 in training only.
   */
  readonly feedUrl?: string | null;
  /** Where the status is saved for `packdesk doctor` (core/update/status-file). */
  readonly statusFile?: string;
}

/** The controller the host and the shell use (matches the host's UpdateController). */
export interface ElectronUpdateController {
  status(): UpdateStatus;
  installNow(): Promise<Result<true>>;
  onStatus(cb: (s: UpdateStatus) => void): () => void;
  /** Configures the updater and starts the schedule; `context` is read at every decision. */
  start(context: () => UpdateContext): void;
  /** Stops the schedule. */
  stop(): void;
  /** Checks the feed now (also used by the schedule). */
  checkNow(): Promise<void>;
  /** Asks the policy now whether to install a ready update (also used by the schedule). */
  considerInstall(managerRequested?: boolean): Promise<InstallDecision>;
}


/** Creates the update controller around an electron-updater instance. */
export function createUpdateController(options: UpdateControllerOptions): ElectronUpdateController {
  const { updater, currentVersion } = options;
  const log = options.log.child('update');
  const now = options.now ?? Date.now;
  const timers = options.timers ?? systemTimers;
  const kept = createUpdateStatusKeeper({ currentVersion, log, now, ...(options.statusFile ? { statusFile: options.statusFile } : {}) });
  const setStatus = kept.set;
  let downloadedVersion: string | null = null;
  /** Whether the feed gave a sha512 for every file of the downloaded release (what electron-updater checks it against). */
  let downloadedChecked = false;
  let context: (() => UpdateContext) | null = null;
  // Stops the first-check timer and the repeating checks.
  let stops: (() => void)[] = [];
  let deciding = false;
  /** A version whose install electron-updater refused: not retried by the schedule (every minute). */
  let failedInstallOf: string | null = null;
  let started = false;
  let wired = false;
  /** The last release kept from this terminal before its download, with what the status says. */
  let heldBack: HeldBack | null = null;

  const readyStatus = (message: string | null = null): Partial<UpdateStatus> => ({
    state: 'ready',
    availableVersion: downloadedVersion,
    message: message ?? readyMessage(downloadedVersion),
  });

  let errorsReported = 0;
  const reportError = (err: unknown): void => {
    errorsReported++;
    const text = err instanceof Error ? err.message : String(err);
    log.error('update failed', { error: redactUrlCredentials(secrets.redactText(text.slice(0, 500))) });
    setStatus({ state: 'error', message: describeUpdateError(err), availableVersion: downloadedVersion ?? kept.get().availableVersion });
  };

  const adapterLog: UpdaterLogger = {
    info: (m) => log.info(redactUrlCredentials(String(m))),
    warn: (m) => log.warn(redactUrlCredentials(String(m))),
    error: (m) => log.error(redactUrlCredentials(String(m))),
    debug: (m) => log.debug(redactUrlCredentials(String(m))),
  };

  const wire = (): void => {
    if (wired) return;
    wired = true;
    updater.on('checking-for-update', () => {
      const { state } = kept.get();
      if (state !== 'ready' && state !== 'downloading' && state !== 'installing') setStatus({ state: 'checking', message: null });
    });
    updater.on('update-available', (info) => {
      // A re-read of the feed before installing finds the version already downloaded: still ready.
      if (info.version === downloadedVersion) return;
      setStatus({ state: 'downloading', availableVersion: info.version, message: downloadingMessage(info.version) });
    });
    updater.on('download-progress', (progress) => {
      const pct = Number.isFinite(progress.percent) ? Math.floor(progress.percent) : null;
      const current = kept.get();
      if (current.state === 'downloading') setStatus({ message: downloadingMessage(current.availableVersion ?? '', pct) });
    });
    updater.on('update-downloaded', (info) => {
      const refused = info.downloadedFile ? downloadSizeProblem(info, info.downloadedFile) : null;
      if (refused !== null) {
        log.error('update refused: size differs from the feed', { version: info.version });
        setStatus({ state: 'error', availableVersion: info.version, message: refused });
        return;
      }
      downloadedVersion = info.version;
      downloadedChecked = hasChecksums(info);
      log.info('update downloaded', { version: info.version });
      setStatus(readyStatus());
      void considerInstall(false);
    });
    updater.on('update-not-available', (info) => {
      if (heldBack !== null && heldBack.version === info.version) {
        // The rollout was narrowed or stopped after this terminal downloaded the release: it is not
        // installed (electron-updater keeps the file; a wider rollout later installs it from there).
        if (downloadedVersion === info.version) {
          log.info('staged rollout no longer includes this terminal; the download waits', { version: info.version });
          downloadedVersion = null;
        }
        if (downloadedVersion === null) {
          setStatus({ state: heldBack.state, availableVersion: heldBack.state === 'error' ? info.version : null, message: heldBack.message });
          return;
        }
      }
      if (downloadedVersion !== null) setStatus(readyStatus());
      else setStatus({ state: 'idle', availableVersion: null, message: notNewerMessage(info.version, currentVersion) });
    });
    updater.on('error', (err) => reportError(err));
  };

  const configure = (ctx: UpdateContext): void => {
    updater.autoDownload = true;
    // Packdesk owns the moment of installation: never on a quit the packer did not plan.
    updater.autoInstallOnAppQuit = false;
    updater.allowPrerelease = false;
    const wanted = feedChannel(ctx.channel);
    // Setting `channel` switches allowDowngrade on inside electron-updater, so it is reset after.
    if (updater.channel !== wanted) updater.channel = wanted;
    updater.allowDowngrade = false;
  };

  const feedReader = createFeedReader({
    source: updater,
    status: kept,
    log,
    now,
    ...(options.feedUrl === undefined ? {} : { feedUrl: options.feedUrl }),
    downloadedVersion: () => downloadedVersion,
    reportError,
  });

  /** Reads the feed; resolves to its latest version, or null when it could not be read. */
  const readFeed = async (): Promise<string | null> => {
    if (!context) return null;
    const ctx = context();
    return feedReader(ctx.environment, () => configure(ctx));
  };

  const checkNow = async (): Promise<void> => {
    if (options.disabledReason || !updater.isUpdaterActive() || kept.get().state === 'installing') return;
    await readFeed();
  };

  const considerInstall = async (managerRequested = false): Promise<InstallDecision> => {
    if (kept.get().state === 'installing') return { install: false, reason: NOT_NOW.installing };
    if (!context) return { install: false, reason: NOT_NOW.notStarted };
    if (deciding) return { install: false, reason: NOT_NOW.deciding };
    if (downloadedVersion !== null && !downloadedChecked) {
      // Without a sha512 electron-updater checks nothing, and an AppImage has no signature either.
      const reason = noChecksumMessage(downloadedVersion);
      setStatus({ state: 'error', availableVersion: downloadedVersion, message: reason });
      return { install: false, reason };
    }
    if (!managerRequested && failedInstallOf !== null && failedInstallOf === downloadedVersion) {
      const reason = failedBeforeMessage(failedInstallOf);
      if (kept.get().state === 'ready') setStatus(readyStatus(readyMessage(failedInstallOf, reason)));
      return { install: false, reason };
    }
    deciding = true;
    try {
      const inputs = (latestFeedVersion: string | null, manager: boolean) => {
        const ctx = context!();
        return {
          now: now(),
          sendingCount: ctx.sendingCount,
          waitingCount: ctx.waitingCount ?? 0,
          lastTapAt: ctx.lastTapAt,
          quietHour: ctx.quietHour,
          managerRequested: manager,
          downloadedVersion,
          currentVersion,
          latestFeedVersion,
        };
      };
      const policy = { ...(options.tapQuietMs === undefined ? {} : { tapQuietMs: options.tapQuietMs }), ...(options.hourOf ? { hourOf: options.hourOf } : {}) };
      // First without the network: most of the time the answer is "not now".
      const early = decideInstall(inputs(downloadedVersion, managerRequested), policy);
      if (!early.install) {
        if (downloadedVersion !== null && kept.get().state === 'ready') setStatus(readyStatus(readyMessage(downloadedVersion, early.reason)));
        return early;
      }
      // Then re-read the feed, so a superseded or withdrawn download is not installed.
      const latest = await readFeed();
      const decision = decideInstall(inputs(latest, managerRequested), policy);
      log.info('install decision', { install: decision.install, reason: decision.reason, downloaded: downloadedVersion, latest });
      if (!decision.install) {
        if (downloadedVersion !== null && kept.get().state === 'ready') setStatus(readyStatus(readyMessage(downloadedVersion, decision.reason)));
        return decision;
      }
      setStatus({ state: 'installing', availableVersion: downloadedVersion, message: installingMessage(downloadedVersion, decision.reason) });
      try {
        await options.beforeInstall?.();
      } catch (err) {
        log.error('preparing to install failed; installing anyway', { error: err instanceof Error ? err.message : String(err) });
      }
      // electron-updater reports a refused install (no installer on disk, spawn failure) as an
      // 'error' event during the call, and then does not quit.
      const errorsBefore = errorsReported;
      if (options.pendingInstallFile && downloadedVersion !== null) {
        try {
          notePendingInstall(options.pendingInstallFile, { from: currentVersion, to: downloadedVersion, at: now() });
        } catch (err) {
          log.warn('could not note the install about to run', { error: err instanceof Error ? err.message : String(err) });
        }
      }
      try {
        // Silent install, and start Packdesk again afterwards: the terminal comes back by itself.
        updater.quitAndInstall(true, true);
      } catch (err) {
        reportError(err);
      }
      if (errorsReported > errorsBefore) {
        if (options.pendingInstallFile) forgetPendingInstall(options.pendingInstallFile);
        failedInstallOf = downloadedVersion;
        log.error('the update could not be installed; carrying on with this version', { version: downloadedVersion });
        try {
          await options.afterFailedInstall?.();
        } catch (err) {
          log.error('restarting after a failed install failed', { error: err instanceof Error ? err.message : String(err) });
        }
        return { install: false, reason: kept.get().message ?? INSTALL_FAILED_MESSAGE };
      }
      return decision;
    } finally {
      deciding = false;
    }
  };

  /** Says at start what became of an install that ran after the last quit. */
  const readPendingInstall = (): void => {
    if (!options.pendingInstallFile) return;
    const last = lastInstall(options.pendingInstallFile, currentVersion, log);
    if (last.failedOf !== null) failedInstallOf = last.failedOf;
    if (last.said !== null) setStatus(last.said);
  };

  return {
    status: kept.get,
    onStatus: kept.onStatus,
    async installNow() {
      if (options.disabledReason) return fail('invalid', options.disabledReason, 'UPDATES_DISABLED');
      if (!updater.isUpdaterActive()) return fail('invalid', NOT_NOW.offInBuild, 'UPDATES_DISABLED');
      if (downloadedVersion === null) return fail('invalid', NOT_NOW.nothingReady, 'NO_UPDATE_READY');
      const decision = await considerInstall(true);
      return decision.install ? ok(true) : fail('invalid', decision.reason, 'UPDATE_NOT_NOW');
    },
    start(ctx) {
      context = ctx;
      if (started) return;
      started = true;
      readPendingInstall();
      if (options.disabledReason) {
        // Never checked, so nothing is downloaded; switched off anyway in case anything else calls it.
        updater.autoDownload = false;
        updater.autoInstallOnAppQuit = false;
        setStatus({ state: 'disabled', message: options.disabledReason });
        return;
      }
      if (!updater.isUpdaterActive()) {
        // Unpackaged runs (npm run dev) have no app-update.yml: nothing to check.
        setStatus({ state: 'disabled', message: NOT_NOW.offInDevelopment });
        return;
      }
      updater.logger = adapterLog;
      const bucket = rolloutBucket(ctx().terminalId);
      // electron-updater asks this before it downloads anything: the feed's entry is judged here.
      updater.isUserWithinRollout = (info) => {
        const judged = judgeRelease(info, bucket, log);
        heldBack = judged.heldBack;
        return judged.inside;
      };
      // A channel file is read whole by electron-updater: never more than 1 MB of one.
      capChannelFileReads(updater);
      configure(ctx());
      wire();
      const first = timers.setTimeout(() => void checkNow(), options.firstCheckDelayMs ?? 30_000);
      stops = [
        () => timers.clearTimeout(first),
        every(timers, options.checkEveryMs ?? 4 * 60 * 60_000, () => void checkNow()),
        every(timers, options.decideEveryMs ?? 60_000, () => {
          // 'error' too: a failed check must not strand a good download (the policy re-reads the feed).
          if (downloadedVersion !== null && (kept.get().state === 'ready' || kept.get().state === 'error')) void considerInstall(false);
        }),
      ];
    },
    stop() {
      for (const stopOne of stops) stopOne();
      stops = [];
      started = false;
    },
    checkNow,
    considerInstall,
  };
}
