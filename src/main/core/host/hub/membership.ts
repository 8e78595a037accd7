/**
 * Settings -> Counters, as the host answers it: making this PC the store hub, showing its join code,
 * joining another PC's hub, and leaving. Each writes the hub's files (core/hub/membership.ts) and
 * then has the link join again as they now say, while the engine runs.
 */
import type { HubStatus } from '../../../../shared/hub';
import type { HubJoin } from '../../../../shared/ipc';
import { ok, type Result } from '../../../../shared/result';
import { createHub, DEFAULT_HUB_PORT, freeLocalPort, joinCodeOf, joinHub, leaveHub } from '../../hub/membership';
import { type LinkContext, noEngine } from './types';

export interface MembershipCommands {
  create(name: string | null, listen?: string): Promise<Result<HubJoin>>;
  joinCode(): Promise<Result<HubJoin>>;
  join(code: string, name: string | null): Promise<Result<HubStatus>>;
  leave(): Promise<Result<true>>;
}

export function membershipCommands(ctx: LinkContext): MembershipCommands {
  const { log } = ctx;
  return {
    async create(name, listen) {
      const e = ctx.engaged();
      if (!e) return noEngine();
      // Training: a hub for this PC alone (try it on one PC); elsewhere every interface of the store's network.
      const address = listen ?? (e.place.environment === 'training' ? `127.0.0.1:${await freeLocalPort()}` : `0.0.0.0:${DEFAULT_HUB_PORT}`);
      const made = await createHub(ctx.placeOf(e), { listen: address, name });
      if (!made.ok) return made;
      log.info('this PC is the store hub now', { listen: made.value.config.listen });
      await ctx.rejoin();
      return ok(made.value.join);
    },
    async joinCode() {
      const e = ctx.engaged();
      return e ? joinCodeOf(ctx.placeOf(e)) : noEngine();
    },
    async join(code, name) {
      const e = ctx.engaged();
      if (!e) return noEngine();
      const joined = await joinHub(ctx.placeOf(e), { code, name });
      if (!joined.ok) return joined;
      log.info('joined the store hub', { counterName: joined.value.counterName });
      await ctx.rejoin();
      return ok(ctx.status());
    },
    async leave() {
      const e = ctx.engaged();
      if (!e) return noEngine();
      // The session first: the lease handed over, the hub process stopped.
      await ctx.partSerially();
      const left = await leaveHub(ctx.placeOf(e));
      await ctx.rejoin();
      if (!left.ok) return left;
      log.info('left the store hub', { was: left.value.was });
      return ok(true);
    },
  };
}
