/** Order intake: new and changed orders come in by themselves (changes → status → orders cache). */
export { createIntake, DEFAULT_INTAKE_INTERVAL_MS, MIN_INTAKE_INTERVAL_MS, DEFAULT_OVERLAP_MS, OUTBOX_WAIT_MS, type Intake, type IntakeOptions } from './intake';
export type { PassReport, FetchReport, AccessReport } from './reports';
export { runPass, type PassCounts, type PassResult } from './pass';
export type { IntakeReader, IntakeStore } from './ports';
export { storeForIntake } from './store';
