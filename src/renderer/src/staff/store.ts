/** Who is packing at this counter now, as the engine says (replaced whole by `staff.changed`). */
import { create } from 'zustand';
import type { PackerStatus } from '../../../shared/ipc';

interface PackerStore {
  status: PackerStatus | null;
  set(status: PackerStatus): void;
}

export const usePacker = create<PackerStore>()((set) => ({
  status: null,
  set: (status) => set({ status }),
}));
