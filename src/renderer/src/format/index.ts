/** Numbers, money, times and lists in the staff's locale (Intl, en-IN and hi-IN), and spans in their words. */
export { formatList } from './list';
export { formatNumber } from './number';
export { formatPrice } from './money';
export { ageChangesAt, ageToTheMinuteChangesAt, countdown, countdownChangesAt, formatAge, formatAgeToTheMinute, formatClock, formatDayClock, formatSpan, secondsLeft, SOON_MS, type Say, type Urgency, urgencyAt } from './time';
export { warmFormats } from './warm';
