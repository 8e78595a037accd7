/**
 * The one way the renderer reaches the engine: `window.packdesk`, set by the preload script
 * (Electron) or the harness bridge (browser). Nothing here knows which shell it runs in.
 */
import type { PackdeskApi } from '../../shared/ipc';

let api: PackdeskApi | null = null;

/** The bridge object if the shell provided a usable one, else null (the app shows why). */
export function findBridge(host: unknown): PackdeskApi | null {
  const candidate = (host as { packdesk?: unknown } | null)?.packdesk as Partial<PackdeskApi> | undefined;
  if (!candidate || typeof candidate.invoke !== 'function' || typeof candidate.on !== 'function') return null;
  return candidate as PackdeskApi;
}

/** Records the bridge once at start; everything else calls `bridge()`. */
export function setBridge(found: PackdeskApi): void {
  api = found;
}

/** The bridge; only called after start, when it is known to exist. */
export function bridge(): PackdeskApi {
  if (!api) throw new Error('Packdesk bridge used before start');
  return api;
}
