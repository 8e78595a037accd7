/**
 * Saving a file where the manager chooses, in the Electron shell: the system's save dialog over the
 * window, suggesting the Documents folder and the file's name, then the file written whole (a
 * `.part` renamed into place, so a full disk leaves no half file). Electron's dialog and the file
 * system are passed in (structurally typed), so this runs under Node in tests.
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CsvSaved } from '../shared/ipc';
import { fail, ok, type Result } from '../shared/result';
import type { FileToSave, SaveFilePort } from './core/host/shift-export';

/** The part of Electron's dialog module this uses. */
export interface SaveDialogLike {
  showSaveDialog(options: {
    title: string;
    defaultPath: string;
    filters: { name: string; extensions: string[] }[];
    properties: ('createDirectory' | 'showOverwriteConfirmation')[];
  }): Promise<{ canceled: boolean; filePath?: string | undefined }>;
}

export function createElectronFiles(options: { readonly dialog: SaveDialogLike; readonly documents: () => string }): SaveFilePort {
  return {
    async saveAs(file: FileToSave): Promise<Result<CsvSaved>> {
      const chosen = await options.dialog.showSaveDialog({
        title: file.title,
        defaultPath: join(options.documents(), file.fileName),
        filters: [{ name: 'CSV', extensions: ['csv'] }],
        properties: ['createDirectory', 'showOverwriteConfirmation'],
      });
      if (chosen.canceled || !chosen.filePath) return ok({ outcome: 'cancelled' });
      const path = chosen.filePath;
      try {
        writeFileSync(`${path}.part`, file.text, { mode: 0o600 });
        renameSync(`${path}.part`, path);
      } catch (e) {
        rmSync(`${path}.part`, { force: true });
        return fail('storage', `The file could not be written to ${dirname(path)}: ${e instanceof Error ? e.message : String(e)}`, 'EXPORT_FAILED', { dir: dirname(path) });
      }
      return ok({ outcome: 'saved', path });
    },
  };
}
