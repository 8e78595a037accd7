/** The store hub as this counter sees it: replaced whole by the `hub.status` event or command answer. */
import { create } from 'zustand';
import type { HubStatus } from '../../../shared/hub';

interface HubStore {
  status: HubStatus | null;
  setStatus(status: HubStatus): void;
}

export const useHub = create<HubStore>()((set) => ({
  status: null,
  setStatus: (status) => set({ status }),
}));

/** Other counters cannot be checked now: joined to a hub that is away or not answering yet. */
export function cannotCheckCounters(status: HubStatus | null): boolean {
  return status !== null && (status.mode === 'away' || status.mode === 'connecting');
}
