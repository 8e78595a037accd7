/**
 * The support bundle: a plain folder under `<dataDir>/support/` that a store can zip and send to
 * support. It holds what support asks for first (app info, doctor-style health lines, the outbox
 * summary, settings with addresses, the log files) and never a secret: the data it is built from
 * holds none, and every byte still passes the redaction registry on its way to disk.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { HubStatus } from '../../../shared/hub';
import type { AppInfo, OutboxEntryView, Settings, SyncStatus } from '../../../shared/ipc';
import { fail, ok, type Result } from '../../../shared/result';
import { secrets as processSecrets, type SecretRegistry } from '../log';

/** One line of a doctor-style check: what was checked, whether it is fine, and what to do. */
export interface HealthLine {
  readonly name: string;
  readonly ok: boolean;
  readonly message: string;
}

export interface BundleInput {
  /** Folder the bundles go in (`<dataDir>/support`). */
  readonly dir: string;
  readonly now: number;
  readonly info: AppInfo;
  readonly settings: Settings;
  readonly health: readonly HealthLine[];
  /** Every outbox entry the engine knows; null when the engine is not running. */
  readonly outbox: readonly OutboxEntryView[] | null;
  readonly status: SyncStatus | null;
  /** The store hub as this counter sees it (role, connection, hub program, lease holder, counters); never the secret. */
  readonly hub?: HubStatus | null;
  /** Every Packdesk log file (host and shell, rotated ones included), newest first per log. */
  readonly logFiles: readonly string[];
  /** Bundles kept, this one included (older ones are removed). Default 5. */
  readonly keep?: number;
  readonly registry?: SecretRegistry;
}

const PREFIX = 'packdesk-support-';

/** Writes a bundle folder and returns its path. */
export function writeSupportBundle(input: BundleInput): Result<string> {
  const registry = input.registry ?? processSecrets;
  const stamp = new Date(input.now).toISOString().replace(/[:.]/g, '-');
  const folder = join(input.dir, `${PREFIX}${stamp}`);
  const write = (name: string, text: string): void => writeFileSync(join(folder, name), registry.redactText(text), { mode: 0o600 });
  const json = (value: unknown): string => `${JSON.stringify(registry.redact(value), null, 2)}\n`;
  try {
    mkdirSync(join(folder, 'logs'), { recursive: true });
    write('README.txt', readme(input));
    write('info.json', json(input.info));
    write('settings.json', json(input.settings));
    write('doctor.txt', doctorText(input.health));
    write('status.json', json(input.status));
    write('outbox.json', json(outboxSummary(input.outbox)));
    write('hub.json', json(input.hub ?? null));
    for (const file of input.logFiles) {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        continue; // rotated away while we were copying
      }
      write(join('logs', basename(file)), redactLogLines(text, registry));
    }
    prune(input.dir, input.keep ?? 5);
    return ok(folder);
  } catch (err) {
    return fail('transient', `The support bundle could not be written to ${input.dir}: ${registry.redactText((err as Error).message)}`, 'BUNDLE_FAILED');
  }
}

/**
 * Masks secret-bearing keys in each JSON log line, on top of the text redaction every bundle file
 * gets: the loggers redact at the source, but a line written by an older version or a sink that
 * bypassed its logger must not carry a `client_secret` field into a file that leaves the store.
 */
function redactLogLines(text: string, registry: SecretRegistry): string {
  return text
    .split('\n')
    .map((line) => {
      if (!line.startsWith('{')) return line;
      try {
        return JSON.stringify(registry.redact(JSON.parse(line)));
      } catch {
        return line; // a line cut short by a crash; the text redaction still applies
      }
    })
    .join('\n');
}

/** Doctor-style lines, one per check: "ok   keychain  The keychain works". */
export function doctorText(lines: readonly HealthLine[]): string {
  const width = Math.max(0, ...lines.map((l) => l.name.length));
  return `${lines.map((l) => `${l.ok ? 'ok     ' : 'PROBLEM'}  ${l.name.padEnd(width)}  ${l.message}`).join('\n')}\n`;
}

/** Counts by state, plus every entry that is not yet sent (the ones support looks at). */
export function outboxSummary(entries: readonly OutboxEntryView[] | null): unknown {
  if (entries === null) return { available: false, reason: 'The engine was not running when the bundle was made.' };
  const counts: Record<string, number> = {};
  for (const e of entries) counts[e.state] = (counts[e.state] ?? 0) + 1;
  const open = entries
    .filter((e) => e.state !== 'sent' && e.state !== 'discarded')
    .map((e) => ({
      id: e.id,
      requestId: e.requestId,
      orderId: e.orderId,
      summary: e.summary,
      state: e.state,
      createdAt: new Date(e.createdAt).toISOString(),
      attempts: e.attempts,
      nextAttemptAt: e.nextAttemptAt === null ? null : new Date(e.nextAttemptAt).toISOString(),
      lastError: e.lastError,
      mayBeApplied: e.mayBeApplied,
    }));
  return { available: true, total: entries.length, counts, open };
}

function readme(input: BundleInput): string {
  return [
    `Packdesk support bundle, made ${new Date(input.now).toISOString()}`,
    `Terminal ${input.info.terminalId}, version ${input.info.version}, ${input.info.environment} (${input.info.shell})`,
    '',
    'info.json      app version, environment, terminal id, keychain state',
    'settings.json  settings and service addresses (credentials are never included)',
    'doctor.txt     health checks, one per line',
    'status.json    sync status when the bundle was made',
    'outbox.json    outbox counts and every tap not yet sent',
    'logs/          the host and shell log files, rotated ones too (tokens and secrets are redacted)',
    '',
  ].join('\n');
}

/** Keeps the newest `keep` bundles; the names sort by time. */
function prune(dir: string, keep: number): void {
  const bundles = readdirSync(dir)
    .filter((n) => n.startsWith(PREFIX))
    .sort();
  for (const old of bundles.slice(0, Math.max(0, bundles.length - keep))) rmSync(join(dir, old), { recursive: true, force: true });
}
