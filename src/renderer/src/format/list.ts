/** "A, B and C" in the staff's locale (Intl.ListFormat): names joined as a sentence says them. */
export function formatList(names: readonly string[], locale: string): string {
  return new Intl.ListFormat(locale, { style: 'long', type: 'conjunction' }).format(names);
}
