/**
 * electron-updater's own updater classes (AppImageUpdater, NsisUpdater) under plain Node, the way
 * electron-builder tests them (its test/src/updater): an app adapter standing in for Electron's
 * `app`, Node's HTTP under builder-util-runtime's HttpExecutor, and an update feed on 127.0.0.1
 * laid out as electron-builder publishes one (latest-linux.yml / latest.yml naming files with
 * their sha512 and size). Everything is real files in a temp folder.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http, { type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventEmitter } from 'node:events';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import { configureRequestOptions, configureRequestUrl, HttpExecutor, type DownloadOptions } from 'builder-util-runtime';
import { AppImageUpdater, NsisUpdater, type AppUpdater } from 'electron-updater';
import type { AppAdapter } from 'electron-updater/out/AppAdapter';

/**
 * builder-util-runtime's HTTP executor over Node's `http`: ElectronHttpExecutor's `download`
 * line for line (same request options, same verifying stream), with Node's request instead of
 * Electron's `net`.
 */
export class NodeHttpExecutor extends HttpExecutor<ClientRequest> {
  async download(url: URL, destination: string, options: DownloadOptions): Promise<string> {
    return await options.cancellationToken.createPromise<string>((resolve, reject, onCancel) => {
      const requestOptions: RequestOptions = { headers: options.headers || undefined };
      configureRequestUrl(url, requestOptions);
      configureRequestOptions(requestOptions);
      this.doDownload(
        requestOptions,
        { destination, options, onCancel, callback: (error) => (error == null ? resolve(destination) : reject(error)), responseHandler: null },
        0,
      );
    });
  }
  createRequest(options: RequestOptions, callback: (response: IncomingMessage) => void): ClientRequest {
    return http.request(options, callback);
  }
}

/** Electron's `app` as electron-updater sees it (AppAdapter), on folders of the test's choosing. */
export class TestAppAdapter implements AppAdapter {
  readonly name = 'Packdesk';
  readonly isPackaged = true;
  quits = 0;
  relaunches = 0;
  readonly quitHandlers: ((exitCode: number) => void)[] = [];
  constructor(
    readonly version: string,
    readonly appUpdateConfigPath: string,
    readonly userDataPath: string,
    readonly baseCachePath: string,
  ) {}
  whenReady(): Promise<void> {
    return Promise.resolve();
  }
  relaunch(): void {
    this.relaunches++;
  }
  quit(): void {
    this.quits++;
  }
  onQuit(handler: (exitCode: number) => void): void {
    this.quitHandlers.push(handler);
  }
}

/**
 * BaseUpdater.quitAndInstall calls `require("electron").autoUpdater.emit("before-quit-for-update")`
 * right before `app.quit()`; without the Electron binary `require("electron")` throws. This puts
 * the one object that line needs where Node's require finds it. Returns the emitter to watch.
 */
export function provideElectronAutoUpdaterEvent(): EventEmitter {
  const require = createRequire(import.meta.url);
  const id = require.resolve('electron');
  const existing = require.cache[id];
  if (existing && existing.exports && typeof existing.exports === 'object' && 'autoUpdater' in existing.exports) {
    return (existing.exports as { autoUpdater: EventEmitter }).autoUpdater;
  }
  const shim = new Module(id);
  shim.filename = id;
  shim.loaded = true;
  shim.exports = { autoUpdater: new EventEmitter() };
  require.cache[id] = shim;
  return (shim.exports as { autoUpdater: EventEmitter }).autoUpdater;
}

/** How the feed serves one file. */
export type FileMode =
  /** The file as published. */
  | 'ok'
  /** 404 Not Found. */
  | 'missing'
  /** Half the bytes, then the connection is dropped (Content-Length promises all of them). */
  | 'cut';

export interface ReleaseFile {
  readonly name: string;
  readonly body: Buffer;
}

export interface Release {
  readonly version: string;
  readonly file: ReleaseFile;
  /** A number, or a string written into the YAML as it is (`stop`, `"stop"`, `null`, `0%`). */
  readonly stagingPercentage?: number | string;
  /** Publishes this sha512 instead of the file's own (a feed that does not match its file). */
  readonly sha512?: string;
  /** Publishes this size instead of the file's own (a feed that lies about the size). */
  readonly size?: number;
}

/** sha512 in base64, as electron-builder writes it. */
export function sha512Of(body: Buffer): string {
  return createHash('sha512').update(body).digest('base64');
}

/** The channel file electron-builder writes for a release (latest.yml / latest-linux.yml). */
export function channelYaml(release: Release): string {
  const sha512 = release.sha512 ?? sha512Of(release.file.body);
  const size = release.size ?? release.file.body.length;
  return [
    `version: ${release.version}`,
    'files:',
    `  - url: ${release.file.name}`,
    `    sha512: ${sha512}`,
    `    size: ${size}`,
    `path: ${release.file.name}`,
    `sha512: ${sha512}`,
    "releaseDate: '2025-01-10T08:00:00.000Z'",
    ...(release.stagingPercentage === undefined ? [] : [`stagingPercentage: ${release.stagingPercentage}`]),
    '',
  ].join('\n');
}

/**
 * A small "installer": a shell script that writes `marker` when run (what a started AppImage or
 * NSIS installer would do), padded so downloads have some length. Executable by its first line.
 */
export function installerBody(version: string, marker: string, padding = 64 * 1024): Buffer {
  const script = `#!/bin/sh\necho "${version}" > '${marker}'\nexit 0\n`;
  return Buffer.concat([Buffer.from(script), Buffer.from(`# ${'x'.repeat(padding)}\n`)]);
}

