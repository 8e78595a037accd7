export { predictTap } from './predict';
export { factsOf, hasPrescriptionItem, summarize } from './summary';
export { FIND_LIMIT, MATCH_KINDS, type MatchKind } from './match';
