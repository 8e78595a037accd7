/** The terminal's stable id (`<dataDir>/terminal-id`): names it in logs and the audit, and picks its update rollout bucket. */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { writeFileAtomic } from '../settings';

const ID_FORMAT = /^[A-Za-z0-9-]{8,64}$/;

/** Reads the id, or creates one on first run (or when the file holds something that is not an id). */
export function loadTerminalId(file: string, random: (size: number) => Buffer = randomBytes): { id: string; created: boolean } {
  try {
    const text = readFileSync(file, 'utf8').trim();
    if (ID_FORMAT.test(text)) return { id: text, created: false };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const id = `T-${random(8).toString('hex')}`;
  writeFileAtomic(file, `${id}\n`);
  return { id, created: true };
}
