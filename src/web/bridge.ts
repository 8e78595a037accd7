/**
 * Runs in the page before the renderer's module: builds `window.packdesk` with the same
 * `createApi` the Electron preload uses, over a WebSocket to the harness instead of IPC. The
 * renderer cannot tell the shells apart. The per-run token arrives in the URL fragment (never sent
 * to the server in a request line or a Referer); it is moved to sessionStorage so a reload works and
 * the address bar stops showing it.
 */
import { EVENTS, createApi, type CommandName, type EventName, type PackdeskApi, type Reply, type Transport } from '../shared/ipc';
import { IPC_PATH, ServerFrameSchema } from './wire';

const TOKEN_KEY = 'packdesk.harnessToken';
const QUEUED_CALL_TIMEOUT_MS = 10_000;

function takeToken(): string {
  const match = /(?:^#|&)t=([A-Za-z0-9_-]+)/.exec(window.location.hash);
  if (match?.[1]) {
    sessionStorage.setItem(TOKEN_KEY, match[1]);
    const rest = window.location.hash.replace(/(^#|&)t=[A-Za-z0-9_-]+/, '$1').replace(/^#&?$/, '');
    history.replaceState(null, '', `${window.location.pathname}${window.location.search}${rest}`);
    return match[1];
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? '';
}

const unreachable = (): Reply<never> => ({
  ok: false,
  problem: { kind: 'transient', message: 'The terminal service is not reachable. Try again in a moment.', code: 'HARNESS_DISCONNECTED' },
});

/** A Transport over a WebSocket that reconnects with a capped backoff; calls made while down wait for it. */
function createWsTransport(url: string): Transport {
  const listeners = new Map<EventName, Set<(body: unknown) => void>>();
  const pending = new Map<number, (reply: Reply<unknown>) => void>();
  /** Frames waiting for the socket to open, by call id. */
  const waiting = new Map<number, string>();
  let socket: WebSocket | null = null;
  let open = false;
  let nextId = 1;
  let delay = 250;

  const connect = (): void => {
    const ws = new WebSocket(url);
    socket = ws;
    ws.onopen = () => {
      open = true;
      delay = 250;
      for (const frame of waiting.values()) ws.send(frame);
      waiting.clear();
    };
    ws.onmessage = (message) => {
      if (typeof message.data !== 'string') return;
      let json: unknown;
      try {
        json = JSON.parse(message.data);
      } catch {
        return;
      }
      const frame = ServerFrameSchema.safeParse(json);
      if (!frame.success) return;
      if (frame.data.type === 'reply') {
        const resolve = pending.get(frame.data.id);
        pending.delete(frame.data.id);
        resolve?.(frame.data.reply as Reply<unknown>);
      } else if (Object.prototype.hasOwnProperty.call(EVENTS, frame.data.event)) {
        for (const listener of listeners.get(frame.data.event as EventName) ?? []) listener(frame.data.body);
      }
    };
    ws.onclose = () => {
      open = false;
      socket = null;
      // Calls in flight may or may not have run; the renderer re-reads state after a failure.
      for (const resolve of pending.values()) resolve(unreachable());
      pending.clear();
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 5_000);
    };
  };
  connect();

  return {
    invoke(command: CommandName, payload: unknown) {
      return new Promise<Reply<unknown>>((resolve) => {
        const id = nextId++;
        pending.set(id, resolve);
        const frame = JSON.stringify({ type: 'invoke', id, command, payload });
        if (open && socket) return socket.send(frame);
        waiting.set(id, frame);
        // A call must not hang while the host is away: give up on it after a while.
        setTimeout(() => {
          if (!waiting.delete(id)) return;
          pending.delete(id);
          resolve(unreachable());
        }, QUEUED_CALL_TIMEOUT_MS);
      });
    },
    subscribe(event, listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener);
      return () => set.delete(listener);
    },
  };
}

const token = takeToken();
const api: PackdeskApi = createApi(createWsTransport(`ws://${window.location.host}${IPC_PATH}?t=${encodeURIComponent(token)}`));
// Frozen and read-only, as contextBridge makes it in Electron: page code cannot swap the API.
Object.defineProperty(window, 'packdesk', { value: Object.freeze(api), writable: false, configurable: false, enumerable: true });
