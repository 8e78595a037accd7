/**
 * The data file's page check (`quick_check`) run beside the engine instead of before it: on a
 * 30 MB file the check took two thirds of the time from start to the first tap. It runs on a
 * worker thread with its own read-only connection (WAL: it reads a snapshot and blocks no write),
 * so the packer can tap while it reads every page. What it finds is handled as a damaged file
 * found at open: the file is marked (markDamaged) and set aside with its taps salvaged at the next
 * open, which the host makes at once.
 */
import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import { DAMAGE_CODES } from './storage-error';

/** What the check found: sound, damaged (with SQLite's words), or not checked (could not read it). */
export type LaterCheckResult =
  | { readonly kind: 'ok' }
  | { readonly kind: 'damaged'; readonly reason: string }
  | { readonly kind: 'unchecked'; readonly reason: string };

export interface LaterCheck {
  readonly result: Promise<LaterCheckResult>;
  /** Stops the check (the engine is closing); the result then says 'unchecked'. */
  cancel(): void;
}

/**
 * The worker's code: CommonJS, given the driver's path (the app is bundled, the worker is not). In
 * the packaged app that path is inside app.asar; Electron reads asar in worker threads since 18
 * (electron/electron#33216). Not tried here (no Electron binary): build/README.md says how to check.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const BROKEN = new Set(workerData.damageCodes);
let db;
try {
  db = new Database(workerData.file, { readonly: true, fileMustExist: true, timeout: 5000 });
  db.pragma('mmap_size = ' + workerData.mmapBytes);
  const lines = db.pragma('quick_check').map((row) => String(row.quick_check ?? ''));
  if (lines.length === 1 && lines[0] === 'ok') parentPort.postMessage({ kind: 'ok' });
  else parentPort.postMessage({ kind: 'damaged', reason: lines.slice(0, 5).join('; ') || 'quick_check returned nothing' });
} catch (e) {
  const code = e && typeof e.code === 'string' ? e.code : '';
  const reason = e instanceof Error ? e.message : String(e);
  parentPort.postMessage({ kind: BROKEN.has(code) ? 'damaged' : 'unchecked', reason });
} finally {
  try { if (db) db.close(); } catch (e) { /* the result is already sent */ }
}
`;

/** Room to map the whole file while it is checked: a 30 MB file is read in about half the time. */
export const CHECK_MMAP_BYTES = 1 << 30;

/** Starts the page check of `file` on a worker thread. */
export function checkLater(file: string): LaterCheck {
  let worker: Worker | null = null;
  let settle: (r: LaterCheckResult) => void = () => undefined;
  const result = new Promise<LaterCheckResult>((resolve) => {
    let done = false;
    settle = (r) => {
      if (done) return;
      done = true;
      resolve(r);
    };
  });
  try {
    worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { file, driver: require.resolve('better-sqlite3'), mmapBytes: CHECK_MMAP_BYTES, damageCodes: [...DAMAGE_CODES] },
    });
    // The check never keeps a CLI or a test process alive.
    worker.unref();
    worker.on('message', (m: unknown) => settle(readMessage(m)));
    worker.on('error', (e) => settle({ kind: 'unchecked', reason: e.message }));
    worker.on('exit', (code) => settle({ kind: 'unchecked', reason: `the check stopped (exit ${code})` }));
  } catch (e) {
    settle({ kind: 'unchecked', reason: e instanceof Error ? e.message : String(e) });
  }
  return {
    result,
    cancel() {
      settle({ kind: 'unchecked', reason: 'cancelled' });
      void worker?.terminate();
    },
  };
}

function readMessage(m: unknown): LaterCheckResult {
  const msg = (m ?? {}) as { kind?: unknown; reason?: unknown };
  const reason = typeof msg.reason === 'string' ? msg.reason : '';
  if (msg.kind === 'ok') return { kind: 'ok' };
  if (msg.kind === 'damaged') return { kind: 'damaged', reason };
  return { kind: 'unchecked', reason: reason || 'no answer from the check' };
}

/** The mark a damaged data file carries until it is set aside: `<file>.damaged`, holding the reason. */
export function damageMarkPath(file: string): string {
  return `${file}.damaged`;
}

/** Marks `file` damaged: the next open sets it aside and salvages it without checking again. */
export function markDamaged(file: string, reason: string): void {
  fs.writeFileSync(damageMarkPath(file), `${reason}\n`, { mode: 0o600 });
}

/** The reason a mark holds, or null when the file carries none. */
export function readDamageMark(file: string): string | null {
  try {
    return fs.readFileSync(damageMarkPath(file), 'utf8').trim() || 'marked damaged';
  } catch {
    return null;
  }
}
