/** Small JSON files in the data folder (settings, PIN hash): parsed with zod on read, replaced atomically on write, owner-only (0600) by default. */
import { closeSync, fchmodSync, fsyncSync, openSync, readFileSync, renameSync, writeSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { z } from 'zod';

export type JsonFileRead<T> =
  | { readonly kind: 'ok'; readonly value: T }
  | { readonly kind: 'missing' }
  | { readonly kind: 'unreadable'; readonly message: string };

/** Reads and parses a JSON file; says which of ok / missing / unreadable it is, never throws. */
export function readJsonFile<S extends z.ZodType>(file: string, schema: S): JsonFileRead<z.output<S>> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'unreadable', message: (err as Error).message };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { kind: 'unreadable', message: 'it is not valid JSON' };
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const where = first && first.path.length > 0 ? `${first.path.join('.')}: ` : '';
    return { kind: 'unreadable', message: `it does not have the expected shape (${where}${first?.message ?? 'invalid'})` };
  }
  return { kind: 'ok', value: parsed.data };
}

/**
 * Replaces a file so that a crash or power cut leaves either the old or the new content, never a
 * half-written file: write a temporary file, fsync it, rename it over the old one, fsync the folder.
 */
export function writeFileAtomic(file: string, content: string, mode = 0o600): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w', mode);
  try {
    // A temporary file left by a crash keeps its old mode on reopen; the renamed file must have this one.
    if (process.platform !== 'win32') fchmodSync(fd, mode);
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
  fsyncDir(dirname(file));
}

function fsyncDir(dir: string): void {
  // Windows cannot open a folder for fsync; the rename is durable enough there.
  if (process.platform === 'win32') return;
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
