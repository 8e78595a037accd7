/**
 * How long ago a moment was, in words ("3 min ago"), drawn again only when the words change
 * (useTimedValue): by the second, or to the minute for a line that stays on screen all day.
 */
import { useCallback } from 'react';
import { ageChangesAt, ageToTheMinuteChangesAt, formatAge, formatAgeToTheMinute, type Say } from '../format/time';
import { useTimedValue } from './useNow';

/** The age of `at` in words; '' when there is no moment (null). */
export function useAge(at: number | null, say: Say, precision: 'second' | 'minute'): string {
  const [changesAt, words] = precision === 'minute' ? [ageToTheMinuteChangesAt, formatAgeToTheMinute] : [ageChangesAt, formatAge];
  const next = useCallback((now: number) => (at === null ? Number.POSITIVE_INFINITY : changesAt(at, now)), [at, changesAt]);
  return useTimedValue(next, (now) => (at === null ? '' : words(at, now, say)));
}
