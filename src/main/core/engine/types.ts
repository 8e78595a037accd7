/**
 * What the engine facade offers (engine.ts builds it): the options it is built with and the calls
 * the Electron shell, the web harness, the CLI and the tests make on it. Kept apart from the
 * building so a reader sees the whole surface in one place.
 */
import type { EventBody, EventName, OrderTimeline, OrderView, OrderPrint, OutboxEntryView, PackScanAnswer, PackState, ShiftReport, SyncStatus } from '../../../shared/ipc';
import type { ActionInput } from '../../../shared/protocol';
import type { MatchKind } from '../../../shared/orders';
import type { Problem, Result } from '../../../shared/result';
import type { UpdateSender } from '../api/outcome';
import type { Logger } from '../log';
import type { StatusCheck, TapHubContext } from '../outbox';
import type { SearchHit, SearchQuery } from '../search';
import type { OnlineSignal } from '../sync';
import type { TaughtCodesSharing } from '../packing';
import type { Staff, StaffSharing } from '../staff';
import type { SharedRecords } from './shared-records';
import type { EngineConflicts } from './conflicts';
import type { Timers } from '../time';

export interface EngineOptions {
  dataDir: string;
  sender: UpdateSender;
  terminalId: string;
  now?: () => number;
  random?: () => number;
  undoWindowMs?: number;
  concurrency?: number;
  backlogThresholdMs?: number;
  backoff?: { baseMs: number; capMs: number };
  online?: OnlineSignal;
  log?: Logger;
  /** Timers for retries, probes and the undo window (tests and benchmarks drive them). */
  timers?: Timers;
  /** How often to look for taps queued by another process, ms (default 5000). */
  pollMs?: number;
  /** How long stop() lets in-flight sends finish before aborting them, ms (default 3000). */
  stopGraceMs?: number;
  /** What the token manager knows of the credentials, so the status can tell "missing" from "rejected". */
  credentialsState?: () => 'unknown' | 'ok' | 'missing' | 'rejected';
  /** This terminal's clock minus the order service's, as the clock's witnesses tell it (ServiceClock), or null. */
  clockSkewMs?: () => number | null;
  /** The token server's clock reading less the order service's when they disagree, else null (ServiceClock). */
  clockDisagreementMs?: () => number | null;
  /**
   * Asked before resending an entry whose earlier attempt got no answer, and after a refusal that
   * may mean "already done" (decisions.md, "Check before resend"). Absent: resend as before.
   */
  statusCheck?: StatusCheck;
  /** The token manager's last problem getting a token (null once one is issued), for the status line. */
  tokenProblem?: () => Problem | null;
  /** The order service's certificate refusal on its last call, in words (null when it answers). */
  serviceCertificate?: () => string | null;
  /**
   * When the data file's pages are checked: 'now' (default) before the engine is built, or 'later'
   * on a worker thread from start() (the app: a packer can tap while a large file is read). Damage
   * found later marks the file (the next open sets it aside and salvages it) and calls onDamaged.
   */
  openingCheck?: 'now' | 'later';
  /** Told when the later check found the data file damaged: the host opens the engine again. */
  onDamaged?: (reason: string) => void;
  /** How long a finished order stays on the terminal once nothing happens to it, ms (default three days; retire.ts). */
  finishedKeepMs?: number;
  /** Tests only: when it first looks for finished orders after it starts sending, ms (default a minute). */
  retireFirstMs?: number;
  /** Whether a PIN is the manager's (counting no wrong guess): a packer's PIN may not be it. */
  isManagerPin?: (pin: string) => Promise<boolean>;
  /** scrypt cost of packers' PINs (tests lower it). */
  staffPinCost?: { N: number; r: number; p: number };
  /** The store hub's port for the staff list (issue 23; absent on one counter). */
  staffSharing?: StaffSharing;
  /** The store hub's port for taught barcodes (issue 23; absent on one counter). */
  taughtSharing?: TaughtCodesSharing;
}

