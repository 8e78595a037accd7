/**
 * The contract's Transport over Electron IPC. Only the contract's channels are reachable, and the
 * renderer's listeners receive the event body alone: never the IpcRendererEvent, whose `sender`
 * is ipcRenderer itself. The ipcRenderer is injected, so this is tested under plain Node.
 */
import { replySchema, commandChannel, eventChannel, isCommandName, isEventName, type Reply, type Transport } from '../shared/ipc';

/** The part of Electron's ipcRenderer this transport uses. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

const unreadable: Reply<never> = { ok: false, problem: { kind: 'permanent', message: 'The terminal sent an unreadable answer.' } };

/** Builds the Transport the preload hands to createApi. */
export function createIpcTransport(ipc: IpcRendererLike): Transport {
  return {
    async invoke(command, payload) {
      if (!isCommandName(command)) return { ok: false, problem: { kind: 'invalid', message: `Unknown command ${String(command)}` } };
      let raw: unknown;
      try {
        raw = await ipc.invoke(commandChannel(command), payload);
      } catch {
        // ipcRenderer.invoke rejects when the main side threw or is gone; the reason stays in the main log.
        return { ok: false, problem: { kind: 'transient', message: 'The terminal did not answer. Try again.' } };
      }
      const parsed = replySchema().safeParse(raw);
      if (!parsed.success) return unreadable;
      return parsed.data.ok ? { ok: true, value: parsed.data.value } : { ok: false, problem: parsed.data.problem };
    },
    subscribe(event, listener) {
      if (!isEventName(event)) return () => undefined;
      const channel = eventChannel(event);
      const handler = (_event: unknown, body: unknown): void => listener(body);
      ipc.on(channel, handler);
      return () => {
        ipc.removeListener(channel, handler);
      };
    },
  };
}
