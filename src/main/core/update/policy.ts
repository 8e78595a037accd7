/**
 * When a downloaded update may be installed. Installing restarts the app, so it must never cut a
 * request that is on the wire (its answer would be lost and the tap become "maybe applied") and
 * should not interrupt a packer in the middle of an order.
 */
import { compareVersions } from './version';

/** A tap more recent than this means a packer is probably mid-order. */
export const DEFAULT_TAP_QUIET_MS = 5 * 60_000;

export interface InstallInputs {
  /** Epoch ms. */
  readonly now: number;
  /** Outbox entries in `sending` right now. */
  readonly sendingCount: number;
  /**
   * Taps committed and waiting to be sent (kept in the data file across the restart). The schedule
   * waits for them; a manager's "install now" does not (they are sent after the restart).
   */
  readonly waitingCount?: number;
  /** Epoch ms of the last tap on this terminal, or null when none yet. */
  readonly lastTapAt: number | null;
  /** The configured quiet hour (0-23, local time), or null for none. */
  readonly quietHour: number | null;
  /** The manager pressed "install now" (PIN checked by the caller). */
  readonly managerRequested: boolean;
  /** The version downloaded and ready to install, or null. */
  readonly downloadedVersion: string | null;
  /** The running version. */
  readonly currentVersion: string;
  /** The feed's latest version as just re-read, or null when the feed could not be read. */
  readonly latestFeedVersion: string | null;
}

export interface InstallOptions {
  /** How long after a tap the terminal counts as busy. */
  readonly tapQuietMs?: number;
  /** The local hour (0-23) of an instant; injected so tests do not depend on the machine's time zone. */
  readonly hourOf?: (epochMs: number) => number;
}

export interface InstallDecision {
  readonly install: boolean;
  /** Plain words for the log and the settings screen. */
  readonly reason: string;
}

const localHour = (ms: number): number => new Date(ms).getHours();

/** Decides whether to install the downloaded update now; pure, so every rule is tested. */
export function decideInstall(input: InstallInputs, options: InstallOptions = {}): InstallDecision {
  const no = (reason: string): InstallDecision => ({ install: false, reason });
  const tapQuietMs = options.tapQuietMs ?? DEFAULT_TAP_QUIET_MS;
  const hourOf = options.hourOf ?? localHour;

  // Version rules first: they hold whoever asks and whatever the time.
  if (input.downloadedVersion === null) return no('No update has been downloaded.');
  const vsCurrent = compareVersions(input.downloadedVersion, input.currentVersion);
  if (vsCurrent === null) return no(`Version ${input.downloadedVersion} cannot be compared with ${input.currentVersion}.`);
  if (vsCurrent <= 0) return no(`Version ${input.downloadedVersion} is not newer than the running ${input.currentVersion}; no downgrades.`);
  if (input.latestFeedVersion === null) return no('The update feed could not be checked again; trying later.');
  const vsFeed = compareVersions(input.downloadedVersion, input.latestFeedVersion);
  if (vsFeed === null) return no(`The feed's version ${input.latestFeedVersion} cannot be read.`);
  if (vsFeed < 0) return no(`Version ${input.downloadedVersion} was superseded by ${input.latestFeedVersion}; downloading that instead.`);
  // The feed went back below what we downloaded: the release was withdrawn.
  if (vsFeed > 0) return no(`Version ${input.downloadedVersion} was withdrawn from the feed (latest is ${input.latestFeedVersion}).`);

  // Never while a request is on the wire, not even for the manager.
  if (input.sendingCount > 0) {
    return no(`${input.sendingCount} ${input.sendingCount === 1 ? 'tap is' : 'taps are'} being sent; installing after that.`);
  }
  if (input.managerRequested) return { install: true, reason: 'The manager asked to install now.' };
  // A tap waiting to be sent is part of an order in hand: the schedule lets it go out first.
  const waiting = input.waitingCount ?? 0;
  if (waiting > 0) return no(`${waiting} ${waiting === 1 ? 'tap is' : 'taps are'} waiting to be sent; installing after that.`);
  if (input.quietHour !== null && hourOf(input.now) === input.quietHour) {
    return { install: true, reason: `Quiet hour (${String(input.quietHour).padStart(2, '0')}:00) and nothing is being sent.` };
  }
  // Absolute distance: a tap stamped in the "future" after the clock was set back is stale, not
  // a reason to block updates until the clock catches up.
  if (input.lastTapAt !== null && Math.abs(input.now - input.lastTapAt) < tapQuietMs) {
    const minutes = Math.ceil(tapQuietMs / 60_000);
    return no(`A packer tapped in the last ${minutes} minutes; waiting for a quiet moment.`);
  }
  return { install: true, reason: 'Nothing is being sent and nobody has tapped for a while.' };
}
