/**
 * The fleet's status from what the centre holds: each store and its counters with their figures,
 * judged on the centre's clock (when a message arrived there), problems first. A store is stale
 * when nothing of it arrived for 60 s; a counter is offline when it has not been heard for 25 s
 * (it sends every 10 s), so a counter that stops is shown within 30 s.
 */
import { compareVersions } from '../main/core/hub/server/program';
import type { RefusalCounts } from './refusals';
import type { FleetReading } from './central';
import type { CounterHealth, StoreSummary } from '../main/core/hub/chain/north';

export const STALE_AFTER_MS = 60_000;
export const OFFLINE_AFTER_MS = 25_000;
/** A counter holding a tap unsent this long has a backlog, whatever the count. */
const BACKLOG_OLDEST_MS = 5 * 60_000;
/** This many taps waiting is a backlog even if they are new. */
const BACKLOG_COUNT = 10;
/** A clock further off the order service's than this is a problem (tokens and late alarms go wrong). */
const CLOCK_OFF_MS = 2 * 60_000;

/** What can be wrong with a counter, worst first. */
export type CounterProblem = 'offline' | 'no-service' | 'backlog' | 'old-version' | 'clock-off' | 'storage';
const PROBLEM_ORDER: readonly CounterProblem[] = ['offline', 'no-service', 'backlog', 'old-version', 'clock-off', 'storage'];

export interface CounterRow {
  readonly health: CounterHealth;
  readonly lastHeardAt: number;
  readonly problems: readonly CounterProblem[];
}

export interface StoreRow {
  readonly storeId: string;
  readonly stale: boolean;
  /** When anything of this store last arrived at the centre; null: never. */
  readonly lastArrivedAt: number | null;
  readonly summary: StoreSummary | null;
  readonly counters: readonly CounterRow[];
}

export interface FleetStatus {
  readonly at: number;
  /** Messages the centre did not believe (the newest of their subjects), by why: belief.ts. */
  readonly refused: RefusalCounts;
  /** The newest counter version seen in the fleet (a counter below it is on an old version). */
  readonly newestVersion: string | null;
  readonly stores: readonly StoreRow[];
}

function counterProblems(health: CounterHealth, lastHeardAt: number, now: number, newest: string | null): CounterProblem[] {
  const found = new Set<CounterProblem>();
  if (now - lastHeardAt > OFFLINE_AFTER_MS) found.add('offline');
  if (!health.online) found.add('no-service');
  const oldestAge = health.oldestWaitingAt === null ? 0 : health.at - health.oldestWaitingAt;
  if (health.tapsWaiting >= BACKLOG_COUNT || (health.tapsWaiting > 0 && oldestAge > BACKLOG_OLDEST_MS)) found.add('backlog');
  if (newest && compareVersions(health.version, newest) < 0) found.add('old-version');
  if (health.clockDifferenceMs !== null && Math.abs(health.clockDifferenceMs) > CLOCK_OFF_MS) found.add('clock-off');
  if (health.storageWarnings.length > 0) found.add('storage');
  return PROBLEM_ORDER.filter((p) => found.has(p));
}

/** A row's weight for sorting: stale stores and the worst counter problems first. */
function weight(problems: readonly CounterProblem[]): number {
  return problems.length === 0 ? PROBLEM_ORDER.length : PROBLEM_ORDER.indexOf(problems[0]!);
}

/**
 * The newest version in the fleet, never raised by one store's word alone: a version counts once
 * counters of two stores or more run it (in a fleet of one store, two of its counters or more).
 * A store whose hub was tampered with can say anything of its own counters, not of the chain's.
 */
export function newestVersion(counters: readonly Pick<CounterHealth, 'storeId' | 'version'>[], storeCount: number): string | null {
  const witnesses = new Map<string, { stores: Set<string>; counters: number }>();
  for (const c of counters) {
    const w = witnesses.get(c.version) ?? { stores: new Set<string>(), counters: 0 };
    w.stores.add(c.storeId);
    w.counters += 1;
    witnesses.set(c.version, w);
  }
  let newest: string | null = null;
  for (const [version, w] of witnesses) {
    const believed = storeCount > 1 ? w.stores.size >= 2 : w.counters >= 2;
    if (believed && (newest === null || compareVersions(version, newest) > 0)) newest = version;
  }
  return newest;
}

/** The fleet's status at `now` (the centre's clock) from what was read. */
export function fleetStatus(reading: FleetReading, now: number): FleetStatus {
  const counters = reading.latest.flatMap((a) => (a.message.kind === 'counter' ? [a.message] : []));
  // Only stores the fleet sources are listed (belief.ts already dropped any other).
  const ids = new Set<string>(reading.stores);
  const newest = newestVersion(counters, ids.size);
  const stores: StoreRow[] = [...ids].map((storeId) => {
    const mine = reading.latest.filter((a) => a.message.storeId === storeId);
    const lastArrivedAt = mine.length ? Math.max(...mine.map((a) => a.arrivedAt)) : null;
    const summary = mine.find((a) => a.message.kind === 'summary')?.message as StoreSummary | undefined;
    const rows: CounterRow[] = mine
      .flatMap((a) => (a.message.kind === 'counter' ? [{ health: a.message, lastHeardAt: a.arrivedAt }] : []))
      .map((c) => ({ ...c, problems: counterProblems(c.health, c.lastHeardAt, now, newest) }))
      .sort((x, y) => weight(x.problems) - weight(y.problems) || x.health.counterName.localeCompare(y.health.counterName));
    return { storeId, stale: lastArrivedAt === null || now - lastArrivedAt > STALE_AFTER_MS, lastArrivedAt, summary: summary ?? null, counters: rows };
  });
  const storeWeight = (s: StoreRow): number => (s.stale ? -1 : Math.min(PROBLEM_ORDER.length, ...s.counters.map((c) => weight(c.problems))));
  stores.sort((a, b) => storeWeight(a) - storeWeight(b) || a.storeId.localeCompare(b.storeId));
  return { at: now, refused: reading.refused, newestVersion: newest, stores };
}
