/**
 * The words hook every component uses: `t` for the language shown now plus its Intl locale, so
 * numbers, money and clock times follow the same language as the words. Keys are always written
 * whole, `namespace:key`, so a test can find every key the source uses.
 *
 * It follows i18next's `languageChanged` itself rather than through react-i18next's
 * `useTranslation`: every word is bundled, so there is nothing to wait for, and useTranslation's
 * "namespace loading" machinery (suspending, or re-running an effect until ready) sent the outbox
 * into an endless update loop when rows mounted while taps were being sent.
 */
import { useSyncExternalStore } from 'react';
import { i18next, intlLocale } from './index';
import { memoT } from './memoT';

function subscribe(changed: () => void): () => void {
  i18next.on('languageChanged', changed);
  return () => i18next.off('languageChanged', changed);
}

const currentLanguage = (): string => i18next.language;

/** One remembering `t` per language, shared by every component (see memoT). */
const fixed = new Map<string, ReturnType<typeof memoT>>();
function wordsOf(language: string): ReturnType<typeof memoT> {
  let t = fixed.get(language);
  if (!t) {
    t = memoT(i18next.getFixedT(language));
    fixed.set(language, t);
  }
  return t;
}

/** `t` and the current Intl locale; re-renders when the language changes. */
export function useWords() {
  const language = useSyncExternalStore(subscribe, currentLanguage, currentLanguage);
  const t = wordsOf(language);
  return { t, locale: intlLocale(language) };
}
