/** The shift in one picture and an order's history, from the terminal's own records (issue 24, parts 3 and 4). */
export { dayBounds, dayOf, addDays } from '../../../shared/days';
export { nearestRank, shiftReport, spreadOf, type ReportScope } from './figures';
export { createShiftReader, KEEP_AFTER_DAYS, keepDays, readShift } from './report';
export { orderTimeline } from './timeline';
export { csvCell, shiftCsv } from './csv';
