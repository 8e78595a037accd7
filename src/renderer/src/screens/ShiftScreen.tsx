/**
 * The shift in one picture, for today or a chosen day: counts, how long Accept and packing took,
 * orders by hour, each packer's and counter's share, who cancelled. Printed as a summary on the
 * terminal's paper (80 mm or A4) and exported as CSV for the manager. Open to everyone at the
 * counter: it names no customer, and packers see how the shift goes as the manager does.
 * Loaded on first use (the chart library stays out of the queue's first bundle).
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { ShiftReport } from '../../../shared/ipc';
import { ExportDialog } from '../components/shift/ExportDialog';
import { HourChart } from '../components/shift/HourChart';
import { CancelledBy, Counts, Shares, shareRows, Timings } from '../components/shift/ShiftParts';
import { dayText, shiftDayOf, shiftedDay } from '../components/shift/days';
import { type Said, saidRefused } from '../i18n/said';
import { DayField } from '../components/DayField';
import { useWords } from '../i18n/useWords';
import { bridge } from '../api';
import { command } from '../intents';
import { printShiftSummary } from '../print/run';

/** How long after a change today's report is read again (changes meanwhile join that reading). */
const REFRESH_AFTER_MS = 1_000;

export default function ShiftScreen() {
  const { t, locale } = useWords();
  const [day, setDay] = useState(() => shiftDayOf(Date.now()));
  const [report, setReport] = useState<ShiftReport | null>(null);
  const [problem, setProblem] = useState<Said | null>(null);
  const [busy, setBusy] = useState<'print' | null>(null);
  const [exporting, setExporting] = useState(false);
  const today = shiftDayOf(Date.now());
  // Bumped to read today's report again: the figures change while the screen is open.
  const [asked, setAsked] = useState(0);

  // Today's figures follow the store: this counter's taps (outbox.changed), orders arriving or
  // changing (orders.changed) and other counters' taps from the store hub (shift.changed). Read
  // again a moment after the first change, not once per event: a busy store changes every second.
  useEffect(() => {
    if (day !== today) return;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const later = () => {
      timer ??= setTimeout(() => {
        timer = null;
        setAsked((n) => n + 1);
      }, REFRESH_AFTER_MS);
    };
    const api = bridge();
    const stops = [api.on('outbox.changed', later), api.on('orders.changed', later), api.on('shift.changed', later)];
    return () => {
      for (const stop of stops) stop();
      if (timer !== null) clearTimeout(timer);
    };
  }, [day, today]);

  useEffect(() => {
    let live = true;
    setProblem(null);
    void command('shift.report', { day }).then((reply) => {
      if (!live) return;
      if (reply.ok) setReport(reply.value);
      else setProblem(saidRefused(reply.problem));
    });
    return () => {
      live = false;
    };
  }, [day, asked]);

  const print = async () => {
    if (!report) return;
    setBusy('print');
    try {
      await printShiftSummary(report);
    } finally {
      setBusy(null);
    }
  };

  const shown = report?.day === day ? report : null;
  const rows = shown ? shareRows(shown, t) : null;
  return (
    <main className="screen shift-screen" aria-labelledby="shift-title" data-testid="shift-screen" data-day={day} aria-busy={shown ? undefined : true}>
      <div className="shift-head">
        <h1 id="shift-title">{t('shiftReport:title', { day: dayText(day, locale) })}</h1>
        <div className="shift-days" role="group" aria-label={t('shiftReport:day.label')}>
          <button type="button" className="button" onClick={() => setDay(shiftedDay(day, -1))} data-testid="shift-previous">
            {t('shiftReport:day.previous')}
          </button>
          <DayField label={t('shiftReport:day.pick')} value={day} max={today} onChange={(picked) => picked && setDay(picked)} testId="shift-day" />
          <button type="button" className="button" disabled={day >= today} onClick={() => setDay(shiftedDay(day, 1))} data-testid="shift-next">
            {t('shiftReport:day.next')}
          </button>
          <button type="button" className="button" disabled={day === today} onClick={() => setDay(today)} data-testid="shift-today">
            {t('shiftReport:day.today')}
          </button>
        </div>
        <div className="shift-actions">
          <button type="button" className="button" disabled={!shown || busy !== null} onClick={() => void print()} data-testid="shift-print">
            {busy === 'print' ? t('print:action.printing') : t('shiftReport:print')}
          </button>
          <button type="button" className="button" disabled={busy !== null} onClick={() => setExporting(true)} data-testid="shift-export">
            {t('shiftReport:export.action')}
          </button>
        </div>
        {exporting && <ExportDialog day={day} onClose={() => setExporting(false)} />}
      </div>
      {problem && (
        <p className="shift-problem" role="alert">
          {problem.words(t, locale)}
        </p>
      )}
      {shown && rows && (
        <div className="shift-body" data-testid="shift-body" data-source={shown.source}>
          <section className="panel shift-panel" aria-labelledby="shift-counts-title">
            <h2 id="shift-counts-title">{t('shiftReport:countsTitle')}</h2>
            <Counts figures={shown.total} />
            <CancelledBy report={shown} />
            <Timings figures={shown.total} />
            {shown.source === 'kept' && <p className="muted">{t('shiftReport:kept')}</p>}
            <HubNote report={shown} />
          </section>
          <section className="panel shift-panel shift-chart-panel" aria-labelledby="shift-chart-title">
            <h2 id="shift-chart-title">{t('shiftReport:chart.title')}</h2>
            <ChartBox report={shown} />
          </section>
          <section className="panel shift-panel" aria-labelledby="shift-shares-title">
            <h2 id="shift-shares-title">{t('shiftReport:share.title')}</h2>
            <Shares title={t('shiftReport:share.packers')} rows={rows.packers} testId="shift-packers" />
            <Shares title={t('shiftReport:share.counters')} rows={rows.counters} testId="shift-counters" />
          </section>
        </div>
      )}
    </main>
  );
}

