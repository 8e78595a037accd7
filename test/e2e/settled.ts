/**
 * "Nothing more is coming" as a signal rather than a fixed wait. A test that checks a tap was NOT
 * sent (an undone tap, the second half of a double tap, a late Enter that must press nothing)
 * used to sleep a couple of seconds and hope; on a loaded machine that hope is what fails first,
 * and on a fast one the sleep is wasted. Here the test waits for the terminal to be done instead:
 * 1. the page's input has been handled and what it rendered has run its effects (the next frame);
 * 2. every call the page made before now has reached the host: a probe call sent after them on
 *    the same ordered socket comes back;
 * 3. no call is being handled by the host (the counter `countCalls` installs);
 * 4. none of the order's outbox entries is waiting for its undo window or being sent.
 * After that the service has had every request the terminal will ever make for those taps, so an
 * assertion on what it received is final.
 */
import type { Page } from 'playwright-core';
import type { WebHarness } from '../../src/web';
import type { OutboxEntryView } from '../../src/shared/ipc';
import { until } from '../support/until';

/** What `untilTapsSettled` needs of a terminal under test. */
export interface Settling {
  readonly page: Page;
  readonly harness: WebHarness;
  /** Calls the host has in hand (see `countCalls`). */
  callsInFlight(): number;
}

/**
 * Counts the host's calls in progress, from the page or the test: `harness.host.handle` is
 * wrapped, and the harness's socket looks it up at each call. A test that wraps it again (to
 * refuse a command, say) wraps the counting one, so it still counts.
 */
export function countCalls(harness: WebHarness): () => number {
  let inFlight = 0;
  const handle = harness.host.handle.bind(harness.host);
  harness.host.handle = (async (command: Parameters<typeof handle>[0], payload: Parameters<typeof handle>[1]) => {
    inFlight++;
    try {
      return await handle(command, payload);
    } finally {
      inFlight--;
    }
  }) as typeof harness.host.handle;
  return () => inFlight;
}

const WAITING: ReadonlySet<OutboxEntryView['state']> = new Set(['queued', 'sending']);

/** Waits for the page's next frame and the task after it: what changed before is on screen, its effects run. */
export async function afterNextFrame(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
}

/** No call in the host's hands: every one the page or the test made has been answered. */
async function untilNoCalls(t: Settling, what: string, more: () => Promise<boolean> = async () => true, timeoutMs = 20_000): Promise<void> {
  await until(what, async () => t.callsInFlight() === 0 && (await more()) && t.callsInFlight() === 0, timeoutMs, 50);
}

/** Steps 1 to 3: the page's input handled and every call it made answered (see the file's comment). */
async function untilCallsAnswered(t: Settling): Promise<void> {
  await afterNextFrame(t.page);
  const probe = await t.page.evaluate(async () => {
    const api = (window as unknown as { packdesk: { invoke(c: string, p: unknown): Promise<{ ok: boolean }> } }).packdesk;
    return (await api.invoke('outbox.list', {})).ok;
  });
  if (!probe) throw new Error("the page's probe call to the host was refused: the page is not connected");
  await untilNoCalls(t, 'every call the page made to be answered');
}

/**
 * Waits until what the page was just given (keys, a click) has had every effect it will have: the
 * input handled, every call it led to answered, and what those answers changed drawn. For "this
 * opened nothing" checks.
 */
export async function untilSettled(t: Settling): Promise<void> {
  await untilCallsAnswered(t);
  await afterNextFrame(t.page);
}

/**
 * Waits until the terminal will send nothing more for `orderId` (see the file's comment), at most
 * `timeoutMs`: an entry still in its undo window is waited for until it is sent, so a tap that
 * should not exist fails the test's assertion rather than slipping past it.
 */
export async function untilTapsSettled(t: Settling, orderId: string, timeoutMs = 20_000): Promise<void> {
  await untilCallsAnswered(t);
  await untilNoCalls(
    t,
    `the terminal to be done with ${orderId}'s taps (no call in hand, no entry queued or sending)`,
    async () => {
      const reply = await t.harness.host.handle('outbox.list', {});
      if (!reply.ok) throw new Error(`outbox.list refused: ${reply.problem.message}`);
      return !(reply.value as OutboxEntryView[]).some((e) => e.orderId === orderId && WAITING.has(e.state));
    },
    timeoutMs,
  );
  await afterNextFrame(t.page);
}
