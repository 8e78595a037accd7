/** Times on paper: day, month and time in the terminal's language ("12 Aug, 14:05"). */
import { intlLocale } from '../i18n';

/** A promised or printed time as a date and a 24-hour time in the language's locale. */
export function paperTime(at: number, language: string): string {
  return new Intl.DateTimeFormat(intlLocale(language), { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hour12: false }).format(at);
}
