/**
 * Auto-update over electron-updater: check at start and every few hours, download in the
 * background, and install only when the pure policy (core/update) says so, after re-reading the
 * feed. The updater object is injected (structurally typed), so everything here runs under plain
 * Node in tests; src/main/index.ts passes electron-updater's real `autoUpdater`.
 */
import fs from 'node:fs';
import type { Environment, UpdateStatus } from '../shared/ipc';
import { fail, ok, type Result } from '../shared/result';
import { secrets, type Logger } from './core/log';
import { every, systemTimers, type Timers } from './core/time';
import {
  capChannelFileReads,
  decideInstall,
  describeUpdateError,
  feedAddressProblem,
  feedChannel,
  feedEntryProblem,
  forgetPendingInstall,
  hasChecksums,
  heldBackMessage,
  KEEPS_WORKING,
  notePendingInstall,
  notNewerMessage,
  redactUrlCredentials,
  rolloutBucket,
  rolloutVerdict,
  saveUpdateStatus,
  sizeProblem,
  takePendingInstall,
  type InstallDecision,
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
  const listeners = new Set<(s: UpdateStatus) => void>();

  let status: UpdateStatus = { state: 'idle', currentVersion, availableVersion: null, message: null, lastCheckAt: null };
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
  /**
   * The last release kept from this terminal before its download (electron-updater then reports
   * "not available"): the staged rollout ('idle'), or a feed entry cut short ('error'), in words.
   */
  let heldBack: { version: string; state: 'idle' | 'error'; message: string } | null = null;

  const setStatus = (patch: Partial<UpdateStatus>): void => {
    const next = { ...status, ...patch };
    // The policy is asked every minute; only changes reach the screen.
    if ((Object.keys(next) as (keyof UpdateStatus)[]).every((k) => next[k] === status[k])) return;
    const saveWorthy = next.state !== status.state || next.availableVersion !== status.availableVersion || next.lastCheckAt !== status.lastCheckAt || next.state !== 'downloading';
    status = next;
    if (options.statusFile && saveWorthy) {
      try {
        saveUpdateStatus(options.statusFile, status, now());
      } catch (err) {
        log.warn('the update status could not be saved for doctor', { error: err instanceof Error ? err.message : String(err) });
      }
    }
    for (const cb of listeners) {
      try {
        cb(status);
      } catch (err) {
        log.error('an update status listener failed', { error: err instanceof Error ? err.message : String(err) });
      }
    }
  };

  const readyStatus = (message: string | null = null): Partial<UpdateStatus> => ({
    state: 'ready',
    availableVersion: downloadedVersion,
    message: message ?? `Version ${downloadedVersion ?? '?'} is ready; it installs at a quiet moment.`,
  });

  let errorsReported = 0;
  const reportError = (err: unknown): void => {
    errorsReported++;
    const text = err instanceof Error ? err.message : String(err);
    log.error('update failed', { error: redactUrlCredentials(secrets.redactText(text.slice(0, 500))) });
    setStatus({ state: 'error', message: describeUpdateError(err), availableVersion: downloadedVersion ?? status.availableVersion });
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
      if (status.state !== 'ready' && status.state !== 'downloading' && status.state !== 'installing') setStatus({ state: 'checking', message: null });
    });
    updater.on('update-available', (info) => {
      // A re-read of the feed before installing finds the version already downloaded: still ready.
      if (info.version === downloadedVersion) return;
      setStatus({ state: 'downloading', availableVersion: info.version, message: `Downloading version ${info.version}.` });
    });
    updater.on('download-progress', (progress) => {
      const pct = Number.isFinite(progress.percent) ? Math.floor(progress.percent) : null;
      if (status.state === 'downloading') setStatus({ message: `Downloading version ${status.availableVersion ?? ''}${pct === null ? '' : ` (${pct} %)`}.` });
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

  /** Reads the feed; resolves to its latest version, or null when it could not be read. */
  const readFeed = async (): Promise<string | null> => {
    if (!context) return null;
    const ctx = context();
    const refused = feedRefusal(ctx);
    if (refused !== null) {
      if (status.message !== refused) log.error('update feed refused', { reason: refused });
      setStatus({ state: 'error', message: refused });
      return null;
    }
    configure(ctx);
    try {
      const result = await updater.checkForUpdates();
      setStatus({ lastCheckAt: now() });
      // A failed download is reported through the 'error' event; this promise would otherwise
      // reject with nobody listening (an unhandled rejection in the main process).
      void result?.downloadPromise?.catch(() => undefined);
      const latest = result?.updateInfo.version ?? null;
      // With autoDownload, electron-updater re-validates the cached download of the same version;
      // let that finish so quitAndInstall finds the installer where it expects it.
      if (latest !== null && latest === downloadedVersion && result?.downloadPromise) await result.downloadPromise.catch(() => undefined);
      return latest;
    } catch (err) {
      setStatus({ lastCheckAt: now() });
      // electron-updater also emits 'error' for most failures; report once.
      if (status.state !== 'error') reportError(err);
      return null;
    }
  };

  /** Why the feed address must not be read in this environment (in words), or null. */
  const feedRefusal = (ctx: UpdateContext): string | null => {
    if (options.feedUrl === undefined) return null;
    const problem = feedAddressProblem(options.feedUrl ?? '', { localHttp: ctx.environment === 'training' });
    if (problem === null) return null;
    const where = ctx.environment === undefined ? '' : ` (${ctx.environment})`;
    return `${problem}; updates are off on this terminal${where} until the feed address is fixed. ${KEEPS_WORKING}`;
  };

  /** The download's size against the feed's, deleting a download that does not match. */
  const downloadSizeProblem = (info: UpdateInfoLike, file: string): string | null => {
    let size: number;
    try {
      size = fs.statSync(file).size;
    } catch {
      return null;
    }
    const problem = sizeProblem(info, size);
    if (problem !== null) fs.rmSync(file, { force: true });
    return problem;
  };

  const checkNow = async (): Promise<void> => {
    if (options.disabledReason || !updater.isUpdaterActive() || status.state === 'installing') return;
    await readFeed();
  };

  const considerInstall = async (managerRequested = false): Promise<InstallDecision> => {
    if (status.state === 'installing') return { install: false, reason: 'Already installing.' };
    if (!context) return { install: false, reason: 'Updates have not started yet.' };
    if (deciding) return { install: false, reason: 'Already deciding; try again in a moment.' };
    if (downloadedVersion !== null && !downloadedChecked) {
      // Without a sha512 electron-updater checks nothing, and an AppImage has no signature either.
      const reason = `The update feed gives no sha512 checksum for version ${downloadedVersion}, so it is not installed. ${KEEPS_WORKING}`;
      setStatus({ state: 'error', availableVersion: downloadedVersion, message: reason });
      return { install: false, reason };
    }
    if (!managerRequested && failedInstallOf !== null && failedInstallOf === downloadedVersion) {
      const reason = `Installing version ${failedInstallOf} failed before; a manager can try again from settings.`;
      if (status.state === 'ready') setStatus(readyStatus(`Version ${failedInstallOf} is ready. ${reason}`));
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
        if (downloadedVersion !== null && status.state === 'ready') setStatus(readyStatus(`Version ${downloadedVersion} is ready. ${early.reason}`));
        return early;
      }
      // Then re-read the feed, so a superseded or withdrawn download is not installed.
      const latest = await readFeed();
      const decision = decideInstall(inputs(latest, managerRequested), policy);
      log.info('install decision', { install: decision.install, reason: decision.reason, downloaded: downloadedVersion, latest });
      if (!decision.install) {
        if (downloadedVersion !== null && status.state === 'ready') setStatus(readyStatus(`Version ${downloadedVersion} is ready. ${decision.reason}`));
        return decision;
      }
      setStatus({ state: 'installing', availableVersion: downloadedVersion, message: `Installing version ${downloadedVersion ?? ''}: ${decision.reason}` });
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
        return { install: false, reason: status.message ?? `The update could not be installed. ${KEEPS_WORKING}` };
      }
      return decision;
    } finally {
      deciding = false;
    }
  };

  /** Says at start what became of an install that ran after the last quit. */
  const readPendingInstall = (): void => {
    if (!options.pendingInstallFile) return;
    let outcome: ReturnType<typeof takePendingInstall>;
    try {
      outcome = takePendingInstall(options.pendingInstallFile, currentVersion);
    } catch (err) {
      log.warn('could not read the note of the last install', { error: err instanceof Error ? err.message : String(err) });
      return;
    }
    if (outcome.kind === 'installed') {
      log.info('update installed', { from: outcome.from, to: currentVersion });
      setStatus({ message: `Updated from version ${outcome.from} to ${currentVersion}.` });
    } else if (outcome.kind === 'failed') {
      // Not retried by the schedule: an installer that fails every time must not quit the app every few minutes.
      failedInstallOf = outcome.to;
      log.error('the update installer did not complete after the last quit', { version: outcome.to, running: currentVersion });
      setStatus({
        state: 'error',
        availableVersion: outcome.to,
        message: `Installing version ${outcome.to} did not complete after Packdesk closed. This version (${currentVersion}) keeps working; a manager can try again from settings.`,
      });
    }
  };

  return {
    status: () => status,
    onStatus(cb) {
      listeners.add(cb);
      return () => {
        listeners.delete(cb);
      };
    },
    async installNow() {
      if (options.disabledReason) return fail('invalid', options.disabledReason, 'UPDATES_DISABLED');
      if (!updater.isUpdaterActive()) return fail('invalid', 'Updates are off in this build.', 'UPDATES_DISABLED');
      if (downloadedVersion === null) return fail('invalid', 'No update is ready to install.', 'NO_UPDATE_READY');
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
        setStatus({ state: 'disabled', message: 'Updates are off in development builds.' });
        return;
      }
      updater.logger = adapterLog;
      const bucket = rolloutBucket(ctx().terminalId);
      // electron-updater asks this before it downloads anything: the feed's entry is judged here.
      updater.isUserWithinRollout = (info) => {
        const cut = feedEntryProblem(info);
        if (cut !== null) {
          // Its checksum could only fail: said as the feed cut short, not as a damaged download.
          heldBack = { version: info.version, state: 'error', message: `${cut} ${KEEPS_WORKING}` };
          log.error('update feed entry cut short or damaged', { version: info.version });
          return false;
        }
        const verdict = rolloutVerdict(bucket, info.stagingPercentage);
        heldBack = verdict.inside ? null : { version: info.version, state: 'idle', message: heldBackMessage(info.version, verdict) };
        log.info('staged rollout', { version: info.version, percentage: info.stagingPercentage === undefined ? 100 : String(info.stagingPercentage), bucket, inside: verdict.inside });
        return verdict.inside;
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
          if (downloadedVersion !== null && (status.state === 'ready' || status.state === 'error')) void considerInstall(false);
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
