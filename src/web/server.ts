/**
 * The harness's HTTP + WebSocket server on 127.0.0.1. It serves the built renderer (with the bridge
 * script inserted into index.html) under a strict CSP, and carries the IPC contract over a WebSocket
 * that only a page holding this run's random token, on this server's own origin, may open.
 * Anything else that reaches the port (another local page, a DNS-rebinding site) is refused.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile, realpath, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { join, resolve, sep } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import type { EventName, Reply } from '../shared/ipc';
import type { Logger } from '../main/core/log';
import { contractScript } from './bundle';
import { BRIDGE_PATH, CONTRACT_PATH, IPC_PATH, InvokeFrameSchema, MAX_FRAME_BYTES, type ServerFrame } from './wire';
import { contentTypeFor, uiContentSecurityPolicy, withFirstScreen, type FirstScreen } from '../main/core/ui';

export interface WebServerOptions {
  /** Folder of the built renderer (index.html and assets). */
  rendererDir: string;
  port?: number;
  handle(command: unknown, payload: unknown): Promise<Reply<unknown>>;
  subscribe(listener: (event: EventName, body: unknown) => void): () => void;
  /** The bridge script's text. */
  bridge(): Promise<string>;
  /** The contract module's text the bridge imports; bundle.ts's `contractScript` when absent. */
  contract?: () => Promise<string>;
  log: Logger;
  /** Token for this run; random when absent. */
  token?: string;
  /**
   * Called (in a task of its own) when a page's socket has connected: the bridge opens it as soon
   * as it runs, before the app's script is evaluated, so the page will ask for its first screen
   * in a moment, and work done now runs while it evaluates its script.
   */
  pageConnected?: () => void;
  /** The queue's first screen for index.html (core/ui/firstScreen); the page as built when absent or null. */
  firstScreen?: () => Promise<FirstScreen | null>;
}

export interface WebServer {
  /** Address to open, token included (`http://127.0.0.1:PORT/#t=TOKEN`). */
  readonly url: string;
  readonly origin: string;
  readonly port: number;
  readonly token: string;
  close(): Promise<void>;
}

/**
 * The most bytes that may wait to be sent to one page beyond the largest frame on its way. A page
 * that stops reading (a hung tab, a suspended laptop) is dropped past it rather than holding every
 * event in this process: the bridge reconnects and reads the state again. One frame can be far
 * larger than the bound (orders.list of 5,000 orders with their items is about 23 MB) and still be
 * read at once; what marks a stalled page is what piles up behind it.
 */
export const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

/** The Content-Security-Policy of every answer: scripts only from here, sockets only to here. */
export function contentSecurityPolicy(port: number): string {
  return uiContentSecurityPolicy([`ws://127.0.0.1:${port}`]);
}

