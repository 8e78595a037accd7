/**
 * What the engine says about itself: sync status, update status, settings and app info.
 * Each is replaced whole by its event or command answer.
 */
import { create } from 'zustand';
import type { AppInfo, IntakeStatus, Settings, SyncStatus, UpdateStatus } from '../../../shared/ipc';

interface StatusStore {
  sync: SyncStatus | null;
  intake: IntakeStatus | null;
  updates: UpdateStatus | null;
  settings: Settings | null;
  info: AppInfo | null;
  setSync(sync: SyncStatus): void;
  setIntake(intake: IntakeStatus): void;
  setUpdates(updates: UpdateStatus): void;
  setSettings(settings: Settings): void;
  setInfo(info: AppInfo): void;
}

export const useStatus = create<StatusStore>()((set) => ({
  sync: null,
  intake: null,
  updates: null,
  settings: null,
  info: null,
  setSync: (sync) => set({ sync }),
  setIntake: (intake) => set({ intake }),
  setUpdates: (updates) => set({ updates }),
  setSettings: (settings) => set({ settings }),
  setInfo: (info) => set({ info }),
}));

/** Training mode: the settings say so, or the app info does before settings have loaded. */
export function isTraining(s: Pick<StatusStore, 'settings' | 'info'>): boolean {
  return (s.settings?.environment ?? s.info?.environment) === 'training';
}
