/** The shift's days in the page: a day in words (the days themselves are src/shared/days.ts). */
export { addDays as shiftedDay, dayOf as shiftDayOf } from '../../../../shared/days';

const formats = new Map<string, Intl.DateTimeFormat>();

/** "Wed, 25 Nov 2026" in the staff's locale. */
export function dayText(day: string, locale: string): string {
  let f = formats.get(locale);
  if (!f) formats.set(locale, (f = new Intl.DateTimeFormat(locale, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' })));
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return f.format(new Date(y, m - 1, d, 12));
}
