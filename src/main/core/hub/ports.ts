/**
 * What the store hub's rules (lease, shared orders, claims, shared taps, presence) need from this
 * counter, and what they offer it. Kept narrow, like intake's ports: the hub never reads the data
 * file itself, and the engine never speaks NATS. See docs/store-hub.md.
 */
import type { Claim, ClaimOutcome, ConflictRecord, CounterPresence, HubStatus, SharedTap } from '../../../shared/hub';
import type { Order } from '../../../shared/protocol/schemas';
import type { SharedRecords, ShiftTap } from '../engine/shared-records';
import type { TaughtCode } from '../db';
import type { SharedMember } from '../staff';
import type { HubConnection } from './nats/connection';
import type { ConflictPorts } from './conflicts';
import type { StoreAlarm } from './store-alarms';
import type { StoreSettingValues, StoreSettingsPorts } from './store-settings';

/** This counter's staff list, taught barcodes and shift taps, read and kept for the store hub (store-records.ts). */
export type RecordPorts = SharedRecords;

/** Who this counter is in the hub. */
export interface CounterIdentity {
  readonly counterId: string;
  readonly counterName: string;
  readonly version: string;
}

/** This counter's side: its SQLite, its intake, its outbox. */
export interface CounterPorts {
  /** Stores order bodies heard from the hub in this counter's SQLite (unless a newer one is held). */
  saveOrders(orders: readonly Order[], now: number): readonly ('new' | 'updated' | 'unchanged')[];
  /** The bodies this counter holds for these ids (what its own intake stored, to put into the hub). */
  bodies(orderIds: readonly string[]): readonly Order[];
  /** The orders this counter holds a body for: put into the hub when it (re)connects (the hub keeps what it has). */
  heldOrderIds(): readonly string[];
  /** Runs this counter's own intake: while it holds the store's lease, or while the hub is away. */
  resumeIntake(): void;
  /** Stops this counter's intake polling (another counter polls for the store). */
  pauseIntake(): void;
  /** This counter's taps the hub should show (waiting ones and recently ended ones), republished when the hub returns. */
  ownTaps(): readonly SharedTap[];
  /** The figures this counter's presence carries. */
  presence(): Omit<CounterPresence, 'counterId' | 'counterName' | 'version' | 'at'>;
  /** The staff list, taught barcodes and shift taps shared store-wide (absent: not shared, as in tests of other rules). */
  readonly records?: RecordPorts;
  /** Other counters' taps kept, and orders packed twice while apart (absent: not looked for, as in tests of other rules). */
  readonly conflicts?: ConflictPorts;
  /** This counter's settings that are the store's (absent: not shared, as in `packdesk run`). */
  readonly storeSettings?: StoreSettingsPorts;
  /** This counter's open alarms (an order cancelled or changed elsewhere while it packed it), shown on the other counters. */
  readonly openAlarms?: () => readonly StoreAlarm[];
}

/** What the hub tells this counter. */
export type HubEvent =
  | { readonly kind: 'status'; readonly status: HubStatus }
  /** A claim appeared, moved, lapsed or ended (`claim` null). */
  | { readonly kind: 'claim'; readonly orderId: string; readonly claim: Claim | null }
  /** Another counter's tap appeared or changed state. */
  | { readonly kind: 'tap'; readonly tap: SharedTap }
  /** Order bodies from the hub were stored locally ('new' ones ring the new-order alert). */
  | { readonly kind: 'stored'; readonly orderIds: readonly string[]; readonly newIds: readonly string[] }
  /** Another counter took this counter's claim over. */
  | { readonly kind: 'claimTaken'; readonly orderId: string; readonly by: Claim }
  /** Other counters' shift taps were kept in this counter's file: its Shift screen's figures changed. */
  | { readonly kind: 'shiftHeard' }
  /** The conflict of these orders (packed twice while apart) was found, heard or settled. */
  | { readonly kind: 'conflict'; readonly orderIds: readonly string[] }
  /** A store setting changed at another counter and was taken into this counter's settings. */
  | { readonly kind: 'storeSettings'; readonly patch: Partial<StoreSettingValues> }
  /** Another counter's alarm on these orders was raised or acknowledged. */
  | { readonly kind: 'alarmElsewhere'; readonly orderIds: readonly string[] };

/** The hub as the engine's host uses it (one per counter that has joined a hub). */
export interface HubSession {
  status(): HubStatus;
  /** Claims an order for this counter; `takeOver` moves another counter's claim (a confirmed act). */
  claim(orderId: string, options?: { readonly takeOver?: boolean; readonly packer?: string | null }): Promise<ClaimOutcome>;
  /** Keeps this counter's claim alive while the packer works on the order. */
  renew(orderId: string): Promise<void>;
  /** Ends this counter's claim (the order left the counter). */
  release(orderId: string): Promise<void>;
  /** The current claim of an order, as last heard from the hub. */
  claimOf(orderId: string): Claim | null;
  /** Other counters' taps on an order, as last heard from the hub. */
  tapsOf(orderId: string): readonly SharedTap[];
  /** Puts (or updates) one of this counter's taps on the hub; kept locally and republished if the hub is away. */
  publishTap(tap: SharedTap): void;
  /** Tells the hub this counter's intake stored these orders, so every counter gets them. */
  publishOrders(orderIds: readonly string[]): void;
  /** Puts a packer added, changed or removed here into the hub (merged again when the hub is back, if it is away). */
  shareStaff(member: SharedMember): void;
  /** Puts a barcode taught here into the hub. */
  shareTaught(code: TaughtCode): void;
  /** Puts one of this counter's shift taps (made, sent, taken back) into the hub. */
  shareShiftTap(tap: ShiftTap): void;
  /** A person here settled who keeps an order packed twice (kept in the file): into the hub, now or when it is back. */
  settleConflict(record: ConflictRecord): void;
  /** A manager changed the store's settings here: into the hub, now or when it is back. */
  shareStoreSettings(patch: Partial<StoreSettingValues>): void;
  /** This counter's alarm on an order raised or acknowledged: to every other counter. */
  shareAlarm(alarm: StoreAlarm): void;
  /** Another counter's open alarm on an order, as last heard. */
  alarmElsewhere(orderId: string): StoreAlarm | null;
  /**
   * Runs `use` over the session's own connection while the hub answers; null when it does not (the
   * caller then says so or makes a connection of its own). Saves a connection, and the hub's
   * password check, per small read such as the chain's state.
   */
  overConnection<T>(use: (connection: HubConnection) => Promise<T>): Promise<T> | null;
  on(listener: (event: HubEvent) => void): () => void;
  close(): Promise<void>;
}
