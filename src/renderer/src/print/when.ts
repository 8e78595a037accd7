/** Times on paper: day, month and time in the terminal's language ("12 Aug, 14:05"). */
import { formatDayClock } from '../format/time';
import { intlLocale } from '../i18n';

/** A promised or printed time as a date and a 24-hour time in the language's locale (the screens' formatter, made once per locale). */
export function paperTime(at: number, language: string): string {
  return formatDayClock(at, intlLocale(language));
}
