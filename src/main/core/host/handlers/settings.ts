/**
 * The settings domain's handlers: the settings, the credentials, the manager PIN, the support
 * bundle and leaving kiosk mode. Everything that changes something asks for the manager PIN first.
 */
import type { settingsCommands } from '../../../../shared/ipc';
import { fail, ok } from '../../../../shared/result';
import { storeSettingsOf } from '../../hub/store-settings';
import { done, type DomainHandlers, type HandlerKit } from './common';

export function settingsHandlers(kit: HandlerKit): DomainHandlers<typeof settingsCommands> {
  const { withPin, pinUnavailable, statusWithoutEngine } = kit;
  const { runtime, settings, pins, log, hub, ...deps } = kit.deps;
  return {
    'settings.get': async () => ok(settings.get()),
    'settings.update': async ({ pin, patch }) =>
      withPin(pin, () => {
        const hadProblem = settings.problem() !== null;
        const next = settings.update(patch);
        // The engine's own status did not change, so it would not say so: the settings sentence goes now.
        if (hadProblem) deps.emit?.('sync.status', runtime.engine()?.status() ?? statusWithoutEngine());
        runtime.engine()?.setOptions({ undoWindowMs: next.undoWindowMs, concurrency: next.concurrency });
        // The store's settings (scan to pack, how long an order stays with its counter) go to every counter of its hub.
        hub.storeSettingsChanged(storeSettingsOf(patch));
        // A new provider id or interval: forget a refusal of access and check again at once.
        if (patch.serviceProviderId !== undefined || patch.intakeIntervalMs !== undefined) runtime.service()?.intake.settingsChanged();
        log.info('settings changed', { keys: Object.keys(patch) });
        return ok(next);
      }),
    'credentials.save': async ({ pin, serviceProviderId, ...request }) =>
      withPin(pin, async () => {
        // The provider id comes with the credentials in the marketplace's e-mail; it is a setting, not a secret.
        if (serviceProviderId !== undefined) settings.update({ serviceProviderId });
        const saved = await deps.saveCredentials(request);
        if (saved.ok && saved.value.result === 'saved') runtime.service()?.intake.settingsChanged();
        return saved;
      }),
    'pin.verify': async ({ pin }) => {
      if (!pins) return pinUnavailable();
      const r = await pins.verify(pin);
      return r.ok ? ok({ valid: r.value }) : r;
    },
    'pin.set': async ({ currentPin, newPin }) => {
      if (!pins) return pinUnavailable();
      // The manager PIN stays apart from every packer's: a packer typing theirs must never unlock Settings.
      if (await runtime.engine()?.staff.isPackerPin(newPin))
        return fail('invalid', "A packer already has this PIN. The manager PIN must be different.", 'PIN_IS_PACKERS');
      const r = await pins.set(newPin, currentPin);
      if (r.ok) log.info('manager PIN set');
      return done(r);
    },
    'support.exportBundle': async ({ pin }) => withPin(pin, deps.exportBundle),
    'kiosk.leave': async ({ pin }) =>
      withPin(pin, () => {
        if (!deps.kiosk) return fail('invalid', 'This terminal is not in kiosk mode.', 'NOT_IN_KIOSK');
        deps.kiosk.leave();
        log.info('kiosk mode left by a manager');
        return ok({ done: true as const });
      }),
  };
}
