/**
 * The words hook every component uses: i18next's `t` plus the Intl locale of the language shown
 * now, so numbers, money and clock times follow the same language as the words. Keys are always
 * written whole, `namespace:key`, so a test can find every key the source uses.
 */
import { useTranslation } from 'react-i18next';
import { intlLocale } from './index';

/** `t` and the current Intl locale; re-renders when the language changes. */
export function useWords() {
  const { t, i18n } = useTranslation();
  return { t, locale: intlLocale(i18n.language) };
}
