/**
 * The sync status as the status bar, the CLI and the logs show it: the counts of the queue, and the
 * one sentence that matters most now. A pure function of what the facade gathers (engine.ts), so
 * the order in which problems outrank each other can be read, and tested, in one place.
 */
import type { SyncStatus, Words } from '../../../shared/ipc';
import type { Problem } from '../../../shared/result';
import { TOKEN_SERVER_FAULT, TOKEN_UNUSABLE } from '../api/token-source';
import { CERTIFICATE_UNTRUSTED } from '../api/http';
import { CLOCK_SKEW_LIMIT_MS } from '../auth/expiry';
import type { OutboxCounts } from '../db';

/** Everything the status is made from, read by the facade at one moment. */
export interface StatusInputs {
  readonly counts: Pick<OutboxCounts, 'waiting' | 'failed' | 'mayBeApplied' | 'oldestWaitingAt'>;
  readonly now: number;
  /** How long a tap may wait before the status says to check the connection, ms. */
  readonly backlogThresholdMs: number;
  readonly connectivity: SyncStatus['connectivity'];
  readonly lastSuccessAt: number | null;
  /** What the token manager knows of the credentials (undefined when nobody tells the engine). */
  readonly credentialsKnown: 'unknown' | 'ok' | 'missing' | 'rejected' | undefined;
  /** Whether the sync engine saw the service reject the credentials. */
  readonly credentialsSync: 'ok' | 'rejected';
  /** The token manager's last problem getting a token, or null. */
  readonly tokenProblem: Problem | null;
  /** The order service's certificate refusal on its last call, in words, or null. */
  readonly serviceCertificate: string | null;
  /** This terminal's clock minus the order service's, ms, or null while unknown. */
  readonly clockSkewMs: number | null;
  /** The token server's clock less the order service's when they disagree, ms, or null. */
  readonly clockDisagreementMs: number | null;
  /** Why the data file was found damaged since it was opened, or null. */
  readonly damage: string | null;
  /** The words of a damaged file replaced at opening, and what its taps came to, or null. */
  readonly storeNotice: string | null;
  readonly storeSalvage: Words['values'] | null;
  /** The data file refused the writes of taking the sender lock or recovering, or null. */
  readonly startStorage: Problem | null;
  /** The sync engine's problem in words, and whether it is the data file's (a full disk). */
  readonly syncProblem: string | null;
  readonly syncStorage: boolean;
  /** Another process sends this terminal's queue: what this one says of it, or null. */
  readonly lockNotice: string | null;
}