/** With a store hub: the figures are the store's, and since when other counters' taps may be missing (the hub away). */
function HubNote({ report }: { report: ShiftReport }) {
  const { t, locale } = useWords();
  if (!report.hub) return null;
  const since = report.hub.missingSince;
  const twice = <PackedTwice count={report.hub.packedTwice ?? 0} />;
  if (since === null)
    return (
      <>
        {twice}
        <p className="muted" data-testid="shift-hub">
          {t('shiftReport:hub.store')}
        </p>
      </>
    );
  const time = new Date(since).toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' });
  return (
    <>
      {twice}
      <p className="shift-problem" role="status" data-testid="shift-hub" data-missing-since={since}>
        {t('shiftReport:hub.missing', { time })}
      </p>
    </>
  );
}

/** Orders packed twice while the counters could not see each other: a figure of its own, red when any. */
function PackedTwice({ count }: { count: number }) {
  const { t } = useWords();
  return (
    <p className={count > 0 ? 'shift-problem' : 'muted'} data-testid="shift-packed-twice" data-count={count}>
      {t('shiftReport:hub.packedTwice', { count })}
    </p>
  );
}

/** The chart at the width its panel has (measured, and again when the window changes). */
function ChartBox({ report }: { report: ShiftReport }) {
  const { t } = useWords();
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth);
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const total = report.byHour.reduce((n, h) => n + h.received + h.packed, 0);
  return (
    <figure className="shift-chart" ref={ref} data-testid="shift-chart">
      {/* The bars are for the eye; the same figures are in words beside them and in the CSV. */}
      <div aria-hidden="true">{width > 0 && <HourChart byHour={report.byHour} width={width} height={260} />}</div>
      <figcaption className={total > 0 ? 'visually-hidden' : undefined}>{total > 0 ? t('shiftReport:chart.caption') : t('shiftReport:chart.empty')}</figcaption>
    </figure>
  );
}