export interface Engine {
  /** Recovers entries left `sending`, then starts draining. */
  start(): void;
  /** Stops timers, lets in-flight sends settle, closes the data file. */
  stop(): Promise<void>;
  /** A scanned or typed order id: returns the existing view or adds a new "unknown" order. */
  addOrder(orderId: string): Result<OrderView>;
  /** Takes an order none of whose taps reached the service off the terminal (its unsent taps are discarded). */
  removeOrder(orderId: string): Result<true>;
  /** Validates a tap against the projected order and queues it durably; with a store hub, `hub` says whether other counters could be checked. */
  submitTap(orderId: string, input: ActionInput, hub?: TapHubContext | null): Result<OutboxEntryView>;
  /** Takes a tap back, only inside the undo window and while queued. */
  undo(entryId: number): Result<true>;
  /** A person has seen the order's alarm (cancelled or changed elsewhere): it is no longer raised. */
  acknowledgeAlarm(orderId: string): Result<true>;
  /** Every tap of one order, finished ones too (an order's alarm explains its taps set aside). */
  entriesOf(orderId: string): OutboxEntryView[];
  /** A failed entry is queued again now (a backing-off one goes at the next chance). */
  retry(entryId: number): Result<true>;
  /** A failed or queued entry is discarded (the PIN is checked by the caller). */
  discard(entryId: number): Result<true>;
  listOrders(): OrderView[];
  getOrder(orderId: string): OrderView | null;
  /** Orders on the terminal that typed text finds (id, last digits, name, phone, invoice), most certain first. */
  findOrders(text: string, limit: number): { matches: { view: OrderView; by: MatchKind }[]; more: boolean };
  /** The Orders search: text or a day, orders gone from the terminal included, filtered (core/search). */
  searchOrders(query: SearchQuery, limit: number): { hits: SearchHit[]; more: boolean };
  listOutbox(options?: { includeDone?: boolean; limit?: number }): OutboxEntryView[];
  status(): SyncStatus;
  /** Sends what can be sent; with untilEmpty, until nothing more can go (or the timeout). */
  drain(options: { untilEmpty: boolean; timeoutMs: number }): Promise<{ sent: number; failed: number; remaining: number }>;
  /** The data file stopped taking writes (disk full, read-only): sending is paused; null when all is well. */
  storage(): Problem | null;
  /** New credentials were saved: resume a paused outbox. */
  credentialsChanged(): void;
  /** A token measured the clock difference anew: the status carries it. */
  clockSkewChanged(): void;
  /** Intake (beside the engine) set taps aside: the status counts them again. */
  tapsChangedElsewhere(): void;
  setOptions(patch: { undoWindowMs?: number; concurrency?: number }): void;
  lastTapAt(): number | null;
  /** What the engine keeps in memory between calls, by count: parsed order bodies, parsed taps' actions (the process's), and the projections of orders taps wait on (the outbox's and the screens'). */
  held(): { bodies: number; actions: number; tapProjections: number; viewProjections: number };
  sendingCount(): number;
  health(): { dataFile: string; integrity: 'ok' | string; schemaVersion: number };
  on<E extends EventName>(event: E, listener: (body: EventBody<E>) => void): () => void;
  /** A day's shift at this counter, from the terminal's own records (core/shift); with a store hub, the store's taps this counter holds too. */
  shift(day: string): ShiftReport;
  /** This counter's name in its store hub (null: none): its own taps are counted under it beside the other counters'. */
  setCounterName(name: string | null): void;
  /** The store hub's side of what the counters share (core/hub/store-records.ts): staff, taught barcodes, shift taps. */
  readonly shared: SharedRecords;
  /** Orders packed twice while counters could not see each other, and other counters' taps heard (engine/conflicts.ts). */
  readonly conflicts: EngineConflicts;
  /** What happened to an order on this terminal, oldest first; null when it never had it. */
  timeline(orderId: string): OrderTimeline | null;
  /** A slip or pick list of an order went to the printer: kept for its timeline. */
  recordPrint(orderId: string, document: OrderPrint, outcome: string): Result<true>;
  /** The store's packers and who is packing at this counter now (stamped on every tap). */
  readonly staff: Staff;
  /** An order's scan-to-pack counts and who marked it packed here. */
  packState(orderId: string): Result<PackState>;
  /** A product code scanned on an order being packed: ticks one unit, or says why not. */
  packScan(orderId: string, code: string): Result<PackScanAnswer>;
  /** "Which item is this?": remembers the barcode as the item's and ticks one unit of it. */
  packTeach(orderId: string, code: string, itemId: string): Result<PackScanAnswer>;
}
