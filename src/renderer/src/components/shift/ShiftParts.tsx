/** The parts of a shift's picture the screen and the printed summary share: the counts, the times, the shares. */
import type { DurationSpread, ShiftFigures, ShiftReport } from '../../../../shared/ipc';
import { formatNumber, formatSpan } from '../../format';
import { useWords } from '../../i18n/useWords';
import { printableText } from '../../../../shared/protocol/orderId';
import { counterName } from '../../i18n';
import { counterShown } from '../../../../shared/shift';

const COUNTS = ['received', 'accepted', 'rejected', 'cancelled', 'packed', 'handedOver', 'late'] as const;

/** A duration's median and 90th percentile in words, or a dash when nothing was timed. */
function spreadWords(s: DurationSpread, t: ReturnType<typeof useWords>['t']): { median: string; p90: string } {
  return {
    median: s.medianMs === null ? '–' : formatSpan(s.medianMs, t),
    p90: s.p90Ms === null ? '–' : formatSpan(s.p90Ms, t),
  };
}

/** The day's counts, one tile each. */
export function Counts({ figures }: { figures: ShiftFigures }) {
  const { t, locale } = useWords();
  return (
    <dl className="shift-counts" data-testid="shift-counts">
      {COUNTS.map((key) => (
        <div key={key} className={`shift-count shift-count-${key}`} data-testid={`count-${key}`} data-value={figures[key]}>
          <dt>{t(`shiftReport:count.${key}`)}</dt>
          <dd>{formatNumber(figures[key], locale)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** How long Accept and packing took: median and 90th percentile. */
export function Timings({ figures }: { figures: ShiftFigures }) {
  const { t } = useWords();
  const rows = [
    { key: 'toAccept', spread: figures.toAccept },
    { key: 'toPack', spread: figures.toPack },
  ] as const;
  return (
    <table className="shift-table shift-timings" data-testid="shift-timings">
      <thead>
        <tr>
          <th scope="col">{t('shiftReport:timing.what')}</th>
          <th scope="col">{t('shiftReport:timing.median')}</th>
          <th scope="col">{t('shiftReport:timing.p90')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(({ key, spread }) => {
          const w = spreadWords(spread, t);
          return (
            <tr key={key} data-testid={`timing-${key}`} data-median-ms={spread.medianMs ?? ''} data-p90-ms={spread.p90Ms ?? ''}>
              <th scope="row">{t(`shiftReport:timing.${key}`)}</th>
              <td>{w.median}</td>
              <td>{w.p90}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** Each packer's or counter's share of the day. */
export function Shares({ title, rows, testId }: { title: string; rows: { name: string; label?: string; figures: ShiftFigures }[]; testId: string }) {
  const { t, locale } = useWords();
  return (
    <table className="shift-table shift-shares" data-testid={testId}>
      <caption>{title}</caption>
      <thead>
        <tr>
          <th scope="col">{t('shiftReport:share.who')}</th>
          <th scope="col">{t('shiftReport:count.accepted')}</th>
          <th scope="col">{t('shiftReport:count.packed')}</th>
          <th scope="col">{t('shiftReport:count.late')}</th>
          <th scope="col">{t('shiftReport:count.cancelledOrRejected')}</th>
          <th scope="col">{t('shiftReport:timing.toPackMedian')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(({ name, label, figures }) => (
          <tr key={name} data-name={name} data-packed={figures.packed}>
            <th scope="row">{label ?? name}</th>
            {/* Each figure carries its column's word: the 80 mm roll prints a row as a block (shift.css). */}
            <td data-label={t('shiftReport:count.accepted')}>{formatNumber(figures.accepted, locale)}</td>
            <td data-label={t('shiftReport:count.packed')}>{formatNumber(figures.packed, locale)}</td>
            <td data-label={t('shiftReport:count.late')}>{formatNumber(figures.late, locale)}</td>
            <td data-label={t('shiftReport:count.cancelledOrRejected')}>{formatNumber(figures.cancelled + figures.rejected, locale)}</td>
            <td data-label={t('shiftReport:timing.toPackMedian')}>{spreadWords(figures.toPack, t).median}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The rows of the packer and counter tables: a tap without a name is the counter's. */
export function shareRows(report: ShiftReport, t: ReturnType<typeof useWords>['t']) {
  return {
    packers: report.byPacker.map((p) => ({ name: p.packer !== null ? printableText(p.packer) : t('shiftReport:share.noName'), figures: p.figures })),
    // The hub's own names in the language shown ("काउंटर 2"; counterName shows a given name's direction controls); this
    // counter by its name, never its terminal id; data-name keeps the name as given.
    counters: report.byCounter.map((c) => {
      const name = counterShown(report, c.counter, t('shiftReport:thisCounter'));
      return { name, label: counterName(name), figures: c.figures };
    }),
  };
}

/** Who cancelled or rejected, in words. */
export function CancelledBy({ report }: { report: ShiftReport }) {
  const { t, locale } = useWords();
  if (report.cancelledBy.length === 0) return null;
  return (
    <ul className="shift-cancelled" data-testid="shift-cancelled-by">
      {report.cancelledBy.map((c) => (
        <li key={`${c.by}:${c.packer ?? ''}:${c.counter ?? ''}`}>
          {c.by === 'elsewhere'
            ? t('shiftReport:cancelledBy.elsewhere', { n: formatNumber(c.count, locale) })
            : t('shiftReport:cancelledBy.here', { n: formatNumber(c.count, locale), who: c.packer ?? (c.counter !== null ? counterShown(report, c.counter, t('shiftReport:thisCounter')) : t('shiftReport:share.noName')) })}
        </li>
      ))}
    </ul>
  );
}
