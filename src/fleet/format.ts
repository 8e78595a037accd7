/** The fleet's status as plain text for a support person at a terminal: problems first, one line per counter. */
import { refusalLine } from './refusals';
import type { CounterProblem, FleetStatus } from './status';

/** A problem in the support team's words (the text status and the fleet page). */
export const PROBLEM_WORDS: Readonly<Record<CounterProblem, string>> = {
  offline: 'OFFLINE (not heard for 25 s)',
  'no-service': 'cannot reach the order service',
  backlog: 'taps waiting too long',
  'old-version': 'old version',
  'clock-off': 'clock off',
  storage: 'storage warning',
};

/** How long ago, in words a support person reads at a glance. */
export const ago = (now: number, at: number | null): string => {
  if (at === null) return 'never';
  const s = Math.max(0, Math.round((now - at) / 1000));
  return s < 120 ? `${s} s ago` : s < 7200 ? `${Math.round(s / 60)} min ago` : `${Math.round(s / 3600)} h ago`;
};

/** The status as lines: a store, its summary, then its counters with their figures and problems. */
export function formatFleet(status: FleetStatus): string {
  if (status.stores.length === 0) return 'No stores yet: add one with `fleet stores add <store id>`.\n';
  const now = status.at;
  const lines: string[] = [];
  const refused = refusalLine(status.refused);
  if (refused) lines.push(`messages refused: ${refused}`);
  for (const store of status.stores) {
    const head = [`${store.storeId}`, store.stale ? `STALE: nothing arrived for ${ago(now, store.lastArrivedAt).replace(' ago', '')}` : `heard ${ago(now, store.lastArrivedAt)}`];
    if (store.summary) {
      const s = store.summary;
      head.push(`waiting for Accept ${s.awaitingAccept}`, `being packed ${s.beingPacked}`, `late ${s.late}`, `cancelled alarms ${s.cancelledAlarmsOpen}`);
    }
    lines.push(head.join('  '));
    for (const c of store.counters) {
      const h = c.health;
      const parts = [
        `  ${h.counterName} (${h.counterId})`,
        `v${h.version}`,
        `taps waiting ${h.tapsWaiting}${h.oldestWaitingAt !== null ? ` (oldest ${ago(h.at, h.oldestWaitingAt)})` : ''}`,
        `last send ${ago(h.at, h.lastSentAt)}`,
        `clock ${h.clockDifferenceMs === null ? '?' : `${h.clockDifferenceMs >= 0 ? '+' : ''}${Math.round(h.clockDifferenceMs / 1000)} s`}`,
        `intake ${ago(h.at, h.lastIntakeAt)}`,
      ];
      if (h.storageWarnings.length) parts.push(`storage: ${h.storageWarnings.join(', ')}`);
      parts.push(c.problems.length ? c.problems.map((p) => PROBLEM_WORDS[p]).join('; ') : 'ok');
      lines.push(parts.join('  '));
    }
  }
  return lines.join('\n') + '\n';
}
