/** The chain domain's handlers: the store's link to its chain, and linking or unlinking it (manager). */
import type { chainCommands } from '../../../../shared/ipc';
import { ok } from '../../../../shared/result';
import type { DomainHandlers, HandlerKit } from './common';

export function chainHandlers(kit: HandlerKit): DomainHandlers<typeof chainCommands> {
  const { withPin } = kit;
  const { hub } = kit.deps;
  return {
    'chain.status': async () => ok(await hub.chainStatus()),
    'chain.link': async ({ pin, link }) => withPin(pin, () => hub.linkChain(link)),
    'chain.unlink': async ({ pin }) => withPin(pin, () => hub.unlinkChain()),
  };
}
