/**
 * The staff domain's handlers: the staff list (manager), the packer signed in at this counter, and
 * packing by scan. Names are the store's own words; PINs never appear in a log line.
 */
import type { PackerStatus, staffCommands } from '../../../../shared/ipc';
import { ok } from '../../../../shared/result';
import { done, type DomainHandlers, type HandlerKit } from './common';

export function staffHandlers(kit: HandlerKit): DomainHandlers<typeof staffCommands> {
  const { engineOr, withPin, noEngine } = kit;
  const { runtime, log } = kit.deps;

  function packerStatus(): PackerStatus {
    const staff = runtime.engine()?.staff;
    return { packer: staff?.current() ?? null, named: staff?.named() ?? false };
  }

  return {
    'staff.list': async ({ pin }) => withPin(pin, () => engineOr((e) => ok(e.staff.list()))),
    'staff.add': async ({ pin, name, packerPin }) =>
      withPin(pin, async () => {
        const engine = runtime.engine();
        if (!engine) return noEngine();
        const added = await engine.staff.add(name, packerPin);
        // Names are the store's own words; PINs never appear in a log line.
        if (added.ok) log.info('packer added to the staff list', { id: added.value.id, withPin: added.value.hasPin });
        return added;
      }),
    'staff.update': async ({ pin, id, name, packerPin, newBadge }) =>
      withPin(pin, async () => {
        const engine = runtime.engine();
        if (!engine) return noEngine();
        const patch = {
          ...(name !== undefined ? { name } : {}),
          ...(packerPin !== undefined ? { pin: packerPin } : {}),
          ...(newBadge ? { newBadge } : {}),
        };
        const updated = await engine.staff.update(id, patch);
        if (updated.ok) log.info('packer changed on the staff list', { id, keys: Object.keys(patch) });
        return updated;
      }),
    'staff.remove': async ({ pin, id }) => withPin(pin, () => engineOr((e) => done(e.staff.remove(id)))),
    'staff.current': async () => ok(packerStatus()),
    'staff.signIn': async (payload) => {
      const engine = runtime.engine();
      if (!engine) return noEngine();
      const r = 'badge' in payload ? engine.staff.signInByBadge(payload.badge) : await engine.staff.signInByPin(payload.packerPin);
      if (!r.ok) return r;
      log.info('packer signed in', { id: r.value.id, by: 'badge' in payload ? 'badge' : 'pin' });
      return ok(packerStatus());
    },
    'staff.signOut': async () => {
      runtime.engine()?.staff.signOut();
      return ok(packerStatus());
    },
    'packing.get': async ({ orderId }) => engineOr((e) => e.packState(orderId)),
    'packing.scan': async ({ orderId, code }) => engineOr((e) => e.packScan(orderId, code)),
    'packing.teach': async ({ orderId, code, itemId }) => engineOr((e) => e.packTeach(orderId, code, itemId)),
  };
}
