/**
 * Prices. The specification leaves the currency open, so amounts show as plain numbers with two
 * decimals rather than guessing a symbol.
 */

/** "1,234.50" for 1234.5; '—' when the service sent no price. */
export function formatPrice(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return '—';
  return value.toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}