export interface UpdateFeed {
  /** http://127.0.0.1:<port>/ */
  readonly url: string;
  /** Every request's method and path, in order. */
  readonly requests: string[];
  /** Publishes `release` as the channel file `channel` (e.g. 'latest-linux', 'latest'). */
  publish(channel: string, release: Release, mode?: FileMode): void;
  /**
   * Serves `text` as the channel file `channel`: 'ok' whole, 'cut' half of it and then the
   * connection dropped (Content-Length promises all of it).
   */
  publishText(channel: string, text: string, mode?: 'ok' | 'cut'): void;
  /** Changes how a published file is served. */
  serve(fileName: string, mode: FileMode): void;
  /** Full GETs of `fileName` (not range requests). */
  downloadsOf(fileName: string): number;
  close(): Promise<void>;
}

/** The feed server on 127.0.0.1. */
export async function startUpdateFeed(): Promise<UpdateFeed> {
  const channels = new Map<string, { text: string; mode: 'ok' | 'cut' }>();
  const files = new Map<string, { body: Buffer; mode: FileMode }>();
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const name = decodeURIComponent((req.url ?? '/').split('?')[0]!.slice(1));
    const ranged = req.headers.range !== undefined;
    requests.push(`${req.method} /${name}${ranged ? ' (range)' : ''}`);
    const yml = name.endsWith('.yml') ? channels.get(name.slice(0, -4)) : undefined;
    if (yml !== undefined) {
      const body = Buffer.from(yml.text);
      res.writeHead(200, { 'content-type': 'text/yaml', 'content-length': body.length });
      if (yml.mode === 'cut') res.write(body.subarray(0, Math.floor(body.length / 2)), () => res.destroy());
      else res.end(body);
      return;
    }
    const file = files.get(name);
    if (!file || file.mode === 'missing') {
      res.writeHead(404);
      res.end('not found');
      return;
    }
    if (ranged) {
      // No partial content here: electron-updater falls back to the full download, as it does
      // against any server without range support.
      res.writeHead(416);
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': file.body.length });
    if (file.mode === 'cut') {
      res.write(file.body.subarray(0, Math.floor(file.body.length / 2)), () => res.destroy());
      return;
    }
    res.end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let closed = false;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    publish(channel, release, mode = 'ok') {
      channels.set(channel, { text: channelYaml(release), mode: 'ok' });
      files.set(release.file.name, { body: release.file.body, mode });
    },
    publishText(channel, text, mode = 'ok') {
      channels.set(channel, { text, mode });
    },
    serve(fileName, mode) {
      const file = files.get(fileName);
      if (!file) throw new Error(`${fileName} is not published`);
      file.mode = mode;
    },
    downloadsOf(fileName) {
      return requests.filter((r) => r === `GET /${fileName}`).length;
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (closed) return resolve();
        closed = true;
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface TerminalFolders {
  /** electron-updater's app-update.yml (what electron-builder puts in resources/). */
  readonly appUpdateYml: string;
  /** Electron's userData: electron-updater keeps its staging id (.updaterId) here. */
  readonly userData: string;
  /** The cache base: downloads go to <cache>/packdesk-updater/pending. */
  readonly cache: string;
}

/** A terminal's folders under `root`, with an app-update.yml naming `feedUrl` (and a publisher, for NSIS). */
export function terminalFolders(root: string, feedUrl: string, publisherName?: string): TerminalFolders {
  const folders = { appUpdateYml: path.join(root, 'resources', 'app-update.yml'), userData: path.join(root, 'userData'), cache: path.join(root, 'cache') };
  fs.mkdirSync(path.dirname(folders.appUpdateYml), { recursive: true });
  fs.mkdirSync(folders.userData, { recursive: true });
  fs.mkdirSync(folders.cache, { recursive: true });
  const lines = ['provider: generic', `url: ${feedUrl}`, 'updaterCacheDirName: packdesk-updater'];
  if (publisherName !== undefined) lines.push(`publisherName:`, `  - ${publisherName}`);
  fs.writeFileSync(folders.appUpdateYml, `${lines.join('\n')}\n`);
  return folders;
}

/** The folder electron-updater downloads into for these folders. */
export function pendingDir(folders: TerminalFolders): string {
  return path.join(folders.cache, 'packdesk-updater', 'pending');
}

/** Which of electron-updater's installer classes. */
export type UpdaterKind = 'AppImage' | 'NSIS';

/** A real AppImageUpdater or NsisUpdater of version `version`, on `folders`, talking Node HTTP. */
export function realUpdater(kind: UpdaterKind, version: string, folders: TerminalFolders): { updater: AppUpdater; app: TestAppAdapter } {
  const app = new TestAppAdapter(version, folders.appUpdateYml, folders.userData, folders.cache);
  const updater = kind === 'AppImage' ? new AppImageUpdater(null, app) : new NsisUpdater(null, app);
  // What AppUpdater's constructor sets to ElectronHttpExecutor when it is given no app adapter.
  (updater as unknown as { httpExecutor: HttpExecutor<ClientRequest> }).httpExecutor = new NodeHttpExecutor();
  if (kind === 'NSIS') {
    // The feed's channel file is named after the platform (latest.yml on Windows): electron-builder's
    // own tests set the platform the same way. Differential download is Windows-only plumbing.
    (updater as unknown as { _testOnlyOptions: unknown })._testOnlyOptions = { platform: 'win32', isUseDifferentialDownload: false };
  }
  return { updater, app };
}