/** Starts the server on 127.0.0.1; resolves once it listens. */
export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const token = options.token ?? randomBytes(32).toString('base64url');
  const tokenBytes = Buffer.from(token);
  const root = await realpath(resolve(options.rendererDir));
  const log = options.log;
  const sockets = new Set<WebSocket>();
  let port = 0;
  let csp = '';
  const expectedHost = (): string => `127.0.0.1:${port}`;
  const expectedOrigin = (): string => `http://${expectedHost()}`;

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });

  /** Per page, the byte sizes of frames handed to the socket and not yet written out, in order. */
  const unsent = new WeakMap<WebSocket, number[]>();
  const send = (ws: WebSocket, frame: ServerFrame): void => {
    if (ws.readyState !== ws.OPEN) return;
    const sizes = unsent.get(ws) ?? [];
    unsent.set(ws, sizes);
    const largest = sizes.reduce((max, n) => Math.max(max, n), 0);
    if (ws.bufferedAmount - largest > MAX_BUFFERED_BYTES) {
      // A close frame would only queue behind the backlog; cut the connection instead.
      log.warn('dropped a harness page that stopped reading', { bufferedBytes: ws.bufferedAmount });
      sockets.delete(ws);
      ws.terminate();
      return;
    }
    const data = JSON.stringify(frame);
    sizes.push(Buffer.byteLength(data));
    // Frames are written out in the order sent, so each callback settles the oldest.
    ws.send(data, () => void sizes.shift());
  };

  const unsubscribe = options.subscribe((event, body) => {
    for (const ws of sockets) send(ws, { type: 'event', event, body });
  });

  wss.on('connection', (ws: WebSocket) => {
    sockets.add(ws);
    if (options.pageConnected) setImmediate(options.pageConnected);
    ws.on('close', () => sockets.delete(ws));
    ws.on('error', () => ws.terminate());
    ws.on('message', (data, isBinary) => {
      let json: unknown;
      try {
        if (isBinary) throw new Error('binary');
        json = JSON.parse(data.toString());
      } catch {
        return ws.close(1003, 'frames are JSON text');
      }
      const frame = InvokeFrameSchema.safeParse(json);
      if (!frame.success) {
        log.warn('refused a malformed harness frame');
        return ws.close(1008, 'malformed frame');
      }
      const { id, command, payload } = frame.data;
      // Each command in a task of its own, as Electron's IPC runs them: frames that arrive together
      // would otherwise all start before any answer leaves, and a quick answer (the settings) would
      // wait behind a long one's synchronous work (the queue's listing). handle() never throws:
      // every failure is already a Reply.
      setImmediate(() => void options.handle(command, payload).then((reply) => send(ws, { type: 'reply', id, reply })));
    });
  });

  const refuseUpgrade = (socket: Duplex, status: number, reason: string, why: string): void => {
    log.warn('refused a harness connection', { why });
    socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    socket.destroy();
  };

  const server = createServer((req, res) => {
    serve(req, res).catch((err: unknown) => {
      log.error('the harness could not answer a request', { error: err instanceof Error ? err.message : String(err) });
      if (!res.headersSent) plain(res, 500, 'Internal error');
      else res.destroy();
    });
  });

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== IPC_PATH) return refuseUpgrade(socket, 404, 'Not Found', 'wrong path');
    // A page on another origin (or a DNS-rebinding name for 127.0.0.1) must not drive the terminal.
    if (req.headers.host !== expectedHost()) return refuseUpgrade(socket, 403, 'Forbidden', 'wrong host');
    if (req.headers.origin !== expectedOrigin()) return refuseUpgrade(socket, 403, 'Forbidden', 'foreign origin');
    const offered = Buffer.from(url.searchParams.get('t') ?? '');
    if (offered.length !== tokenBytes.length || !timingSafeEqual(offered, tokenBytes))
      return refuseUpgrade(socket, 401, 'Unauthorized', 'missing or wrong token');
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  const headers = (res: ServerResponse): void => {
    res.setHeader('Content-Security-Policy', csp);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('X-Frame-Options', 'DENY');
    // No Cross-Origin-Opener-Policy: see securityHeaders in main/protocol.ts.
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
    res.setHeader('Cache-Control', 'no-store');
  };

  const plain = (res: ServerResponse, status: number, text: string): void => {
    headers(res);
    res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end(text);
  };

  const body = (req: IncomingMessage, res: ServerResponse, type: string, content: string | Buffer): void => {
    headers(res);
    res.writeHead(200, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(content) });
    res.end(req.method === 'HEAD' ? undefined : content);
  };

  /**
   * A script, style sheet or font the browser may keep (see `cachingOf`): with its ETag, and a 304
   * when the browser's copy is still this one. Kept, a script's compiled code is kept with it (V8's
   * code cache), so a page opened again neither downloads nor compiles its bundle again.
   */
  const kept = (req: IncomingMessage, res: ServerResponse, type: string, content: string | Buffer, caching: string): void => {
    const etag = `"${createHash('sha256').update(content).digest('base64url').slice(0, 27)}"`;
    headers(res);
    res.setHeader('Cache-Control', caching);
    res.setHeader('ETag', etag);
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304);
      return void res.end();
    }
    res.writeHead(200, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(content) });
    res.end(req.method === 'HEAD' ? undefined : content);
  };

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.headers.host !== expectedHost()) return plain(res, 421, 'Wrong host');
    if (req.method !== 'GET' && req.method !== 'HEAD') return plain(res, 405, 'Method not allowed');
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    } catch {
      return plain(res, 400, 'Bad path');
    }
    if (pathname === '/' || pathname === '/index.html') {
      const html = await readFile(join(root, 'index.html'), 'utf8');
      const screen = options.firstScreen && req.method === 'GET' ? await options.firstScreen() : null;
      return body(req, res, contentTypeFor('index.html'), withBridge(withFirstScreen(html, screen)));
    }
    if (pathname === BRIDGE_PATH) return kept(req, res, contentTypeFor('bridge.js'), await options.bridge(), cachingOf(pathname));
    if (pathname === CONTRACT_PATH) return kept(req, res, contentTypeFor('contract.js'), await (options.contract ?? contractScript)(), cachingOf(pathname));
    const file = await resolveInside(root, pathname);
    if (!file && pathname === '/favicon.ico') {
      // Browsers ask for it unprompted; "no icon" is not an error worth a console line.
      headers(res);
      res.writeHead(204);
      return void res.end();
    }
    if (!file) return plain(res, 404, 'Not found');
    return kept(req, res, contentTypeFor(file), await readFile(file), cachingOf(pathname));
  }

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolveListen();
    });
  });
  port = (server.address() as AddressInfo).port;
  csp = contentSecurityPolicy(port);

  return {
    url: `${expectedOrigin()}/#t=${token}`,
    origin: expectedOrigin(),
    port,
    token,
    async close() {
      unsubscribe();
      for (const ws of sockets) ws.terminate();
      wss.close();
      await new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      });
    },
  };
}

