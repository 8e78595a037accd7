/**
 * The status domain's handlers: the app, the sync bar and intake. Reads answer something useful
 * even while the engine is down (a status that says why).
 */
import type { IntakeStatus, statusCommands } from '../../../../shared/ipc';
import { fail, ok } from '../../../../shared/result';
import { withSettingsNotice } from '../settings-notice';
import type { DomainHandlers, HandlerKit } from './common';

export function statusHandlers(kit: HandlerKit): DomainHandlers<typeof statusCommands> {
  const { statusWithoutEngine } = kit;
  const { runtime, settings, ...deps } = kit.deps;

  const intakeWithoutEngine = (): IntakeStatus => ({
    condition: 'offline',
    lastCompleteAt: null,
    cursorAt: null,
    lastTriedAt: null,
    nextAt: null,
    intervalMs: settings.get().intakeIntervalMs,
    message: runtime.problem(),
    stillToFetch: 0,
  });

  return {
    'app.info': async () => ok(await deps.info()),
    'sync.status': async () => ok(withSettingsNotice(runtime.engine()?.status() ?? statusWithoutEngine(), settings.problem())),
    'intake.status': async () => ok(runtime.service()?.intake.status() ?? intakeWithoutEngine()),
    'intake.checkNow': async () => {
      const service = runtime.service();
      if (!service) return fail('transient', runtime.problem() ?? 'The terminal is starting; try again in a moment.', 'ENGINE_UNAVAILABLE');
      await service.intake.passOnce();
      return ok(service.intake.status());
    },
  };
}
