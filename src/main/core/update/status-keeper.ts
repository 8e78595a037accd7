/**
 * The update status the controller reports: held in memory, told to every listener (the screen),
 * and saved for `packdesk doctor` (status-file.ts). Only changes are passed on: the policy is asked
 * every minute, and the screen should not redraw for a sentence it already shows.
 */
import type { UpdateStatus } from '../../../shared/ipc';
import type { Logger } from '../log';
import { saveUpdateStatus } from './status-file';

export interface UpdateStatusKeeper {
  get(): UpdateStatus;
  /** Lays `patch` over the status; listeners and the file hear of it only when something changed. */
  set(patch: Partial<UpdateStatus>): void;
  onStatus(cb: (s: UpdateStatus) => void): () => void;
}

export interface UpdateStatusKeeperOptions {
  readonly currentVersion: string;
  readonly log: Logger;
  readonly now: () => number;
  /** Where the status is saved for doctor; not saved without one. */
  readonly statusFile?: string;
}

const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));

export function createUpdateStatusKeeper(options: UpdateStatusKeeperOptions): UpdateStatusKeeper {
  const { log } = options;
  const listeners = new Set<(s: UpdateStatus) => void>();
  let status: UpdateStatus = { state: 'idle', currentVersion: options.currentVersion, availableVersion: null, message: null, lastCheckAt: null };

  const set = (patch: Partial<UpdateStatus>): void => {
    const next = { ...status, ...patch };
    if ((Object.keys(next) as (keyof UpdateStatus)[]).every((k) => next[k] === status[k])) return;
    // Download progress is said many times a second; doctor needs only where the download got to.
    const saveWorthy = next.state !== status.state || next.availableVersion !== status.availableVersion || next.lastCheckAt !== status.lastCheckAt || next.state !== 'downloading';
    status = next;
    if (options.statusFile && saveWorthy) {
      try {
        saveUpdateStatus(options.statusFile, status, options.now());
      } catch (err) {
        log.warn('the update status could not be saved for doctor', { error: errorText(err) });
      }
    }
    for (const cb of listeners) {
      try {
        cb(status);
      } catch (err) {
        log.error('an update status listener failed', { error: errorText(err) });
      }
    }
  };

  return {
    get: () => status,
    set,
    onStatus(cb) {
      listeners.add(cb);
      return () => {
        listeners.delete(cb);
      };
    },
  };
}
