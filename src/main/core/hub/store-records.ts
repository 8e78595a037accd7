/**
 * What the store's counters keep alike through the hub (issue 24): the staff list, taught barcodes
 * and every counter's taps of the shift's moments. Three buckets; each counter keeps what it hears
 * in its own SQLite (engine/shared-records.ts), so sign-in, scan to pack and the Shift screen work
 * the same with the hub away.
 *
 * - `packdesk-staff`, one key per packer (their uid): any counter writes it. The newest change
 *   wins, a removal (a tombstone, kept) wins over any change, so a counter that was away never
 *   brings a removed packer back. A counter that (re)joins reads the hub's word on each of its own
 *   packers and puts its own where it is newer or missing: what it had alone is merged, not lost.
 * - `packdesk-taught`, one key per barcode: the newest teaching wins, merged the same way.
 * - `packdesk-shift`, one key per counter and tap: each counter writes only its own, with the
 *   hub keeping them SHIFT_KEEP_MS after their last write. Every counter stores the others' in its
 *   `store_taps` table; a counter that was away meanwhile reads them all when it comes back (the
 *   watch gives every current value first), and puts again its own of the last SHIFT_KEEP_MS that
 *   the hub does not hold as they are now.
 *
 * A write while the hub is away is not replayed by the client (the store-hub spec): a failed write
 * arms a republish, and the session republishes whenever the hub comes back.
 */
import type { TaughtCode } from '../db';
import type { ShiftTap } from '../engine/shared-records';
import { shiftTapSchema } from '../engine/shared-records';
import type { Logger } from '../log';
import { sharedTaughtSchema } from '../packing';
import { type SharedMember, sharedMemberSchema } from '../staff';
import { type Timers, TimerSlot } from '../time';
import { type Bucket, type BucketEntry, type BucketWatch, type NatsConnection, openBucket, watchBucket } from './nats/buckets';
import { keyOf } from './keys';
import type { CounterIdentity, RecordPorts } from './ports';
import { HUB_BUCKETS, SHIFT_BUCKET, STAFF_BUCKET, TAUGHT_BUCKET } from './registry';

export { SHIFT_BUCKET, STAFF_BUCKET, TAUGHT_BUCKET };
/** How long the hub keeps a counter's shift tap: a counter away over a long weekend still gets them. */
export const SHIFT_KEEP_MS = HUB_BUCKETS.shift.maxAgeMs;
/** Pause before putting again after a write failed. */
const RETRY_MS = 2_000;
/** Heard shift taps are stored in one transaction per this many ms (a returning counter hears thousands at once). */
const KEEP_BATCH_MS = 100;

export interface StoreRecordsOptions {
  readonly me: CounterIdentity;
  readonly ports: RecordPorts;
  readonly now: () => number;
  readonly timers: Timers;
  readonly log: Logger;
  /** Told when what this counter holds changed because another counter said so. */
  readonly onHeard?: (what: 'staff' | 'taught' | 'shift') => void;
}

export interface StoreRecords {
  shareStaff(member: SharedMember): void;
  shareTaught(code: TaughtCode): void;
  shareShiftTap(tap: ShiftTap): void;
  /** Merges this counter's own into the hub's (after (re)joining); false when the hub did not take them all (tried again later). */
  republish(): Promise<boolean>;
  close(): void;
}

const staffKey = (uid: string): string => keyOf(uid);
const taughtKey = (code: string): string => keyOf(code);
const shiftKey = (counterId: string, requestId: string): string => `${counterId}.${keyOf(requestId)}`;

