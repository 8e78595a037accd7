export { factsOf, hasPrescriptionItem, summarize } from './summary';
