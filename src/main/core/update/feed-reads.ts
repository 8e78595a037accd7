/**
 * What the updater takes from the update feed before anything is downloaded. electron-updater
 * reads a channel file (latest*.yml) whole into one string: a 50 MB file was read whole, so its
 * reads are capped (1 MB; electron-builder writes well under 2 kB). A channel file whose connection
 * drops half way, or whose entry ends inside a checksum (an upload cut short), is said as the feed
 * cut short: before, the first read as a cut-off download and the second as a damaged one.
 */
import path from 'node:path';

/** The most read of a channel file. */
export const CHANNEL_FILE_MAX_BYTES = 1024 * 1024;
/** Error codes of a channel file refused while it was read; their messages are the sentence to say. */
export const FEED_TOO_LARGE = 'ERR_PACKDESK_FEED_TOO_LARGE';
export const FEED_CUT_SHORT = 'ERR_PACKDESK_FEED_CUT_SHORT';

/** The part of an HTTP response (Node's, or Electron's net) the cap watches. */
interface ResponseLike {
  readonly headers: Record<string, string | string[] | undefined>;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  destroy(error?: Error): unknown;
}

/** builder-util-runtime's HttpExecutor, as far as the cap needs it: every request of the updater goes through createRequest. */
interface RequestMaker {
  createRequest(options: unknown, callback: (response: ResponseLike) => void): unknown;
}

const CAPPED = Symbol('packdesk.capped');

/** The channel file a request asks for ("latest-linux.yml"), or null for any other file. */
function channelFileOf(options: unknown): string | null {
  const where = (options ?? {}) as { path?: unknown; pathname?: unknown };
  const raw = typeof where.path === 'string' ? where.path : typeof where.pathname === 'string' ? where.pathname : '';
  const name = path.posix.basename(raw.split('?')[0] ?? '');
  return name.endsWith('.yml') ? name : null;
}

const refusal = (code: string, message: string): Error => Object.assign(new Error(message), { code });

/** Ends `response` with a said error once it passes `maxBytes`, or when its connection drops. */
function watch(response: ResponseLike, file: string, maxBytes: number): void {
  const tooLarge = (): unknown =>
    response.destroy(refusal(FEED_TOO_LARGE, `The update feed's ${file} is larger than ${Math.round(maxBytes / (1024 * 1024))} MB (a real one is under 2 kB), so it was not read and nothing was downloaded; the next check tries again.`));
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    tooLarge();
    return;
  }
  let seen = 0;
  let ended = false;
  response.on('data', (chunk) => {
    seen += typeof chunk === 'string' ? Buffer.byteLength(chunk) : (chunk as Buffer).length;
    if (seen > maxBytes) tooLarge();
  });
  response.on('end', () => (ended = true));
  // Heard before the executor's own listener, which rejects with this very error: a connection
  // that dropped before the end ("aborted", a reset) is named as the channel file cut short.
  response.on('error', (error) => {
    if (ended || !(error instanceof Error) || (error as { code?: unknown }).code === FEED_TOO_LARGE) return;
    Object.assign(error, { code: FEED_CUT_SHORT, message: `The update feed's ${file} was cut short while it was read, so nothing was downloaded; the next check reads it again.` });
  });
}

/**
 * Caps every channel-file read of `updater` (electron-updater's AppUpdater; its `httpExecutor` is
 * not in its typings) at `maxBytes`; false when it has no executor to cap (tests' stand-ins).
 */
export function capChannelFileReads(updater: object, maxBytes = CHANNEL_FILE_MAX_BYTES): boolean {
  const executor = Reflect.get(updater, 'httpExecutor') as (RequestMaker & { [CAPPED]?: true }) | null | undefined;
  if (!executor || typeof executor.createRequest !== 'function') return false;
  if (executor[CAPPED]) return true;
  const create = executor.createRequest.bind(executor);
  executor.createRequest = (options, callback) =>
    create(options, (response) => {
      const file = channelFileOf(options);
      if (file !== null) watch(response, file, maxBytes);
      callback(response);
    });
  executor[CAPPED] = true;
  return true;
}

// A sha512 in base64, as electron-builder writes it: 64 bytes, 88 characters.
const SHA512_BASE64 = /^[A-Za-z0-9+/]{86}==$/;

/** Why a release entry of the feed is cut short or damaged (a checksum that is no sha512), or null. */
export function feedEntryProblem(info: { readonly version: string; readonly files?: readonly { readonly url: string; readonly sha512?: string }[]; readonly sha512?: string }): string | null {
  const named = [...(info.files ?? []).map((f) => ({ name: path.posix.basename(f.url), sha512: f.sha512 })), { name: 'the release', sha512: info.sha512 }];
  const bad = named.find((f) => typeof f.sha512 === 'string' && !SHA512_BASE64.test(f.sha512));
  if (bad === undefined || bad.sha512 === undefined) return null;
  return `The update feed's entry for version ${info.version} is cut short or damaged (the checksum of ${bad.name} is ${bad.sha512.length} characters, not the 88 of a sha512), so nothing was downloaded; the next check reads it again.`;
}
