/** Settings for printing: the paper, the printer (or the print dialog each time), and auto-print on PACKED. */
import { useEffect, useId, useState } from 'react';
import type { Paper, Printer, Settings } from '../../../../shared/ipc';
import { command } from '../../intents';
import { useSettingsDraft } from '../settings/useSettingsDraft';
import { useStatus } from '../../store/status';
import { useWords } from '../../i18n/useWords';
import { type Said, saidRefused } from '../../i18n/said';
import { SaveResultLine } from '../settings/SaveResultLine';

type Editable = Pick<Settings, 'paper' | 'printer' | 'autoPrintSlip' | 'slipWholePhone'>;

function editable(s: Settings): Editable {
  return { paper: s.paper, printer: s.printer, autoPrintSlip: s.autoPrintSlip, slipWholePhone: s.slipWholePhone };
}

export function PrintingForm({ pin }: { pin: string }) {
  const { t, locale } = useWords();
  const shell = useStatus((s) => s.info?.shell ?? null);
  const { draft, change, save, busy, result } = useSettingsDraft(pin, editable);
  const [printers, setPrinters] = useState<Printer[] | null>(null);
  const [printersProblem, setPrintersProblem] = useState<Said | null>(null);
  const id = useId();

  useEffect(() => {
    let live = true;
    void command('printers.list', {}).then((reply) => {
      if (!live) return;
      if (reply.ok) setPrinters(reply.value);
      else setPrintersProblem(saidRefused(reply.problem));
    });
    return () => {
      live = false;
    };
  }, []);

  if (!draft) return null;
  // A saved printer that the system no longer lists is still offered, marked, so it is not lost silently.
  const known = printers ?? [];
  const missing = draft.printer !== null && !known.some((p) => p.name === draft.printer) ? draft.printer : null;

  return (
    <form className="panel settings-form" onSubmit={(e) => void save(e)} aria-labelledby={`${id}-t`} data-testid="printing-form">
      <h2 id={`${id}-t`}>{t('print:settings.title')}</h2>
      <div className="field">
        <label htmlFor={`${id}-paper`}>{t('print:settings.paper')}</label>
        <select id={`${id}-paper`} className="text-input narrow" value={draft.paper} onChange={(e) => change({ paper: e.target.value as Paper })} data-testid="paper">
          <option value="thermal80">{t('print:settings.thermal80')}</option>
          <option value="a4">{t('print:settings.a4')}</option>
        </select>
      </div>
      {shell === 'web' ? (
        <p className="field-note" data-testid="printer-browser-note">
          {t('print:settings.browserNote')}
        </p>
      ) : (
        <div className="field">
          <label htmlFor={`${id}-printer`}>{t('print:settings.printer')}</label>
          <select
            id={`${id}-printer`}
            className="text-input"
            value={draft.printer ?? ''}
            onChange={(e) => change({ printer: e.target.value === '' ? null : e.target.value })}
            data-testid="printer"
          >
            <option value="">{t('print:settings.askEachTime')}</option>
            {known.map((p) => (
              <option key={p.name} value={p.name}>
                {p.displayName}
              </option>
            ))}
            {missing && <option value={missing}>{t('print:settings.missingPrinter', { name: missing })}</option>}
          </select>
          {printersProblem && <p className="inline-error">{printersProblem.words(t, locale)}</p>}
          {printers !== null && printers.length === 0 && <p className="field-note">{t('print:settings.noPrinters')}</p>}
        </div>
      )}
      <label className="toggle">
        <input type="checkbox" checked={draft.autoPrintSlip} onChange={(e) => change({ autoPrintSlip: e.target.checked })} data-testid="auto-print" />
        <span className="toggle-box" aria-hidden="true" />
        <span>{t('print:settings.autoPrint')}</span>
      </label>
      <label className="toggle">
        <input type="checkbox" checked={draft.slipWholePhone} onChange={(e) => change({ slipWholePhone: e.target.checked })} data-testid="slip-whole-phone" />
        <span className="toggle-box" aria-hidden="true" />
        <span>{t('print:settings.wholePhone')}</span>
      </label>
      <div className="form-foot">
        <button type="submit" className="button button-primary" disabled={busy} data-testid="printing-save">
          {t('print:settings.save')}
        </button>
        <SaveResultLine result={result} saved={t('print:settings.saved')} />
      </div>
    </form>
  );
}
