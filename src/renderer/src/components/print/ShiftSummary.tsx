/**
 * The shift summary on paper: the day's counts, how long Accept and packing took, who cancelled,
 * orders by hour as a chart (black bars: one ink), each packer's and counter's share. Loaded on
 * first use with its chart library (print/run.ts printShiftSummary).
 */
import type { ShiftReport } from '../../../../shared/ipc';
import { i18next } from '../../i18n';
import { useWords } from '../../i18n/useWords';
import { paperTime } from '../../print/when';
import { useStatus } from '../../store/status';
import { HourChart } from '../shift/HourChart';
import { CancelledBy, Counts, Shares, shareRows, Timings } from '../shift/ShiftParts';
import { dayText } from '../shift/days';

/** The chart's width inside the paper's margins, in CSS pixels (72 mm and 186 mm). */
const CHART_WIDTH = { thermal80: 272, a4: 700 } as const;

export default function ShiftSummary({ report, at }: { report: ShiftReport; at: number }) {
  const { t, locale } = useWords();
  const paper = useStatus((s) => s.settings?.paper ?? 'thermal80');
  const rows = shareRows(report, t);
  return (
    <article className="print-doc shift-summary" data-print-document="shiftSummary">
      <header className="print-head">
        <h1>{t('shiftReport:paper.title')}</h1>
        <p className="print-order-id">{dayText(report.day, locale)}</p>
        <p>
          {/* The counter by its name in the store hub; a one-counter store's summary needs none (never its terminal id). */}
          {report.counterName ? `${report.counterName} · ` : ''}
          {t('print:pick.printedAt', { time: paperTime(at, i18next.language) })}
        </p>
      </header>
      {report.hub && (
        <p>
          {report.hub.missingSince === null
            ? t('shiftReport:hub.store')
            : t('shiftReport:hub.missing', { time: paperTime(report.hub.missingSince, i18next.language) })}
        </p>
      )}
      {report.hub && <p data-testid="paper-packed-twice">{t('shiftReport:hub.packedTwice', { count: report.hub.packedTwice ?? 0 })}</p>}
      <Counts figures={report.total} />
      <CancelledBy report={report} />
      <Timings figures={report.total} />
      <h2>{t('shiftReport:chart.title')}</h2>
      <HourChart byHour={report.byHour} width={CHART_WIDTH[paper]} height={paper === 'a4' ? 240 : 160} print />
      <Shares title={t('shiftReport:share.packers')} rows={rows.packers} testId="paper-packers" />
      <Shares title={t('shiftReport:share.counters')} rows={rows.counters} testId="paper-counters" />
    </article>
  );
}