/**
 * Inserts the bridge as a deferred script just before the app's module script (deferred and module
 * scripts run in document order once the page is parsed, so window.packdesk is there when the app
 * starts), or at the end of <head> when there is none. Deferred, the parser never waits for it:
 * the queue the host drew into the page (firstScreen) is painted as soon as the HTML and the style
 * sheet are in, not after the bridge's fetch and run (a blocking script also waits for every style
 * sheet before it). The bridge opens its socket when it runs, just before the app's script. The
 * contract module it imports is not preloaded: the bridge asks for it after the page's first frame,
 * and a preload's compiling held that frame back (about 75 ms median here, with the app's
 * script's preload).
 */
export function withBridge(html: string): string {
  const tags = `<script defer src="${BRIDGE_PATH}"></script>`;
  const app = /<script type="module"/i.exec(html);
  if (app) return `${html.slice(0, app.index)}${tags}\n    ${html.slice(app.index)}`;
  const end = /<\/head>/i.exec(html);
  if (end) return `${html.slice(0, end.index)}  ${tags}\n  ${html.slice(end.index)}`;
  const head = /<head[^>]*>/i.exec(html);
  if (head) return `${html.slice(0, head.index + head[0].length)}\n    ${tags}${html.slice(head.index + head[0].length)}`;
  return `${tags}\n${html}`;
}

/**
 * How long the browser may keep a file. index.html is never kept (it names the current build's
 * files). Vite names everything under /assets/ by its content's hash, so a name is always the same
 * bytes: kept for good. Anything else (the bridge, the contract) is kept but asked about again each time (a 304
 * when unchanged).
 */
export function cachingOf(pathname: string): string {
  return pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/** A regular file under root for a URL path, or null: no "..", no NUL, no symlink out of root, no folders. */
async function resolveInside(root: string, pathname: string): Promise<string | null> {
  if (pathname.includes('\0') || pathname.includes('\\')) return null;
  const candidate = resolve(root, `.${pathname}`);
  if (candidate !== root && !candidate.startsWith(root + sep)) return null;
  try {
    const real = await realpath(candidate);
    if (!real.startsWith(root + sep)) return null;
    return (await stat(real)).isFile() ? real : null;
  } catch {
    return null;
  }
}
