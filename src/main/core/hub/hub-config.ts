/**
 * This PC's place in a store hub, kept in `<dataDir>/hub/hub.json` (zod-checked when read): its
 * role, the hub's address, the pinned certificate fingerprint and this counter's name. The store's
 * secret is not here: it is in the OS keychain. No file: a one-counter store, as before.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { CounterIdSchema, CounterNameSchema } from '../../../shared/hub';

export const HubConfigSchema = z.object({
  version: z.literal(1),
  role: z.enum(['hub', 'counter']),
  counterId: CounterIdSchema,
  counterName: CounterNameSchema,
  /** The hub's address as counters reach it (the join code's). */
  host: z.string().min(1).max(255),
  port: z.number().int().min(1).max(65_535),
  /** The hub certificate's SHA-256 in hex (whole, as read when joining or creating). */
  fingerprint: z.string().regex(/^[0-9a-f]{24,64}$/),
  /** On the hub PC: what nats-server listens on (HOST:PORT). */
  listen: z.string().nullable(),
  /** When this PC created or joined the hub (epoch ms). */
  since: z.number(),
});
export type HubConfig = z.infer<typeof HubConfigSchema>;

/** Where the hub configuration lives. */
export function hubConfigPath(dataDir: string): string {
  return path.join(dataDir, 'hub', 'hub.json');
}

export type HubConfigRead = { readonly ok: true; readonly config: HubConfig | null } | { readonly ok: false; readonly message: string };

/** Reads this PC's hub configuration: null when it takes part in no hub. */
export function loadHubConfig(dataDir: string): HubConfigRead {
  const file = hubConfigPath(dataDir);
  if (!existsSync(file)) return { ok: true, config: null };
  try {
    const parsed = HubConfigSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (parsed.success) return { ok: true, config: parsed.data };
    return { ok: false, message: `The hub settings in ${file} are damaged (${parsed.error.issues[0]?.message ?? 'invalid'}); leave the hub and join again.` };
  } catch (error) {
    return { ok: false, message: `The hub settings in ${file} cannot be read (${error instanceof Error ? error.message : String(error)}); leave the hub and join again.` };
  }
}

/** Writes the hub configuration (whole file replaced, so a crash leaves the old one or the new one). */
export function saveHubConfig(dataDir: string, config: HubConfig): void {
  const file = hubConfigPath(dataDir);
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(HubConfigSchema.parse(config), null, 2)}\n`);
  renameSync(temporary, file);
}

/** Forgets the hub configuration (this PC leaves the hub). */
export function clearHubConfig(dataDir: string): void {
  rmSync(hubConfigPath(dataDir), { force: true });
}

/** A terminal id as a counter id in the hub (letters, digits, - and _). */
export function counterIdOf(terminalId: string): string {
  return CounterIdSchema.parse(terminalId.replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 64) || 'counter');
}