/** The status from its inputs; the first problem of the list below that holds is the one said. */
export function syncStatus(i: StatusInputs): SyncStatus {
  const { counts, backlogThresholdMs } = i;
  const backlogAlarm = backlogDueIn(counts, i.now, backlogThresholdMs) === 0;
  const credentials: SyncStatus['credentials'] =
    i.credentialsKnown === 'missing' ? 'missing' : i.credentialsSync === 'rejected' || i.credentialsKnown === 'rejected' ? 'rejected' : 'ok';
  const plainFailed = counts.failed - counts.mayBeApplied;
  const tokenProblem = i.tokenProblem;
  // Whole seconds: each token measures it anew, network delay included, and the status is only
  // sent when it changes.
  const clockSkewMs = i.clockSkewMs === null ? null : Math.round(i.clockSkewMs / 1000) * 1000;
  // Whole minutes: both readings move by a second or so with each answer.
  const disagreementMs = i.clockDisagreementMs === null ? null : Math.round(i.clockDisagreementMs / 60_000) * 60_000;
  // The English sentence (CLI, logs, fallback) and the same by code and values for the renderer.
  let message: string | null = null;
  let notice: Words | null = null;
  const say = (text: string, code: string, values?: Words['values']): void => {
    message = text;
    notice = values === undefined ? { code } : { code, values };
  };
  if (i.damage) say(damagedWords(i.damage), 'STORE_DAMAGED');
  else if (i.storeNotice) say(i.storeNotice, 'STORE_REPLACED', i.storeSalvage ?? undefined);
  else if (i.startStorage) say(i.startStorage.message, 'STORAGE');
  else if (i.syncProblem) say(i.syncProblem, i.syncStorage ? 'STORAGE' : 'SYNC_PROBLEM');
  else if (i.lockNotice) say(i.lockNotice, 'LOCK_HELD');
  // A certificate this computer refuses: the network is fine, and a person must look at the address or the certificate.
  else if (tokenProblem?.code === CERTIFICATE_UNTRUSTED)
    say(`${tokenProblem.message}. ${kept(counts.waiting)}`, 'CERTIFICATE', { count: counts.waiting });
  else if (i.serviceCertificate !== null)
    say(`${i.serviceCertificate}. ${kept(counts.waiting)}`, 'SERVICE_CERTIFICATE', { count: counts.waiting });
  // The token server answered but gave nothing usable: say so, rather than "no connection" or "rejected credentials".
  else if (tokenProblem && (tokenProblem.code === TOKEN_SERVER_FAULT || tokenProblem.code === TOKEN_UNUSABLE))
    say(`${tokenProblem.message}. ${kept(counts.waiting)}`, 'TOKEN_SERVER', { count: counts.waiting });
  else if (credentials === 'missing')
    say(
      `No credentials are saved for the order service. ${kept(counts.waiting)}; a manager must enter the client id and secret in Settings`,
      'CREDENTIALS_MISSING',
      { count: counts.waiting },
    );
  else if (credentials === 'rejected')
    say(
      `The order service rejected this terminal's credentials. ${kept(counts.waiting)}; a manager must enter new credentials in Settings`,
      'CREDENTIALS_REJECTED',
      { count: counts.waiting },
    );
  else if (i.connectivity === 'offline')
    say(`No connection to the order service. ${kept(counts.waiting)} and will be sent when it is back`, 'OFFLINE', {
      count: counts.waiting,
    });
  else if (counts.mayBeApplied > 0)
    say(
      `${counts.mayBeApplied} tap(s) may already have been applied by the service: check the order before retrying or discarding`,
      'TO_CHECK',
      { count: counts.mayBeApplied },
    );
  else if (plainFailed > 0)
    say(`${plainFailed} tap(s) were refused by the service and hold their orders: retry or discard them`, 'REFUSED', {
      count: plainFailed,
    });
  else if (backlogAlarm)
    say(`A tap has waited more than ${spanWords(backlogThresholdMs)} to be sent: check the connection`, 'BACKLOG', {
      thresholdMs: backlogThresholdMs,
    });
  else if (disagreementMs !== null)
    say(
      `The token server's clock and the order service's disagree by ${spanWords(Math.abs(disagreementMs))}; new orders are read on both clocks, so none is missed. Tell support`,
      'CLOCKS_DISAGREE',
      { offsetMs: Math.abs(disagreementMs) },
    );
  else if (clockSkewMs !== null && Math.abs(clockSkewMs) > CLOCK_SKEW_LIMIT_MS) {
    const ahead = clockSkewMs > 0;
    say(
      `This computer's clock is ${spanWords(Math.abs(clockSkewMs))} ${ahead ? 'ahead of' : 'behind'} the order service's; countdowns follow the service's clock. Have the computer's clock set right`,
      ahead ? 'CLOCK_AHEAD' : 'CLOCK_BEHIND',
      { offsetMs: Math.abs(clockSkewMs) },
    );
  }
  return {
    connectivity: i.connectivity,
    waiting: counts.waiting,
    failed: plainFailed,
    toCheck: counts.mayBeApplied,
    oldestWaitingAt: counts.oldestWaitingAt,
    lastSuccessAt: i.lastSuccessAt,
    credentials,
    backlogAlarm,
    clockSkewMs,
    message,
    notice,
  };
}

/**
 * How long until the oldest waiting tap crosses the backlog threshold, ms: 0 once it has, null
 * when nothing waits. The facade re-reads the status then, so the alarm rises on time.
 */
export function backlogDueIn(counts: Pick<OutboxCounts, 'oldestWaitingAt'>, now: number, thresholdMs: number): number | null {
  if (counts.oldestWaitingAt === null) return null;
  return Math.max(0, counts.oldestWaitingAt + thresholdMs - now);
}

/** The status of a damaged file whose counts cannot be read: what can still be said. */
export function damagedStatus(i: Pick<StatusInputs, 'connectivity' | 'lastSuccessAt' | 'damage'>): SyncStatus {
  return {
    connectivity: i.connectivity,
    waiting: 0,
    failed: 0,
    toCheck: 0,
    oldestWaitingAt: null,
    lastSuccessAt: i.lastSuccessAt,
    credentials: 'ok',
    backlogAlarm: false,
    clockSkewMs: null,
    message: damagedWords(i.damage ?? ''),
    notice: { code: 'STORE_DAMAGED' },
  };
}

function damagedWords(reason: string): string {
  return `The data file is damaged (${reason}). Packdesk sets it aside and starts a new one with the taps it can read`;
}

/** What is kept while taps cannot go: never "0 tap(s) are kept" (the words for nothing waiting say what a tap made now does). */
function kept(waiting: number): string {
  return waiting === 0 ? 'Taps made meanwhile are kept' : `${waiting} tap(s) are kept`;
}

/** A span in words, the backlog threshold or a clock difference ("15 minutes", "45 seconds"): never "0 minutes". */
function spanWords(ms: number): string {
  if (ms >= 60_000) {
    const minutes = Math.round(ms / 60_000);
    return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  }
  const seconds = Math.max(1, Math.round(ms / 1000));
  return `${seconds} second${seconds === 1 ? '' : 's'}`;
}
