/**
 * Log files: one JSON line per record in `<dir>/packdesk.log`, rotated by size into
 * packdesk.1.log ... packdesk.<keep-1>.log (the oldest is dropped). Records arrive already redacted
 * by the logger; the sink only decides where the bytes go. Writes are synchronous so the lines
 * before a crash are on disk, and a failing disk never throws into the caller.
 */
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { LogRecord, LogSink } from './logger';

export interface RotatingFileSinkOptions {
  dir: string;
  /** File name stem; default "packdesk". */
  name?: string;
  /** Rotate when the current file would grow past this many bytes; default 1 MiB. */
  maxBytes?: number;
  /** Files kept, the current one included; default 5. */
  keep?: number;
}

export interface RotatingFileSink extends LogSink {
  /** The log files, newest first. */
  files(): string[];
  /** Closes the current file; later writes reopen it. */
  close(): void;
}

/** A sink's current file (`<name>.log`) or a rotated one (`<name>.<n>.log`); the stem and number are captured. */
const LOG_FILE = /^([A-Za-z0-9][A-Za-z0-9_-]*)(?:\.([1-9][0-9]*))?\.log$/;

/**
 * Every sink's log files in `dir` (the host's packdesk, the Electron shell's shell, ...), grouped by
 * name and newest first within each. Found by name on disk rather than asked of the sinks, because
 * the sinks live in different layers and only the folder is shared. Only regular files count: a
 * symlink or folder that happens to match the pattern is not a log we wrote.
 */
export function logFilesIn(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const found: { stem: string; n: number; file: string }[] = [];
  for (const e of entries) {
    const match = LOG_FILE.exec(e.name);
    if (!match || !e.isFile()) continue;
    found.push({ stem: match[1] ?? '', n: match[2] ? Number(match[2]) : 0, file: join(dir, e.name) });
  }
  found.sort((a, b) => (a.stem < b.stem ? -1 : a.stem > b.stem ? 1 : a.n - b.n));
  return found.map((f) => f.file);
}

/** Creates a size-rotated JSON-lines file sink. */
export function createRotatingFileSink(options: RotatingFileSinkOptions): RotatingFileSink {
  const name = options.name ?? 'packdesk';
  const maxBytes = Math.max(1024, options.maxBytes ?? 1024 * 1024);
  const keep = Math.max(1, options.keep ?? 5);
  const pathOf = (n: number): string => join(options.dir, n === 0 ? `${name}.log` : `${name}.${n}.log`);

  let fd: number | null = null;
  let size = 0;
  let broken = false;

  const open = (): number => {
    if (fd !== null) return fd;
    mkdirSync(options.dir, { recursive: true });
    fd = openSync(pathOf(0), 'a', 0o600);
    size = fstatSync(fd).size;
    return fd;
  };

  const rotate = (): void => {
    if (fd !== null) closeSync(fd);
    fd = null;
    rmSync(pathOf(keep - 1), { force: true });
    for (let n = keep - 2; n >= 0; n--) if (existsSync(pathOf(n))) renameSync(pathOf(n), pathOf(n + 1));
  };

  return {
    write(record: LogRecord) {
      const line = Buffer.from(`${JSON.stringify(record)}\n`, 'utf8');
      try {
        open();
        if (size > 0 && size + line.length > maxBytes) rotate();
        const handle = open();
        writeSync(handle, line);
        size += line.length;
        broken = false;
      } catch (err) {
        // Logging must never take the terminal down; say it once on stderr and keep trying later.
        if (!broken) process.stderr.write(`packdesk: cannot write the log file: ${(err as Error).message}\n`);
        broken = true;
        if (fd !== null) {
          try {
            closeSync(fd);
          } catch {
            // already gone
          }
        }
        fd = null;
      }
    },
    files() {
      if (!existsSync(options.dir)) return [];
      const present = new Set(readdirSync(options.dir));
      const out: string[] = [];
      for (let n = 0; n < keep; n++) {
        const file = n === 0 ? `${name}.log` : `${name}.${n}.log`;
        if (present.has(file)) out.push(join(options.dir, file));
      }
      return out;
    },
    close() {
      if (fd !== null) closeSync(fd);
      fd = null;
    },
  };
}
