/** Putting the pieces together for a host (the app, `packdesk run`, `packdesk hub create`): the program found, its version read, a supervisor made. */
import type { Logger } from '../../log/logger';
import type { Timers } from '../../time';
import { hubFiles } from './hub-files';
import { findNatsServer, readNatsVersion } from './program';
import { HubSupervisor, type SupervisorOptions } from './supervisor';

export interface PrepareHubServerOptions {
  readonly dataDir: string;
  /** HOST:PORT nats-server listens on (as in the hub configuration). */
  readonly listen: string;
  /** `PACKDESK_NATS_SERVER`, when set. */
  readonly explicitProgram?: string | undefined;
  /** The installed app's resources folder (Electron's process.resourcesPath), when packaged. */
  readonly resourcesPath?: string | undefined;
  readonly timers?: Timers;
  readonly now?: () => number;
  readonly logger?: Logger;
  /** Anything else the supervisor takes (backoff, grace, ready timeout). */
  readonly supervisor?: Partial<SupervisorOptions>;
}

export type PreparedHubServer =
  | { readonly ok: true; readonly supervisor: HubSupervisor; readonly program: string; readonly version: string }
  | { readonly ok: false; readonly message: string };

/** Finds nats-server, reads its version and makes (does not start) the supervisor for this data folder's hub. */
export async function prepareHubServer(options: PrepareHubServerOptions): Promise<PreparedHubServer> {
  const found = findNatsServer({ explicit: options.explicitProgram, resourcesPath: options.resourcesPath });
  if (!found.ok) return found;
  const version = await readNatsVersion(found.program);
  if (!version.ok) return version;
  const supervisor = new HubSupervisor({
    program: found.program,
    version: version.version,
    files: hubFiles(options.dataDir),
    listen: options.listen,
    ...(options.timers ? { timers: options.timers } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    ...options.supervisor,
  });
  return { ok: true, supervisor, program: found.program, version: version.version };
}
