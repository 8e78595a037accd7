/**
 * Which language the terminal shows. A manager sets the terminal's language in settings (saved
 * with the other settings); a packer can switch for their shift from the top bar. The shift's
 * choice lives only in this window's memory: it lasts until Packdesk restarts, and a manager
 * saving a terminal language replaces it (the manager's choice is then what everyone sees).
 */
import { create } from 'zustand';
import type { LanguageCode } from '../../../shared/languages';
import { FALLBACK_LANGUAGE } from '../../../shared/languages';
import { showLanguage } from '../i18n';
import { useStatus } from './status';

interface LanguageStore {
  /** The packer's choice for this shift, or null to follow the terminal's language. */
  shift: LanguageCode | null;
  chooseForShift(language: LanguageCode): void;
  clearShift(): void;
}

export const useLanguage = create<LanguageStore>()((set) => ({
  shift: null,
  chooseForShift: (language) => set({ shift: language }),
  clearShift: () => set({ shift: null }),
}));

/** The language on screen now: the shift's choice, else the terminal's. */
export function shownLanguage(): LanguageCode {
  return useLanguage.getState().shift ?? useStatus.getState().settings?.language ?? FALLBACK_LANGUAGE;
}

let following = false;

/** Keeps i18next on the shown language as settings arrive or a packer switches. */
export function followLanguage(): void {
  if (following) return;
  following = true;
  let terminal = useStatus.getState().settings?.language;
  const apply = (): void => void showLanguage(shownLanguage());
  useLanguage.subscribe(apply);
  useStatus.subscribe((s) => {
    const next = s.settings?.language;
    if (next === terminal) return;
    // A manager chose a terminal language: that is what everyone sees from now on.
    if (terminal !== undefined) useLanguage.getState().clearShift();
    terminal = next;
    apply();
  });
}
