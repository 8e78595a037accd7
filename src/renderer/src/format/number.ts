/** Numbers in the staff's locale: en-IN and hi-IN group by lakh and crore (12,34,567). */

const formats = new Map<string, Intl.NumberFormat>();

/** A whole or decimal number as the locale writes it. */
export function formatNumber(value: number, locale: string): string {
  let f = formats.get(locale);
  if (!f) {
    f = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
    formats.set(locale, f);
  }
  return f.format(value);
}
