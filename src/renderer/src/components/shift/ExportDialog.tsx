/**
 * The day's figures as CSV, one table a file (the day's totals, by packer, by counter, by hour):
 * plain headings in the terminal's language, and the file saved where the manager chooses (the
 * app's save dialog; in a browser, a download, which the browser saves where it is set to). A sum
 * of a column in a spreadsheet is the day's figure, since each table splits the day once.
 */
import { useState } from 'react';
import { SHIFT_CSV_COLUMNS, SHIFT_CSV_TABLES, type ShiftCsvTable, type ShiftCsvWords } from '../../../../shared/ipc';
import { i18next } from '../../i18n';
import { type Said, saidOk, saidRefused } from '../../i18n/said';
import { useWords } from '../../i18n/useWords';
import { command } from '../../intents';
import { useStatus } from '../../store/status';
import { Dialog } from '../Dialog';
import { SaidLine } from '../SaidLine';

/** The CSV's headings in the terminal's language (a packer's switch for the shift does not change the manager's file). */
function csvWords(): ShiftCsvWords {
  const language = useStatus.getState().settings?.language ?? i18next.language;
  const t = i18next.getFixedT(language);
  return {
    columns: Object.fromEntries(SHIFT_CSV_COLUMNS.map((c) => [c, t(`shiftReport:csv.${c}`)])) as ShiftCsvWords['columns'],
    noName: t('shiftReport:share.noName'),
    thisCounter: t('shiftReport:thisCounter'),
    dialogTitle: t('shiftReport:export.title'),
  };
}

/** Hands the browser a file to save (the harness: no save dialog of the app's own). */
function download(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

export function ExportDialog({ day, onClose }: { day: string; onClose: () => void }) {
  const { t } = useWords();
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState<Said | null>(null);
  const save = async (table: ShiftCsvTable) => {
    if (busy) return;
    setBusy(true);
    setSaid(null);
    const reply = await command('shift.exportCsv', { day, table, words: csvWords() });
    setBusy(false);
    if (!reply.ok) return setSaid(saidRefused(reply.problem));
    const saved = reply.value;
    if (saved.outcome === 'saved') setSaid(saidOk((t) => t('shiftReport:export.saved', { path: saved.path })));
    else if (saved.outcome === 'download') {
      download(saved.fileName, saved.text);
      setSaid(saidOk((t) => t('shiftReport:export.downloaded', { file: saved.fileName })));
    }
  };
  return (
    <Dialog
      title={t('shiftReport:export.title')}
      onClose={onClose}
      testId="export-dialog"
      actions={
        <button type="button" className="button" onClick={onClose}>
          {t('common:dialog.close')}
        </button>
      }
    >
      <p>{t('shiftReport:export.intro')}</p>
      <div className="form-actions">
        {SHIFT_CSV_TABLES.map((table) => (
          <button key={table} type="button" className="button" disabled={busy} onClick={() => void save(table)} data-testid={`export-${table}`}>
            {t(`shiftReport:export.tables.${table}`)}
          </button>
        ))}
      </div>
      {said && <SaidLine said={said} look="form" testId="export-said" />}
    </Dialog>
  );
}
