/**
 * Opening the data file when it may be damaged, and noticing damage while it is in use. A damaged
 * file is set aside (openStore) and a fresh one started with whatever taps SQLite can still read
 * from it; damage found later (the page check on a worker thread, or SQLite reading a bad page)
 * marks the file so the next open does the same. The engine decides what packers are told.
 */
import path from 'node:path';
import { ProblemError } from '../../../shared/result';
import type { Logger } from '../log';
import { checkLater, type LaterCheck, markDamaged } from './later-check';
import { describeSalvage } from './salvage';
import { damageIn } from './storage-error';
import { brokenFiles, DATA_FILE_NAME, openStore, type Store } from './store';

/** What the manager is told of a damaged file's taps: how many were carried over and how many could not be read ('?' unknown). */
export type SalvageWords = { recovered: number; lost: number | string };

/** The open store, and when a damaged file was replaced on the way, what is said of it. */
export interface Opened {
  readonly store: Store;
  readonly notice: string | null;
  readonly salvage: SalvageWords | null;
}

/**
 * Opens the store; a damaged file has been set aside by openStore, and only then is a fresh one
 * created, with the event written to the new file's audit log, the log and the status line.
 * Throws ProblemError only when no data file can be used at all.
 */
export function openOrReplace(dataDir: string, now: () => number, terminalId: string, log: Logger, openingCheck: 'now' | 'later'): Opened {
  let setAside: string | null = null;
  const first = openStore({ dataDir, now, openingCheck, onSetAside: (target) => (setAside = target) });
  if (first.ok) return { store: first.value, notice: null, salvage: null };
  if (first.problem.code !== 'STORE_BROKEN') throw new ProblemError(first.problem);
  log.error('data file damaged and set aside; starting a new one', { message: first.problem.message });
  const fresh = openStore({ dataDir, now });
  if (!fresh.ok) throw new ProblemError(fresh.problem);
  // Queued taps must not silently leave the queue: carry over whatever SQLite can still read.
  let salvaged = 'No taps could be recovered from it; taps in it were not sent by this terminal.';
  let empty = true;
  let salvage: SalvageWords = { recovered: 0, lost: '?' };
  if (setAside !== null) {
    try {
      const report = fresh.value.salvageFrom(setAside, now());
      salvaged = describeSalvage(report);
      empty = report.tapsRecovered === 0 && report.ordersRecovered === 0;
      salvage = { recovered: report.tapsRecovered, lost: report.tapsLost ?? '?' };
      log.warn('salvaged the damaged data file', { ...report });
    } catch (e) {
      log.error('salvage of the damaged data file failed', { error: e });
    }
  }
  // What was saved comes first: the sync bar shows one line, and this is what the manager must know.
  const notice = `Damaged data file replaced. ${salvaged} ${first.problem.message} A new${empty ? ', empty' : ''} data file was started at ${path.join(dataDir, DATA_FILE_NAME)}.`;
  fresh.value.transaction(() => {
    fresh.value.audit.add({ time: now(), terminal: terminalId, kind: 'recover', outcome: 'store-replaced', message: notice });
    fresh.value.audit.add({ time: now(), terminal: terminalId, kind: 'recover', outcome: 'salvaged', message: salvaged });
  });
  return { store: fresh.value, notice, salvage };
}

/**
 * The data file's health for doctor and the support screen: the notice of a file replaced at
 * opening, else a damaged file set aside earlier and still in the folder, else SQLite's check.
 */
export function fileHealth(
  store: Store,
  o: { dataDir: string; notice: string | null; stopped: boolean },
): { dataFile: string; integrity: 'ok' | string; schemaVersion: number } {
  const current = o.stopped ? 'ok' : store.integrity();
  const setAside = brokenFiles(o.dataDir);
  let integrity: string = current;
  if (o.notice) integrity = o.notice;
  else if (current === 'ok' && setAside.length > 0)
    integrity = `a damaged data file was set aside earlier (${setAside.join(', ')}); give it to support, then delete it. ${lastSalvage(store)}`.trim();
  return { dataFile: store.file, integrity, schemaVersion: store.schemaVersion };
}

/** What the last salvage recovered, in words, from the audit log ('' when it is no longer there). */
function lastSalvage(store: Store): string {
  return store.audit.lastOutcome('recover', 'salvaged')?.message ?? '';
}

export interface DamageWatch {
  /** Why the file was found damaged since it was opened, or null. */
  reason(): string | null;
  /** True when `e` said the file is damaged (and that is now handled). */
  damaged(e: unknown): boolean;
  /** Checks the file's pages on a worker thread ('later'): damage marks the file and is said at once. */
  checkPages(): void;
  /** A page check still running is given up (the engine is stopping). */
  cancel(): void;
}

/**
 * Watches an open data file for damage. Found once (the later check, or SQLite reading a bad page
 * meanwhile): the file is marked, so the next open sets it aside and salvages it, and `found` is
 * told, once, for the engine to say it and have the host open it again.
 */
export function watchDamage(o: { file: string; log: Logger; stopped: () => boolean; found: (reason: string) => void }): DamageWatch {
  const { log } = o;
  // The later page check while it runs, and what it found wrong (until the host reopens the engine).
  let pageCheck: LaterCheck | null = null;
  let damage: string | null = null;

  function foundDamage(reason: string): void {
    if (damage !== null || o.stopped()) return;
    log.error('the data file is damaged', { reason });
    damage = reason;
    try {
      markDamaged(o.file, reason);
    } catch (e) {
      log.error('the damaged data file could not be marked', { error: e });
    }
    o.found(reason);
  }

  return {
    reason: () => damage,
    damaged(e) {
      const reason = damageIn(e);
      if (reason !== null) foundDamage(reason);
      return reason !== null;
    },
    checkPages() {
      if (o.stopped()) return;
      pageCheck = checkLater(o.file);
      void pageCheck.result.then((found) => {
        pageCheck = null;
        if (o.stopped()) return;
        if (found.kind === 'unchecked') log.warn('the data file could not be checked', { reason: found.reason });
        else if (found.kind === 'damaged') foundDamage(found.reason);
        // Said, so support can tell a sound file from one that was never checked.
        else log.info('the data file was checked page by page: sound');
      });
    },
    cancel: () => pageCheck?.cancel(),
  };
}
