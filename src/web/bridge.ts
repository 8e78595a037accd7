/**
 * Runs in the page before the renderer's module: builds `window.packdesk` with the same
 * `createApi` the Electron preload uses, over a WebSocket to the harness instead of IPC. The
 * renderer cannot tell the shells apart. The per-run token arrives in the URL fragment (never sent
 * to the server in a request line or a Referer); it is moved to sessionStorage so a reload works and
 * the address bar stops showing it.
 *
 * The contract's schemas (./contract: zod and every command's and event's) are a module of their
 * own (CONTRACT_PATH), asked for as this script starts: the browser fetches and compiles them off
 * the page's thread while the app's script loads, so this script, which the page's parser waits
 * for, is a few kilobytes. Every reply and event is still parsed with them before the page sees
 * it, exactly as createApi does; a frame that arrives before they are built waits for them.
 */
import type { CommandName, EventName, PackdeskApi, Reply, Transport } from '../shared/ipc';
import type * as ContractModule from './contract';
import { CONTRACT_PATH, IPC_PATH } from './paths';
import { afterContentPresented, afterNextPaint } from '../shared/paint';
import { FIRST_SCREEN } from '../shared/firstScreen';

type Contract = typeof ContractModule;

let contract: Contract | null = null;
const waitingForContract: ((c: Contract) => void)[] = [];

/**
 * Runs `use` with the contract: at once when it is built, else once it is (in the order asked).
 * Frames that arrive in later tasks keep their order.
 */
function withContract(use: (c: Contract) => void): void {
  if (contract) return use(contract);
  waitingForContract.push(use);
}

/**
 * Loads the contract module; tried again a second later while it fails (the harness restarting),
 * so no reply is ever passed on unchecked and none waits for good. The name is in a variable: the
 * bundler leaves the import to the browser (a module of its own).
 */
function loadContract(attempt = 0): void {
  const url: string = attempt === 0 ? CONTRACT_PATH : `${CONTRACT_PATH}?attempt=${attempt}`;
  (import(url) as Promise<Contract>).then(
    (c) => {
      contract = c;
      for (const waiting of waitingForContract.splice(0)) waiting(c);
    },
    () => setTimeout(() => loadContract(attempt + 1), 1_000),
  );
}
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

/**
 * What to read again after a reconnect, per event: the command whose answer is that event's state
 * now, and how the answer becomes the event's body. Events the host sent while the socket was down
 * are gone; these answers replace them. orders.listed carries every order's queue row (the renderer
 * replaces its list), outbox.changed the entries still pending.
 */
const RESYNC: readonly { event: EventName; command: CommandName; body: (value: unknown) => unknown }[] = [
  { event: 'orders.listed', command: 'orders.list', body: (orders) => ({ orders }) },
  { event: 'outbox.changed', command: 'outbox.list', body: (entries) => ({ entries }) },
  { event: 'sync.status', command: 'sync.status', body: (status) => status },
  { event: 'intake.status', command: 'intake.status', body: (status) => status },
  { event: 'updates.status', command: 'updates.status', body: (status) => status },
];

/**
 * A Transport over a WebSocket that reconnects with a capped backoff; calls made while down wait
 * for it. The socket opens on `start` (its address read then, once).
 */
function createWsTransport(address: () => string): Transport & { start(): void } {
  let url = '';
  const listeners = new Map<EventName, Set<(body: unknown) => void>>();
  const pending = new Map<number, (reply: Reply<unknown>) => void>();
  /** Frames waiting for the socket to open, by call id. */
  const waiting = new Map<number, string>();
  let socket: WebSocket | null = null;
  let open = false;
  let everOpened = false;
  let nextId = 1;
  let delay = 250;

  const invoke = (command: CommandName, payload: unknown): Promise<Reply<unknown>> =>
    new Promise<Reply<unknown>>((resolve) => {
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

  const deliver = (event: EventName, body: unknown): void => {
    for (const listener of listeners.get(event) ?? []) listener(body);
  };

  /**
   * Brings current subscribers up to date after the socket came back, as if the missed events had
   * arrived. The host answers a read from the state at that moment and sends the reply before any
   * event raised after it, on the same ordered socket, so a live event that follows the reply is
   * newer and wins. Only events someone listens to are read.
   */
  const resync = (): void => {
    for (const { event, command, body } of RESYNC) {
      if (!listeners.get(event)?.size) continue;
      void invoke(command, {}).then((reply) => {
        // Still unreachable or refused: the next reconnect or the renderer's own reads catch up.
        if (reply.ok) deliver(event, body(reply.value));
      });
    }
  };

  const connect = (): void => {
    const ws = new WebSocket(url);
    socket = ws;
    ws.onopen = () => {
      open = true;
      delay = 250;
      for (const frame of waiting.values()) ws.send(frame);
      waiting.clear();
      // The first connection needs no catch-up: the renderer reads everything itself at start.
      if (everOpened) resync();
      everOpened = true;
    };
    ws.onmessage = (message) => {
      const data: unknown = message.data;
      if (typeof data !== 'string') return;
      withContract(({ ServerFrameSchema, isEventName }) => {
        let json: unknown;
        try {
          json = JSON.parse(data);
        } catch {
          return;
        }
        const frame = ServerFrameSchema.safeParse(json);
        if (!frame.success) return;
        if (frame.data.type === 'reply') {
          const resolve = pending.get(frame.data.id);
          pending.delete(frame.data.id);
          resolve?.(frame.data.reply as Reply<unknown>);
        } else if (isEventName(frame.data.event)) {
          deliver(frame.data.event, frame.data.body);
        }
      });
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
  return {
    start() {
      url = address();
      connect();
    },
    invoke,
    subscribe(event, listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener);
      return () => set.delete(listener);
    },
  };
}

/**
 * createApi's object over a transport, except that a command leaves before the contract is built:
 * its reply, and every event, is parsed with the contract's parseReply / parseEvent on arrival.
 */
function createBridgeApi(transport: Transport): PackdeskApi {
  return {
    invoke: (command, payload) =>
      transport.invoke(command, payload).then((reply) => new Promise((resolve) => withContract((c) => resolve(c.parseReply(command, reply))))),
    on: (event, listener) =>
      transport.subscribe(event, (body) =>
        withContract((c) => {
          const parsed = c.parseEvent(event, body);
          if (parsed !== undefined) listener(parsed);
        }),
      ),
  };
}

const transport = createWsTransport(() => `ws://${window.location.host}${IPC_PATH}?t=${encodeURIComponent(takeToken())}`);
// When the host drew the queue into the page, the bridge's own work waits until that frame is on
// screen (or 500 ms, for a page that draws no frame: a tab in the background), since it held the
// frame back: evaluating the contract (zod and every schema, the heaviest thing it does), and
// opening the socket (the token leaves the address bar then). The app asks its first commands only
// after that frame too (main.tsx); calls made before the socket is open wait for it, and replies
// wait for the contract. Without a drawing the app's own first screen needs the replies: the
// socket opens at once and the contract comes after the next paint (at most 100 ms).
if (document.querySelector(FIRST_SCREEN) !== null) {
  afterContentPresented(() => {
    loadContract();
    transport.start();
  }, 500);
} else {
  transport.start();
  afterNextPaint(() => loadContract(), 100);
}
const api: PackdeskApi = createBridgeApi(transport);
// Frozen and read-only, as contextBridge makes it in Electron: page code cannot swap the API.
Object.defineProperty(window, 'packdesk', { value: Object.freeze(api), writable: false, configurable: false, enumerable: true });
