/**
 * What the store hub shares besides orders and taps in flight (issue 24 with the hub): the staff
 * list, taught barcodes, and each counter's taps of the shift's moments. This is the engine's side
 * of core/hub/store-records.ts: it reads this counter's own (to put into the hub) and keeps the
 * other counters' word in this counter's SQLite, by the rules of core/staff and core/packing.
 */
import { z } from 'zod';
import { builtOnce } from '../../../shared/on-first-use';
import type { OutboxEntryView } from '../../../shared/ipc';
import type { Action } from '../../../shared/protocol';
import type { Store, TaughtCode } from '../db';
import { COUNTED, type Moment } from '../db/history-table';
import type { Logger } from '../log';
import type { Packing } from '../packing';
import type { SharedMember, Staff } from '../staff';

/** One counter's tap of a shift's moment as the hub carries it (no customer, no order body). */
export const shiftTapSchema = builtOnce(() => z.object({
  counterId: z.string().min(1).max(64),
  counterName: z.string().min(1).max(80),
  requestId: z.string().min(1).max(200),
  orderId: z.string().min(1).max(200),
  moment: z.enum(['accept', 'cancel', 'packed', 'handedOver']),
  createdAt: z.number().int(),
  packer: z.string().max(200).nullable(),
  /** False once it was taken back or refused (it no longer counts). */
  counted: z.boolean(),
}));
export type ShiftTap = z.infer<ReturnType<typeof shiftTapSchema>>;

/** Which counter a record is from. */
export interface CounterName {
  readonly counterId: string;
  readonly counterName: string;
}

/** The shift's moment a tap's action is (as history-table's SQL says), or null. */
export function momentOf(action: Action): Moment | null {
  if (action.type === 'ORDER_STATE_UPDATE') {
    const state = action.orderState.toUpperCase();
    return state === 'ACCEPTED' ? 'accept' : state === 'CANCELLED' ? 'cancel' : null;
  }
  if (action.type === 'ORDER_FULFILMENT_STATE_UPDATE') {
    const state = action.fulfillmentState.toUpperCase();
    return state === 'PACKED' ? 'packed' : state === 'OUT_FOR_DELIVERY' ? 'handedOver' : null;
  }
  return null;
}

/** One outbox entry of this counter as a shift tap, or null when it is no moment the figures count. */
export function shiftTapOf(entry: OutboxEntryView, counter: CounterName): ShiftTap | null {
  const moment = momentOf(entry.action);
  if (moment === null) return null;
  return {
    counterId: counter.counterId,
    counterName: counter.counterName,
    requestId: entry.requestId,
    orderId: entry.orderId,
    moment,
    createdAt: entry.createdAt,
    packer: entry.packer,
    counted: COUNTED.has(entry.state),
  };
}

export interface SharedRecords {
  /** This counter's staff list and removals, to merge into the hub's. */
  staff(): SharedMember[];
  /** Another counter's word on a packer; true when this file changed. */
  mergeStaff(member: SharedMember): boolean;
  /** Every barcode this counter was taught, or learnt. */
  taught(): TaughtCode[];
  /** A barcode taught at another counter; true when this file changed. */
  learnTaught(code: TaughtCode): boolean;
  /** This counter's shift taps made at or after `since`. */
  ownShiftTaps(since: number, counter: CounterName): ShiftTap[];
  /** Keeps other counters' shift taps; answers how many changed. */
  keepShiftTaps(taps: readonly ShiftTap[]): number;
}

export function sharedRecords(deps: { store: Store; staff: Staff; packing: Packing; now: () => number; log: Logger }): SharedRecords {
  const { store, staff, packing } = deps;
  return {
    staff: () => staff.sharedList(),
    mergeStaff: (member) => staff.merge(member),
    taught: () => packing.taughtCodes(),
    learnTaught: (code) => packing.learn(code),
    ownShiftTaps: (since, counter) =>
      store.history.momentsSince(since).map((m) => ({ ...m, counterId: counter.counterId, counterName: counter.counterName })),
    keepShiftTaps(taps) {
      const valid = taps.filter((t) => shiftTapSchema().safeParse(t).success);
      if (valid.length < taps.length) deps.log.warn('shift taps from the store hub that do not read were left out', { count: taps.length - valid.length });
      return store.transaction(() => store.storeTaps.put(valid, deps.now()));
    },
  };
}
