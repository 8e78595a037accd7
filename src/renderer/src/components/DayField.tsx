/**
 * A day picked in the order the terminal's language writes it: day, month, year (dd/mm/yyyy in
 * en-IN and hi-IN), the month by its name in that language. The browser's own date field orders
 * its parts by the browser's language, not the terminal's: a Chromium in US English showed a
 * Hindi screen mm/dd/yyyy. Three lists, each a 56 px target; never a day after `max`.
 */
import { useWords } from '../i18n/useWords';

interface Props {
  /** YYYY-MM-DD, or null for none chosen (only with `optional`). */
  readonly value: string | null;
  /** The last day that may be chosen (YYYY-MM-DD), usually today. */
  readonly max: string;
  readonly onChange: (day: string | null) => void;
  /** What the day is for (the group's name for screen readers). */
  readonly label: string;
  readonly testId: string;
  /** Offers "—" in each list: no day chosen. */
  readonly optional?: boolean;
  /** How many years back the year list goes (the data kept: 180 days for gone orders). */
  readonly years?: number;
}

const pad = (n: number): string => String(n).padStart(2, '0');
const daysIn = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** [year, month, day] of a YYYY-MM-DD day. */
function partsOf(day: string): [number, number, number] {
  const [y, m, d] = day.split('-').map(Number);
  return [y ?? 1970, m ?? 1, d ?? 1];
}

export function DayField({ value, max, onChange, label, testId, optional = false, years = 2 }: Props) {
  const { t, locale } = useWords();
  const [maxYear] = partsOf(max);
  const chosen = value === null ? null : partsOf(value);
  const monthName = new Intl.DateTimeFormat(locale, { month: 'long', timeZone: 'UTC' });

  /** One part changed: the others as chosen, or as on `max` when none was; never past `max`. */
  const set = (part: 0 | 1 | 2, to: string) => {
    if (to === '') return onChange(null);
    const next = [...(chosen ?? partsOf(max))] as [number, number, number];
    next[part] = Number(to);
    next[2] = Math.min(next[2], daysIn(next[0], next[1]));
    const day = `${next[0]}-${pad(next[1])}-${pad(next[2])}`;
    onChange(day > max ? max : day);
  };

  const none = optional ? <option value="">—</option> : null;
  return (
    <span className="day-field" role="group" aria-label={label} data-testid={testId} data-value={value ?? ''}>
      <select className="text-input day-field-part" aria-label={t('common:date.day')} value={chosen ? String(chosen[2]) : ''} onChange={(e) => set(2, e.target.value)} data-testid={`${testId}-day`}>
        {none}
        {Array.from({ length: chosen ? daysIn(chosen[0], chosen[1]) : 31 }, (_, i) => (
          <option key={i + 1} value={i + 1}>
            {pad(i + 1)}
          </option>
        ))}
      </select>
      <select className="text-input day-field-part" aria-label={t('common:date.month')} value={chosen ? String(chosen[1]) : ''} onChange={(e) => set(1, e.target.value)} data-testid={`${testId}-month`}>
        {none}
        {Array.from({ length: 12 }, (_, i) => (
          <option key={i + 1} value={i + 1}>
            {monthName.format(Date.UTC(2000, i, 1))}
          </option>
        ))}
      </select>
      <select className="text-input day-field-part" aria-label={t('common:date.year')} value={chosen ? String(chosen[0]) : ''} onChange={(e) => set(0, e.target.value)} data-testid={`${testId}-year`}>
        {none}
        {Array.from({ length: years + 1 }, (_, i) => maxYear - years + i).map((y) => (
          <option key={y} value={y}>
            {y}
          </option>
        ))}
      </select>
    </span>
  );
}
