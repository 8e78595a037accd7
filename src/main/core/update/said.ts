/**
 * The updater's words for the manager (Settings -> Updates) and doctor: what electron-updater's
 * errors, the feed's entries and the staged rollout mean, with nothing secret in them. Pure, so the
 * controller (src/main/updater.ts) and the tests share them.
 */
import path from 'node:path';
import { secrets } from '../log';
import { FEED_CUT_SHORT, FEED_TOO_LARGE } from './feed-reads';
import type { RolloutVerdict } from './rollout';

/** What electron-updater reports about a release (UpdateInfo, reduced). */
export interface UpdateInfoLike {
  readonly version: string;
  /** As the feed's YAML gave it: a number, or anything else a hand-edited feed holds (rollout.ts decides). */
  readonly stagingPercentage?: unknown;
  /** The release's files with their checksums and sizes, from the feed's latest*.yml. */
  readonly files?: readonly { readonly url: string; readonly sha512?: string; readonly size?: number }[];
  readonly sha512?: string;
  /** Where electron-updater put the download ('update-downloaded' only). */
  readonly downloadedFile?: string;
}

export const KEEPS_WORKING = 'This version keeps working.';

/** True when the feed gave a sha512 for the release (top level or every file), which electron-updater verifies the download against. */
export function hasChecksums(info: UpdateInfoLike): boolean {
  const files = info.files ?? [];
  if (files.length > 0) return files.every((f) => typeof f.sha512 === 'string' && f.sha512.length > 0);
  return typeof info.sha512 === 'string' && info.sha512.length > 0;
}

/** Plain words for an updater error, with nothing secret in them (URLs may carry tokens). */
export function describeUpdateError(err: unknown): string {
  const code = typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : '';
  const message = err instanceof Error ? err.message : String(err);
  // Said by capChannelFileReads in full; before the checksum words below, which would call a feed cut short a damaged download.
  if (code === FEED_TOO_LARGE || code === FEED_CUT_SHORT) return `${message} ${KEEPS_WORKING}`;
  if (code === 'ERR_UPDATER_INVALID_UPDATE_INFO' || code === 'ERR_UPDATER_NO_FILES_PROVIDED' || code === 'ERR_UPDATER_INVALID_VERSION') {
    return `The update feed's channel file could not be read as a release (it is cut short or damaged), so nothing was downloaded; the next check reads it again. ${KEEPS_WORKING}`;
  }
  if (code === 'ERR_UPDATER_INVALID_SIGNATURE' || /not signed by the application owner|signature/i.test(message)) {
    return `The downloaded update failed its signature check and was not installed. ${KEEPS_WORKING}`;
  }
  if (code === 'ERR_CHECKSUM_MISMATCH' || /sha512 checksum mismatch|checksum/i.test(message)) {
    return `The downloaded update was damaged (its checksum does not match the feed), so it was deleted and not installed; the next check downloads it again. ${KEEPS_WORKING}`;
  }
  if (code === 'ERR_UPDATER_CHANNEL_FILE_NOT_FOUND' || /Cannot find channel/i.test(message)) {
    return `The update feed has no release for this channel. ${KEEPS_WORKING}`;
  }
  if (statusOf(err) === 404 || /HttpError: 404|\bstatus 404\b/i.test(message)) {
    return `The update feed names a file that is not on the server (404), so nothing was downloaded; the next check tries again. ${KEEPS_WORKING}`;
  }
  if (/aborted|premature close|ECONNRESET|socket hang up/i.test(message)) {
    return `The download was cut off before the end, so nothing was installed; the next check downloads it again. ${KEEPS_WORKING}`;
  }
  if (/net::|ENOTFOUND|ECONNREFUSED|ETIMEDOUT|EAI_AGAIN|getaddrinfo|timed out|timeout/i.test(message)) {
    return `Could not reach the update server; trying again later. ${KEEPS_WORKING}`;
  }
  const first = (message.split('\n')[0] ?? '').slice(0, 160);
  return `Update failed: ${redactUrlCredentials(secrets.redactText(first))}. ${KEEPS_WORKING}`;
}

/** The HTTP status an updater error carries (builder-util-runtime's HttpError), or null. */
function statusOf(err: unknown): number | null {
  const value = typeof err === 'object' && err !== null && 'statusCode' in err ? (err as { statusCode: unknown }).statusCode : null;
  return typeof value === 'number' ? value : null;
}

/**
 * Why a finished download does not match the size the feed gave for it, or null. electron-updater
 * checks only the sha512; a feed whose size disagrees with its own file is a broken release.
 */
export function sizeProblem(info: UpdateInfoLike, actualSize: number): string | null {
  const file = info.downloadedFile;
  if (!file) return null;
  const name = path.basename(file);
  const files = info.files ?? [];
  const entry = files.find((f) => path.basename(decodeURIComponent(f.url.split('?')[0] ?? '')) === name) ?? (files.length === 1 ? files[0] : undefined);
  if (entry?.size === undefined || entry.size === actualSize) return null;
  return `The update feed says version ${info.version} is ${entry.size} bytes but the file is ${actualSize} bytes, so it was deleted and not installed; the next check tries again. ${KEEPS_WORKING}`;
}

/** Masks user:password@ and query strings in URLs, which feeds sometimes use for access keys. */
export function redactUrlCredentials(text: string): string {
  return text.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s@]+@/gi, '$1[redacted]@').replace(/(\bhttps?:\/\/[^\s?#]+)\?[^\s#]*/gi, '$1?[redacted]');
}

/** What the status says when the feed offers nothing newer. */
export function notNewerMessage(feedVersion: string, currentVersion: string): string {
  return feedVersion === currentVersion
    ? `Version ${currentVersion} is the newest on the update feed; nothing to install.`
    : `The update feed offers version ${feedVersion}, not newer than this ${currentVersion}; nothing to install (no downgrades).`;
}

/** What the status says when the staged rollout keeps a release from this terminal. */
export function heldBackMessage(version: string, verdict: RolloutVerdict): string {
  if (verdict.inside) return '';
  if (verdict.invalid !== undefined)
    return `The update feed's rollout percentage for version ${version} is not a number from 0 to 100 (stagingPercentage: ${verdict.invalid}), so the rollout is taken as stopped: it is not installed on this terminal. ${KEEPS_WORKING}`;
  return verdict.percentage <= 0
    ? `The rollout of version ${version} is stopped; it is not installed on this terminal. ${KEEPS_WORKING}`
    : `Version ${version} is being released to ${verdict.percentage} % of terminals first (staged rollout); this terminal gets it when the rollout widens. ${KEEPS_WORKING}`;
}
