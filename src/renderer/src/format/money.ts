/**
 * Prices. The specification leaves the currency open, so amounts show as plain numbers with two
 * decimals rather than guessing a symbol; grouping follows the locale (en-IN, hi-IN: lakh).
 */

const formats = new Map<string, Intl.NumberFormat>();

/** "1,234.50" for 1234.5 (and "12,34,567.50" for 1234567.5) in en-IN; '—' when the service sent no price. */
export function formatPrice(value: number | undefined, locale = 'en-IN'): string {
  if (value === undefined || !Number.isFinite(value)) return '—';
  let f = formats.get(locale);
  if (!f) {
    f = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    formats.set(locale, f);
  }
  return f.format(value);
}
