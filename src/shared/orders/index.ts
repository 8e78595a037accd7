export { predictTap } from './predict';
export { factsOf, hasPrescriptionItem, summarize } from './summary';
