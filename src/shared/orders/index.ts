export { addCut, cutsShownOn } from './cuts';
export { predictTap } from './predict';
export { factsOf, hasPrescriptionItem, summarize } from './summary';
export { compareViews, countSteps, inQueueOrder, noSteps, queueHead, sameSortKey, stepOf } from './queue';
export { FIND_LIMIT, MATCH_KINDS, type MatchKind } from './match';
