/**
 * Saving a file where the manager chooses, in the Electron shell (src/main/files.ts), with a
 * stand-in for Electron's dialog and a real folder on disk: the dialog suggests Documents and the
 * file's name, a chosen path gets the file whole, a closed dialog saves nothing, and a folder that
 * cannot be written says so in words with no half file left behind.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createElectronFiles, type SaveDialogLike } from '../../src/main/files';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function folder(): string {
  const d = mkdtempSync(join(tmpdir(), 'packdesk-files-'));
  dirs.push(d);
  return d;
}

/** A dialog that answers `answer` and remembers what it was asked. */
function standIn(answer: { canceled: boolean; filePath?: string }) {
  const asked: Parameters<SaveDialogLike['showSaveDialog']>[0][] = [];
  const dialog: SaveDialogLike = {
    showSaveDialog: async (options) => {
      asked.push(options);
      return answer;
    },
  };
  return { dialog, asked };
}

const FILE = { fileName: 'shift-2026-11-28-packers.csv', text: '\uFEFFDay,Packer,Accepted\r\n2026-11-28,Ravi,3\r\n', title: 'Save the day as CSV' };

describe('saving a file in the Electron shell', () => {
  it('suggests Documents and the name, and writes the file whole where the manager chose', async () => {
    const documents = folder();
    const chosen = join(folder(), 'my shift.csv');
    const { dialog, asked } = standIn({ canceled: false, filePath: chosen });
    const saved = await createElectronFiles({ dialog, documents: () => documents }).saveAs(FILE);
    expect(saved).toEqual({ ok: true, value: { outcome: 'saved', path: chosen } });
    expect(asked[0]).toMatchObject({ title: FILE.title, defaultPath: join(documents, FILE.fileName), filters: [{ name: 'CSV', extensions: ['csv'] }] });
    expect(readFileSync(chosen, 'utf8')).toBe(FILE.text);
    expect(readdirSync(join(chosen, '..'))).toEqual(['my shift.csv']);
  });

  it('saves nothing when the dialog is closed', async () => {
    const { dialog } = standIn({ canceled: true });
    const documents = folder();
    await expect(createElectronFiles({ dialog, documents: () => documents }).saveAs(FILE)).resolves.toEqual({ ok: true, value: { outcome: 'cancelled' } });
    expect(readdirSync(documents)).toEqual([]);
  });

  it('says a folder that cannot be written in words, and leaves no half file', async () => {
    const gone = join(folder(), 'no such folder', 'shift.csv');
    const { dialog } = standIn({ canceled: false, filePath: gone });
    const saved = await createElectronFiles({ dialog, documents: folder }).saveAs(FILE);
    expect(saved.ok).toBe(false);
    if (!saved.ok) {
      expect(saved.problem.code).toBe('EXPORT_FAILED');
      expect(saved.problem.message).toContain('could not be written');
    }
    expect(existsSync(`${gone}.part`)).toBe(false);
  });
});
