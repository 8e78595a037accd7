/**
 * The browser harness: the app host (same engine, same handlers as the Electron shell) plus a
 * server on 127.0.0.1 that serves the built renderer and carries the IPC contract over a
 * token-guarded WebSocket. End-to-end tests and `npm run web` use it; the Electron binary cannot
 * run on CI machines.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox';
import { createAppHost, type AppHost, type HostOptions } from '../main/core/host';
import { createFirstScreenDrawer, firstScreenBuild } from '../main/core/ui';
import { bridgeScript } from './bundle';
import { startWebServer } from './server';

export { contentSecurityPolicy, withBridge } from './server';
export { IPC_PATH, BRIDGE_PATH } from './wire';

/** The host's options a harness caller may set, and the training sandbox's (the harness starts it). */
export type WebHostOptions = Partial<Omit<HostOptions<Sandbox>, 'shell' | 'dataDir' | 'startTraining'>> & {
  /** Training mode's sandbox (port 0 by default). */
  sandboxOptions?: SandboxOptions;
  /** A sandbox already running, shared with other harnesses (several training counters of one store); this harness never closes it. */
  sharedSandbox?: Sandbox;
};

export interface WebHarnessOptions {
  /** Port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
  dataDir: string;
  host?: WebHostOptions;
  /** The built renderer; default `out/renderer` of this checkout. */
  rendererDir?: string;
  /** The WebSocket token; random per run by default. */
  token?: string;
  /** How long the page's HTML waits for the host's drawing of the queue (core/ui/firstScreen's budget by default). */
  firstScreenBudgetMs?: number;
}

export interface WebHarness {
  /** Open this in a browser: it carries the per-run token in its fragment. */
  readonly url: string;
  readonly host: AppHost<Sandbox>;
  close(): Promise<void>;
}

/** Where electron-vite writes the renderer build. */
export const DEFAULT_RENDERER_DIR = resolve(__dirname, '..', '..', 'out', 'renderer');

/** Starts the host and the server; the host runs in whatever environment the settings say (training on first run). */
export async function startWebHarness(options: WebHarnessOptions): Promise<WebHarness> {
  const rendererDir = options.rendererDir ?? DEFAULT_RENDERER_DIR;
  if (!existsSync(join(rendererDir, 'index.html')))
    throw new Error(`The renderer is not built (${join(rendererDir, 'index.html')} is missing): run \`npm run build\` first.`);
  const { sandboxOptions, sharedSandbox, ...hostOptions } = options.host ?? {};
  const host = await createAppHost<Sandbox>({
    version: readVersion(),
    ...hostOptions,
    ...(sandboxOptions?.clientId && sandboxOptions.clientSecret
      ? { trainingCredentials: { clientId: sandboxOptions.clientId, clientSecret: sandboxOptions.clientSecret } }
      : {}),
    startTraining: sharedSandbox ? async () => borrowed(sharedSandbox) : (log) => startSandbox({ ...sandboxOptions, log }),
    shell: 'web',
    dataDir: options.dataDir,
  });
  await host.start();
  const firstScreen = createFirstScreenDrawer(firstScreenBuild(rendererDir), (command, payload) => host.handle(command, payload), host.log.child('web'), options.firstScreenBudgetMs);
  try {
    const server = await startWebServer({
      rendererDir,
      port: options.port ?? 0,
      handle: (command, payload) => host.handle(command, payload),
      subscribe: (listener) => host.subscribe(listener),
      bridge: bridgeScript,
      // Listed while the page evaluates its script, its first ask for the queue is answered without waiting for it.
      pageConnected: () => host.prepareQueue(),
      firstScreen: () => firstScreen.draw(),
      log: host.log.child('web'),
      ...(options.token ? { token: options.token } : {}),
    });
    // Loaded and drawn once now, so the first page's request finds both ready.
    void firstScreen.warm();
    return {
      url: server.url,
      host,
      async close() {
        await server.close();
        await host.stop();
      },
    };
  } catch (err) {
    await host.stop();
    throw err;
  }
}

/** A shared sandbox as one harness sees it: everything of it, but closing it is its owner's job. */
function borrowed(sandbox: Sandbox): Sandbox {
  return Object.create(sandbox, { close: { value: async (): Promise<void> => undefined } }) as Sandbox;
}

/** The version in package.json (two folders up in the checkout); a missing one is not worth failing the harness. */
function readVersion(): string {
  try {
    const json: unknown = JSON.parse(readFileSync(resolve(__dirname, '..', '..', 'package.json'), 'utf8'));
    const version = (json as { version?: unknown } | null)?.version;
    return typeof version === 'string' ? version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}
