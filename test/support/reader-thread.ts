/**
 * Another connection reading the data file from its own thread, as the page check does
 * (core/db/later-check): it holds a read snapshot until the test lets it go. Once the test says it
 * is about to ask for the file (`asking`), the reader also lets go by itself after `letGoAfterMs`:
 * a call that waited for readers (SQLite's busy timeout) would see it go and then succeed, so a
 * call that gives up at once is told apart from one that waits by what it answers, not by a clock.
 */
import { Worker } from 'node:worker_threads';
import type { Cleanup } from './engine';

const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const flags = new Int32Array(workerData.flags);
const db = new Database(workerData.file, { readonly: true, fileMustExist: true });
db.exec('BEGIN');
db.prepare(workerData.read).get();
parentPort.postMessage('reading');
// Until the test is about to ask; then until it lets go, or letGoAfterMs have passed.
Atomics.wait(flags, 0, 0);
Atomics.wait(flags, 1, 0, workerData.letGoAfterMs);
db.exec('COMMIT');
db.close();
parentPort.postMessage('done');
`;

export interface ReaderThread {
  /** The test is about to ask for the file: from now the reader lets go by itself after letGoAfterMs. */
  asking(): void;
  /** Lets go of the snapshot now; resolves once the reader's connection is closed. */
  letGo(): Promise<void>;
}

/** Starts the reader on `file`, reading with `read` (a SELECT); resolves once its snapshot is held. */
export async function readerThread(cleanup: Cleanup, file: string, read: string, letGoAfterMs: number): Promise<ReaderThread> {
  const flags = new Int32Array(new SharedArrayBuffer(8));
  const worker = new Worker(SOURCE, { eval: true, workerData: { file, read, letGoAfterMs, driver: require.resolve('better-sqlite3'), flags: flags.buffer } });
  const said = (word: string): Promise<void> =>
    new Promise((resolve, reject) => {
      const heard = (m: unknown): void => {
        if (m !== word) return;
        worker.off('message', heard);
        resolve();
      };
      worker.on('message', heard);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the reader thread ended (exit ${code}) before saying ${word}`)));
    });
  const done = said('done');
  // A test that fails half way still ends the reader.
  done.catch(() => undefined);
  cleanup.add(async () => {
    Atomics.store(flags, 0, 1);
    Atomics.store(flags, 1, 1);
    Atomics.notify(flags, 0);
    Atomics.notify(flags, 1);
    await worker.terminate();
  });
  await said('reading');
  return {
    asking() {
      Atomics.store(flags, 0, 1);
      Atomics.notify(flags, 0);
    },
    async letGo() {
      Atomics.store(flags, 1, 1);
      Atomics.notify(flags, 1);
      await done;
    },
  };
}
