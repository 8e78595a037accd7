/** The updates domain's handlers: the update status (said even where updates are off) and a manager's "install now". */
import type { UpdateStatus, updatesCommands } from '../../../../shared/ipc';
import { fail, ok } from '../../../../shared/result';
import { done, type DomainHandlers, type HandlerKit } from './common';

export function updatesHandlers(kit: HandlerKit): DomainHandlers<typeof updatesCommands> {
  const { withPin } = kit;
  const { deps } = kit;

  const updateStatus = (): UpdateStatus =>
    deps.updates?.status() ?? {
      state: 'disabled',
      currentVersion: deps.version,
      availableVersion: null,
      message: deps.shell === 'web' ? 'Updates are not used in the browser harness.' : 'Updates are turned off in this build.',
      lastCheckAt: null,
    };

  return {
    'updates.status': async () => ok(updateStatus()),
    'updates.installNow': async ({ pin }) =>
      withPin(pin, async () => {
        if (!deps.updates) return fail('invalid', 'Updates are not available here.', 'UPDATES_DISABLED');
        return done(await deps.updates.installNow());
      }),
  };
}
