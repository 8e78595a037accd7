/**
 * A settings file that could not be read is said on the sync bar above everything else, until a
 * manager saves settings: the terminal may be on an environment or addresses a manager did not
 * choose, and a log line alone would let that pass unseen.
 */
import type { SyncStatus } from '../../../shared/ipc';

/** The status with the settings problem as its sentence, when there is one. */
export function withSettingsNotice(status: SyncStatus, problem: string | null): SyncStatus {
  if (problem === null) return status;
  return { ...status, message: problem, notice: { code: 'SETTINGS_DAMAGED' } };
}
