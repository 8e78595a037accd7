/** The outbox domain's handlers: the taps waiting, sent or failed, and what a person may do with one. */
import type { outboxCommands } from '../../../../shared/ipc';
import { ok } from '../../../../shared/result';
import { done, type DomainHandlers, type HandlerKit } from './common';

export function outboxHandlers(kit: HandlerKit): DomainHandlers<typeof outboxCommands> {
  const { engineOr, withPin } = kit;
  const { runtime, log } = kit.deps;
  return {
    'outbox.list': async () => ok(runtime.engine()?.listOutbox() ?? []),
    'outbox.retry': async ({ entryId }) => engineOr((e) => done(e.retry(entryId))),
    'outbox.discard': async ({ entryId, pin }) =>
      withPin(pin, () =>
        engineOr((e) => {
          const r = e.discard(entryId);
          if (r.ok) log.warn('outbox entry discarded by a manager', { entryId });
          return done(r);
        }),
      ),
  };
}
