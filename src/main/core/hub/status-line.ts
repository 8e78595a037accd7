/**
 * The store hub in one line of plain words, for support: `packdesk run` prints it at each change,
 * `doctor` and the support bundle carry it. Never holds the store's secret (a status has none).
 */
import type { HubStatus } from '../../../shared/hub';

/** Who takes in orders for this counter, in words. */
export function intakeWords(status: HubStatus): string {
  switch (status.mode) {
    case 'solo':
      return 'this counter (no store hub)';
    case 'away':
      return 'this counter, on its own (the hub is away)';
    case 'connecting':
      return 'nobody here yet (waiting for the hub)';
    case 'connected':
      return status.intakeHolder ? status.intakeHolder.counterName : 'nobody yet (the lease is free)';
  }
}

/** Role, connection (or why not), the hub program on the hub PC, who takes in orders, counters there. */
export function hubLine(status: HubStatus): string {
  if (status.role === 'none') return `no store hub: a one-counter store; takes in orders: ${intakeWords(status)}${status.problem ? `; ${status.problem}` : ''}`;
  const who = `${status.role === 'hub' ? 'store hub' : 'counter'} "${status.counterName ?? '?'}"`;
  const link = status.mode === 'connected' ? 'connected' : `${status.mode === 'away' ? 'hub away' : 'not connected yet'}${status.problem ? `: ${status.problem}` : ''}`;
  const server = status.server
    ? `; hub program ${status.server.running ? `running (pid ${status.server.pid ?? '?'}, nats-server ${status.server.version ?? '?'}, ${status.server.listen})` : 'NOT running'}${status.server.problem ? `: ${status.server.problem}` : ''}`
    : '';
  const present = status.counters.filter((c) => c.present).map((c) => c.counterName);
  const counters = status.mode === 'connected' ? `; counters present: ${present.length > 0 ? present.join(', ') : 'none'}` : '';
  return `${who}, ${link}${server}; takes in orders: ${intakeWords(status)}${counters}`;
}

/** Whether the hub line is fine: no hub and nothing wrong, or connected with the hub program (on the hub PC) running. */
export function hubOk(status: HubStatus): boolean {
  return status.role === 'none' ? status.problem === null : status.mode === 'connected' && (status.server?.running ?? true);
}
