/**
 * The first Intl formatter of a kind for a locale costs 10-20 ms in Chromium (its ICU data is
 * loaded then), and the queue's first render made all of them at once: numbers for the filters,
 * clock times for the intake line, plural rules for the countdowns. Made while the page waits
 * for its orders, that time is off the path to the first rows.
 */
import type { TFunction } from 'i18next';
import { formatPrice } from './money';
import { formatNumber } from './number';
import { formatClock, formatDayClock, formatSpan } from './time';

/** Makes (and caches) the formatters the first screens use for `locale`; `say` warms the plural rules of the words. */
export function warmFormats(locale: string, say: TFunction, now: number): void {
  formatNumber(1234, locale);
  formatPrice(1234.5, locale);
  formatClock(now, locale);
  formatDayClock(now, locale);
  formatSpan(12 * 60_000, say);
}
