/** Waiting for intake's first pass: the moment a terminal's morning orders are all in its queue. */
import type { Reply } from '../../src/shared/ipc';

/** Something that answers commands like the host. */
type Handles = { handle(command: string, payload: unknown): Promise<Reply<unknown>> };

/**
 * Resolves once intake has completed a pass (training reads every seeded order after the engine
 * starts, so the queue fills in by itself); at once when no engine runs. Polls every 20 ms.
 */
export async function firstIntakePass(host: Handles, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const reply = await host.handle('intake.status', {});
    if (!reply.ok) return;
    const status = reply.value as { lastCompleteAt: number | null; condition: string };
    if (status.lastCompleteAt !== null || status.condition === 'noAccess' || status.condition === 'notConfigured') return;
    if (Date.now() > end) throw new Error(`intake's first pass did not complete within ${timeoutMs} ms (${status.condition})`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
