// barcode.ts is loaded on demand (run.ts); only its types are re-exported here.
export type { Bar, BarPattern } from './barcode';
export { packingSlipOf, addressLines, type PackingSlip, type SlipItem } from './slip';
export { pickListOf, pickKey, type PickList, type PickLine, type PickShare } from './pickList';
export { usePrint, type PrintJob, type BadgeCard } from './store';
export { usePickSelection } from './selection';
export { printBadges, printJoinSlip, printPackingSlip, printPickList } from './run';
export { watchPackedTaps, marksPacked } from './autoPrint';
export { paperTime } from './when';
