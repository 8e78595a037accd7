/**
 * The rules that find an order worked on twice while counters could not see each other (issue 39),
 * as pure functions over taps: no hub, no data file. conflicts.ts applies them when counters find
 * each other again; the engine keeps what they find.
 *
 * Two taps on one order, at two counters, were made apart when neither counter had heard of the
 * other's tap when it made its own (each tap carries the other counters' taps it had heard of:
 * `seen`), and at least one of them was made without asking the hub (`unchecked`): with the hub
 * answering, a claim keeps a second counter from packing (claims.ts), so checked taps at two
 * counters are a hand-over, never a conflict. Only work of one kind clashes: two counters packing
 * (accept, reject, cancel, start packing, mark packed, a unit cut), or two handing over (out for
 * delivery, delivered, complete). Packing at one counter and handing over at another is the store's
 * ordinary flow (a packed order is handed over at any counter), and an invoice number is nobody's.
 */
import type { ConflictParty, ConflictRecord } from '../../../shared/hub';
import { type Action, type ActionInput, buildAction } from '../../../shared/protocol';

/** What finding taps made apart reads of a tap (this counter's own, or another's heard through the hub). */
export interface WorkTap {
  readonly requestId: string;
  readonly counterId: string;
  readonly counterName: string;
  readonly packer: string | null;
  readonly action: Action;
  readonly unchecked: boolean;
  /** Other counters' taps on the order heard of when it was made; null: not known (counted as all of them). */
  readonly seen: readonly string[] | null;
  /** Taken back in its undo window: nothing was done. */
  readonly undone: boolean;
}

/** The kind of work a tap is, as far as clashes go; null: clashes with nothing. */
export function workOf(action: Action): 'packing' | 'handOver' | null {
  if (action.type === 'ITEM_UNIT_UPDATE') return 'packing';
  if (action.type === 'CLIENT_ORDER_INFO_UPDATE') return null;
  if (action.type === 'ORDER_STATE_UPDATE') return action.orderState.toUpperCase() === 'COMPLETED' ? 'handOver' : 'packing';
  const state = action.fulfillmentState.toUpperCase();
  return state === 'PACKING' || state === 'PACKED' ? 'packing' : 'handOver';
}

/** Whether a tap as typed hands a packed order over: anyone's at any counter, the claim left where it was packed. */
export function handsOver(input: ActionInput): boolean {
  const built = buildAction(input);
  return built.ok && workOf(built.value) === 'handOver';
}

/** Whether two taps at two counters were made apart (the module comment's rule). */
export function madeApart(a: WorkTap, b: WorkTap): boolean {
  if (a.counterId === b.counterId || a.undone || b.undone) return false;
  if (!a.unchecked && !b.unchecked) return false;
  const kind = workOf(a.action);
  if (kind === null || kind !== workOf(b.action)) return false;
  if (a.seen === null || b.seen === null) return false;
  return !a.seen.includes(b.requestId) && !b.seen.includes(a.requestId);
}

/** The packers of some taps, named once each, in the order they tapped. */
function packersOf(taps: readonly WorkTap[]): string[] {
  return [...new Set(taps.flatMap((t) => (t.packer ? [t.packer] : [])))].slice(0, 8);
}

/**
 * The conflict this counter's taps on an order make with other counters' (null: none): every other
 * counter with a tap made apart from one of this counter's, and this counter.
 */
export function findApart(orderId: string, own: readonly WorkTap[], others: readonly WorkTap[], raisedAt: number): ConflictRecord | null {
  const pairs = own.flatMap((x) => others.filter((y) => madeApart(x, y)).map((y) => [x, y] as const));
  if (pairs.length === 0) return null;
  const mine = [...new Set(pairs.map(([x]) => x))];
  const theirs = [...new Set(pairs.map(([, y]) => y))];
  const me = mine[0]!;
  const parties: ConflictParty[] = [{ counterId: me.counterId, counterName: me.counterName, packers: packersOf(mine) }];
  for (const y of theirs) {
    if (parties.some((p) => p.counterId === y.counterId)) continue;
    const at = theirs.filter((t) => t.counterId === y.counterId);
    parties.push({ counterId: y.counterId, counterName: y.counterName, packers: packersOf(at) });
  }
  return { orderId, parties: inOrder(parties).slice(0, 8), taps: [...mine, ...theirs].map((t) => t.requestId).slice(0, 256), raisedAt, settled: null };
}

/**
 * Two words on one order's conflict made one: every counter and packer named in either, every tap,
 * the earlier finding. `base`'s settlement stands when both have one (the hub's, when base is the
 * hub's: the first settlement to reach the hub wins).
 */
export function mergeConflict(base: ConflictRecord, other: ConflictRecord): ConflictRecord {
  const parties: ConflictParty[] = base.parties.map((p) => ({ ...p, packers: [...p.packers] }));
  for (const p of other.parties) {
    const known = parties.find((q) => q.counterId === p.counterId);
    if (!known) parties.push({ ...p, packers: [...p.packers] });
    else for (const name of p.packers) if (!known.packers.includes(name) && known.packers.length < 8) known.packers.push(name);
  }
  return {
    orderId: base.orderId,
    parties: inOrder(parties).slice(0, 8),
    taps: [...new Set([...base.taps, ...other.taps])].slice(0, 256),
    raisedAt: Math.min(base.raisedAt, other.raisedAt),
    settled: base.settled ?? other.settled,
  };
}

/** Counters in one order everywhere ("Counter 1" before "Counter 2", "Counter 10" after "Counter 9"), so every counter words a conflict alike. */
function inOrder(parties: ConflictParty[]): ConflictParty[] {
  return parties.sort((a, b) => a.counterName.localeCompare(b.counterName, 'en', { numeric: true }) || (a.counterId < b.counterId ? -1 : a.counterId > b.counterId ? 1 : 0));
}

/** A record with its counters in their one order. */
export function canonical(record: ConflictRecord): ConflictRecord {
  return { ...record, parties: inOrder([...record.parties]) };
}

/** Whether two records say the same (compared as the hub and the data file hold them). */
export function sameConflict(a: ConflictRecord, b: ConflictRecord): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