function parse<T>(entry: BucketEntry | null, schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } }): T | null {
  if (!entry || entry.operation !== 'PUT') return null;
  try {
    const r = schema.safeParse(entry.json());
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}

/** Whether `a` is the newer word on a packer (a removal beats any change; then the later change; then the greater text, alike everywhere). */
export function newerMember(a: SharedMember, b: SharedMember | null): boolean {
  if (!b) return true;
  if ((a.removedAt !== null) !== (b.removedAt !== null)) return a.removedAt !== null;
  if (a.updatedAt !== b.updatedAt) return a.updatedAt > b.updatedAt;
  return JSON.stringify(a) > JSON.stringify(b);
}

function newerTaught(a: TaughtCode, b: TaughtCode | null): boolean {
  if (!b) return true;
  return a.taughtAt !== b.taughtAt ? a.taughtAt > b.taughtAt : a.itemCode > b.itemCode;
}

/** Opens the three buckets (creating them the first time), watches them, and shares this counter's records. */
export async function openStoreRecords(nc: NatsConnection, options: StoreRecordsOptions): Promise<StoreRecords> {
  const [staffKv, taughtKv, shiftKv] = await Promise.all([
    openBucket(nc, HUB_BUCKETS.staff),
    openBucket(nc, HUB_BUCKETS.taught),
    openBucket(nc, HUB_BUCKETS.shift),
  ]);
  return storeRecordsOver({ staff: staffKv, taught: taughtKv, shift: shiftKv }, options);
}

/** The store's records over open buckets. */
export function storeRecordsOver(kv: { staff: Bucket; taught: Bucket; shift: Bucket }, options: StoreRecordsOptions): StoreRecords {
  const { me, ports, now, timers, log } = options;
  let closed = false;
  /** Each of this counter's shift taps as the hub last held it (from a put, or the watch): republish skips those unchanged. */
  const hubHolds = new Map<string, string>();
  let heardShift: ShiftTap[] = [];
  const flushSlot = new TimerSlot(timers, now, () => flush(), { keepAlive: false });
  const retry = new TimerSlot(timers, now, () => void republish(), { keepAlive: false });
  let running: Promise<boolean> | null = null;

  const flush = (): void => {
    const batch = heardShift;
    heardShift = [];
    if (batch.length === 0 || closed) return;
    try {
      if (ports.keepShiftTaps(batch) > 0) options.onHeard?.('shift');
    } catch (e) {
      log.error("other counters' shift taps could not be stored", { error: e });
    }
  };

  const guard = (what: string, fn: () => void): void => {
    try {
      fn();
    } catch (e) {
      log.error(`what the store hub said of ${what} could not be kept`, { error: e });
    }
  };

  const watches: BucketWatch[] = [
    watchBucket(kv.staff, (entry) => {
      const member = parse(entry, sharedMemberSchema());
      if (member && member.uid && staffKey(member.uid) === entry.key) guard('a packer', () => ports.mergeStaff(member) && options.onHeard?.('staff'));
    }, timers),
    watchBucket(kv.taught, (entry) => {
      const code = parse(entry, sharedTaughtSchema());
      if (code && taughtKey(code.code) === entry.key) guard('a barcode', () => ports.learnTaught(code) && options.onHeard?.('taught'));
    }, timers),
    watchBucket(kv.shift, (entry) => {
      const tap = parse(entry, shiftTapSchema());
      if (!tap || shiftKey(tap.counterId, tap.requestId) !== entry.key) return;
      if (tap.counterId === me.counterId) {
        hubHolds.set(tap.requestId, JSON.stringify(tap));
        return;
      }
      heardShift.push(tap);
      flushSlot.arm(KEEP_BATCH_MS);
    }, timers),
  ];

  const failed = (what: string, e: unknown): void => {
    if (closed) return;
    log.warn(`${what} could not be put into the store hub yet; trying again`, { error: e instanceof Error ? e.message : String(e) });
    retry.arm(RETRY_MS);
  };

  const putShift = async (tap: ShiftTap): Promise<void> => {
    const text = JSON.stringify(tap);
    await kv.shift.put(shiftKey(tap.counterId, tap.requestId), text);
    hubHolds.set(tap.requestId, text);
  };

  const republishOnce = async (): Promise<boolean> => {
    try {
      for (const mine of ports.staff()) {
        if (closed) return false;
        const theirs = parse(await kv.staff.get(staffKey(mine.uid)), sharedMemberSchema());
        if (newerMember(mine, theirs)) await kv.staff.put(staffKey(mine.uid), JSON.stringify(mine));
        else if (theirs && newerMember(theirs, mine)) ports.mergeStaff(theirs);
      }
      for (const mine of ports.taught()) {
        if (closed) return false;
        const theirs = parse(await kv.taught.get(taughtKey(mine.code)), sharedTaughtSchema());
        if (newerTaught(mine, theirs)) await kv.taught.put(taughtKey(mine.code), JSON.stringify(mine));
      }
      for (const tap of ports.ownShiftTaps(now() - SHIFT_KEEP_MS, me)) {
        if (closed) return false;
        if (hubHolds.get(tap.requestId) !== JSON.stringify(tap)) await putShift(tap);
      }
      return true;
    } catch (e) {
      failed("this counter's staff, barcodes and shift taps", e);
      return false;
    }
  };

  const republish = (): Promise<boolean> => {
    running ??= republishOnce().finally(() => (running = null));
    return running;
  };

  return {
    shareStaff(member) {
      kv.staff.put(staffKey(member.uid), JSON.stringify(member)).catch((e: unknown) => failed('a packer', e));
    },
    shareTaught(code) {
      kv.taught.put(taughtKey(code.code), JSON.stringify(code)).catch((e: unknown) => failed('a taught barcode', e));
    },
    shareShiftTap(tap) {
      putShift(tap).catch((e: unknown) => failed('a shift tap', e));
    },
    republish,
    close() {
      closed = true;
      flush();
      flushSlot.clear();
      retry.clear();
      for (const w of watches) w.stop();
    },
  };
}
