/** The store hub domain's handlers: its status, and making, joining or leaving one (manager). */
import type { hubCommands } from '../../../../shared/ipc';
import { ok } from '../../../../shared/result';
import type { DomainHandlers, HandlerKit } from './common';

export function hubHandlers(kit: HandlerKit): DomainHandlers<typeof hubCommands> {
  const { withPin } = kit;
  const { hub } = kit.deps;
  return {
    'hub.status': async () => ok(hub.status()),
    'hub.create': async ({ pin, name }) => withPin(pin, () => hub.create(name ?? null)),
    'hub.joinCode': async ({ pin }) => withPin(pin, () => hub.joinCode()),
    'hub.join': async ({ pin, code, name }) => withPin(pin, () => hub.join(code, name ?? null)),
    'hub.leave': async ({ pin }) =>
      withPin(pin, async () => {
        const left = await hub.leave();
        return left.ok ? ok({ done: true as const }) : left;
      }),
  };
}
