/** Structured logging with redaction at the source; sinks decide where lines go (file, memory, stderr). */
import { secrets, type SecretRegistry } from './redact';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;

export interface LogRecord {
  readonly time: string;
  readonly level: LogLevel;
  readonly scope: string;
  readonly msg: string;
  readonly fields?: LogFields;
}

export interface LogSink {
  write(record: LogRecord): void;
}

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** A logger for a sub-part, e.g. `log.child('sync')`. */
  child(scope: string): Logger;
}

/** Creates a logger; every message and field is redacted before any sink sees it. */
export function createLogger(
  sinks: readonly LogSink[],
  options: { scope?: string; now?: () => number; registry?: SecretRegistry; minLevel?: LogLevel } = {},
): Logger {
  const registry = options.registry ?? secrets;
  const now = options.now ?? Date.now;
  const order: LogLevel[] = ['debug', 'info', 'warn', 'error'];
  const min = order.indexOf(options.minLevel ?? 'info');
  const make = (scope: string): Logger => {
    const emit = (level: LogLevel, msg: string, fields?: LogFields): void => {
      if (order.indexOf(level) < min) return;
      const record: LogRecord = {
        time: new Date(now()).toISOString(),
        level,
        scope,
        msg: registry.redactText(msg),
        ...(fields ? { fields: registry.redact(fields) as LogFields } : {}),
      };
      for (const s of sinks) s.write(record);
    };
    return {
      debug: (m, f) => emit('debug', m, f),
      info: (m, f) => emit('info', m, f),
      warn: (m, f) => emit('warn', m, f),
      error: (m, f) => emit('error', m, f),
      child: (s) => make(scope ? `${scope}.${s}` : s),
    };
  };
  return make(options.scope ?? '');
}

/** Keeps records in memory (tests, support bundle tail). */
export class MemorySink implements LogSink {
  readonly records: LogRecord[] = [];
  write(record: LogRecord): void {
    this.records.push(record);
  }
}

/** Writes one JSON line per record to stderr (CLI, harness). */
export const stderrSink: LogSink = {
  write(record) {
    process.stderr.write(`${JSON.stringify(record)}\n`);
  },
};

/** A logger that drops everything, for callers that did not pass one. */
export const silentLogger: Logger = createLogger([]);
