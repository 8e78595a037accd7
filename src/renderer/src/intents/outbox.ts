/**
 * The outbox's taps: undo the last one, send one again, drop one for good (manager PIN), read the
 * list again.
 */
import type { Problem } from '../../../shared/result';
import { actionSummary } from '../orderFacts';
import { useOrders } from '../store/orders';
import { useOutbox } from '../store/outbox';
import { useUi } from '../store/ui';
import { command, refuse } from './bridge';

/** Takes back the offered tap, if the engine has not sent it yet. */
export async function undo(entryId: number): Promise<void> {
  const ui = useUi.getState();
  const offer = ui.undo;
  const reply = await command('taps.undo', { entryId });
  ui.offerUndo(null);
  if (!reply.ok) {
    refuse(reply.problem);
    return;
  }
  if (!offer) {
    ui.say('info', (t) => t('common:undo.undone'));
    return;
  }
  const order = useOrders.getState().views.get(offer.orderId)?.order ?? null;
  ui.say('info', (t) => t('common:undo.undoneWhat', { what: actionSummary(t, offer.action, order) }));
}

/** Sends a failed or waiting entry again now. */
export async function retry(entryId: number): Promise<void> {
  const reply = await command('outbox.retry', { entryId });
  if (!reply.ok) refuse(reply.problem);
  else useUi.getState().say('info', (t) => t('outbox:sendingAgain'));
}

/** Drops an entry for good (manager PIN); returns the refusal (the dialog words it), if any. */
export async function discard(entryId: number, pin: string): Promise<Problem | null> {
  const reply = await command('outbox.discard', { entryId, pin });
  if (!reply.ok) return reply.problem;
  useUi.getState().say('info', (t) => t('outbox:discarded'));
  return null;
}

/** Reads the pending outbox again (on opening its screen), in case an event was missed. */
export async function refreshOutbox(): Promise<void> {
  const reply = await command('outbox.list', {});
  if (reply.ok) useOutbox.getState().replacePending(reply.value);
}
