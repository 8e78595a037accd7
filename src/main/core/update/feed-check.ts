/**
 * Reading the update feed, judging its entry, and checking a download against it. The feed's address is checked
 * against the terminal's environment before every read; a read that fails is reported once (the
 * updater also says most failures as an 'error' event); a download whose size differs from the
 * feed's is deleted. electron-updater is reached only through the structural FeedSource, so this
 * runs under plain Node.
 */
import fs from 'node:fs';
import type { Environment } from '../../../shared/ipc';
import type { Logger } from '../log';
import { feedAddressProblem } from './feed';
import { feedEntryProblem } from './feed-reads';
import { rolloutVerdict } from './rollout';
import { heldBackMessage, KEEPS_WORKING, sizeProblem, type UpdateInfoLike } from './said';
import type { UpdateStatusKeeper } from './status-keeper';
import { feedRefusedMessage } from './status-words';

/** The part of electron-updater's AppUpdater a read of the feed uses. */
export interface FeedSource {
  checkForUpdates(): Promise<{ readonly updateInfo: UpdateInfoLike; readonly downloadPromise?: Promise<unknown> | null } | null>;
}

/**
 * Why the feed address must not be read in this environment (in words), or null. Undefined
 * `feedUrl`: the build was not given one to check (tests' stand-ins), so nothing is refused.
 */
export function feedRefusal(feedUrl: string | null | undefined, environment: Environment | undefined): string | null {
  if (feedUrl === undefined) return null;
  const problem = feedAddressProblem(feedUrl ?? '', { localHttp: environment === 'training' });
  return problem === null ? null : feedRefusedMessage(problem, environment);
}

/** The download's size against the feed's, deleting a download that does not match. */
export function downloadSizeProblem(info: UpdateInfoLike, file: string): string | null {
  let size: number;
  try {
    size = fs.statSync(file).size;
  } catch {
    return null;
  }
  const problem = sizeProblem(info, size);
  if (problem !== null) fs.rmSync(file, { force: true });
  return problem;
}

export interface FeedReaderOptions {
  readonly source: FeedSource;
  readonly status: UpdateStatusKeeper;
  readonly log: Logger;
  readonly now: () => number;
  readonly feedUrl?: string | null;
  /** The version already downloaded, or null. */
  readonly downloadedVersion: () => string | null;
  /** Says a failure as the status (and counts it: a refused install is heard this way). */
  readonly reportError: (err: unknown) => void;
}

/** Reads the feed in `environment` after `prepare` (the updater's settings); resolves to its latest version, or null when it could not be read. */
export type FeedReader = (environment: Environment | undefined, prepare: () => void) => Promise<string | null>;

export function createFeedReader(options: FeedReaderOptions): FeedReader {
  const { source, status, log, now } = options;
  return async (environment, prepare) => {
    const refused = feedRefusal(options.feedUrl, environment);
    if (refused !== null) {
      if (status.get().message !== refused) log.error('update feed refused', { reason: refused });
      status.set({ state: 'error', message: refused });
      return null;
    }
    prepare();
    try {
      const result = await source.checkForUpdates();
      status.set({ lastCheckAt: now() });
      // A failed download is reported through the 'error' event; this promise would otherwise
      // reject with nobody listening (an unhandled rejection in the main process).
      void result?.downloadPromise?.catch(() => undefined);
      const latest = result?.updateInfo.version ?? null;
      // With autoDownload, electron-updater re-validates the cached download of the same version;
      // let that finish so quitAndInstall finds the installer where it expects it.
      if (latest !== null && latest === options.downloadedVersion() && result?.downloadPromise) await result.downloadPromise.catch(() => undefined);
      return latest;
    } catch (err) {
      status.set({ lastCheckAt: now() });
      // electron-updater also emits 'error' for most failures; report once.
      if (status.get().state !== 'error') options.reportError(err);
      return null;
    }
  };
}

/**
 * A release kept from this terminal before its download (electron-updater then reports "not
 * available"): by the staged rollout ('idle'), or because its feed entry is cut short ('error'),
 * with the words the status says.
 */
export interface HeldBack {
  readonly version: string;
  readonly state: 'idle' | 'error';
  readonly message: string;
}

/**
 * Judges the feed's entry for a release before anything is downloaded: whether this terminal
 * (its rollout bucket) takes it, and if not, what the status says.
 */
export function judgeRelease(info: UpdateInfoLike, bucket: number, log: Logger): { readonly inside: boolean; readonly heldBack: HeldBack | null } {
  const cut = feedEntryProblem(info);
  if (cut !== null) {
    // Its checksum could only fail: said as the feed cut short, not as a damaged download.
    log.error('update feed entry cut short or damaged', { version: info.version });
    return { inside: false, heldBack: { version: info.version, state: 'error', message: `${cut} ${KEEPS_WORKING}` } };
  }
  const verdict = rolloutVerdict(bucket, info.stagingPercentage);
  log.info('staged rollout', { version: info.version, percentage: info.stagingPercentage === undefined ? 100 : String(info.stagingPercentage), bucket, inside: verdict.inside });
  return { inside: verdict.inside, heldBack: verdict.inside ? null : { version: info.version, state: 'idle', message: heldBackMessage(info.version, verdict) } };
}
