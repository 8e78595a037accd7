/**
 * Filter the queue by next step; each choice shows how many orders it holds. The choices are one
 * row that scrolls sideways when it does not fit; then two arrows say there are more and bring
 * them into view, each greyed out once its end is reached (at 1366 the row ended between two
 * choices, and the last three were never seen).
 *
 * The arrows lie together over the row's right end, where its choices are cut anyway, so they
 * never move a choice: the host's drawing of the first screen cannot know whether the row fits
 * and draws none, and the app's then appear over the drawn row with nothing under them moving.
 * Both stay while the row does not fit, so a quick second tap on an arrow never lands on the
 * choice an arrow that went away would have uncovered.
 */
import { useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { formatNumber } from '../../format';
import { useWords } from '../../i18n/useWords';
import { STEP_LABEL_KEY } from '../../i18n/words';
import { useOrders } from '../../store/orders';
import { useUi, type QueueView } from '../../store/ui';
import { useNow } from '../../hooks/useNow';
import { inView } from './views';

const CHOICES: readonly { key: QueueView; label: string }[] = [
  { key: 'ALL', label: 'common:queue.all' },
  { key: 'ACCEPT', label: STEP_LABEL_KEY.ACCEPT },
  { key: 'PACKING', label: STEP_LABEL_KEY.PACKING },
  { key: 'PACKED', label: STEP_LABEL_KEY.PACKED },
  { key: 'OUT_FOR_DELIVERY', label: STEP_LABEL_KEY.OUT_FOR_DELIVERY },
  { key: 'DELIVERED', label: STEP_LABEL_KEY.DELIVERED },
  { key: 'COMPLETE', label: STEP_LABEL_KEY.COMPLETE },
  { key: 'DONE', label: 'common:steps.nothingLeft' },
  { key: 'LATE', label: 'timeline:views.late' },
  { key: 'DONE_TODAY', label: 'timeline:views.doneToday' },
];

/** How many orders "Late" and "Done today" hold now (a minute's clock: both change with time). */
function useViewCounts(): { LATE: number; DONE_TODAY: number } {
  const version = useOrders((s) => s.version);
  const now = useNow(60_000);
  // Counted once per change of the queue or of the minute, not per chip; `version` stands for the
  // Map's contents, which change in place.
  return useMemo(() => {
    let late = 0;
    let done = 0;
    for (const view of useOrders.getState().byId.values()) {
      if (inView(view, 'LATE', now)) late += 1;
      else if (inView(view, 'DONE_TODAY', now)) done += 1;
    }
    return { LATE: late, DONE_TODAY: done };
  }, [version, now]);
}

/** Where the row of choices is scrolled to, when it does not fit. */
interface Ends {
  readonly overflowing: boolean;
  readonly atStart: boolean;
  readonly atEnd: boolean;
}

const FITS: Ends = { overflowing: false, atStart: true, atEnd: true };

export function StepFilters() {
  const { t, locale } = useWords();
  const counts = useOrders((s) => s.counts);
  const total = useOrders((s) => s.sortedIds.length);
  const filter = useUi((s) => s.filter);
  const setFilter = useUi((s) => s.setFilter);
  const ends = useScrollEnds();
  const views = useViewCounts();
  const countOf = (key: QueueView): number => (key === 'ALL' ? total : key === 'LATE' || key === 'DONE_TODAY' ? views[key] : counts[key]);
  return (
    <div className="step-filters-bar">
      <div ref={ends.ref} className={ends.overflowing ? 'step-filters step-filters-overflowing' : 'step-filters'} role="group" aria-label={t('common:queue.filterLabel')} onScroll={ends.measure}>
        {CHOICES.map((c) => (
          <button
            key={c.key}
            type="button"
            className={`filter-chip filter-${c.key}`}
            aria-pressed={filter === c.key}
            onClick={() => setFilter(c.key)}
            data-testid={`filter-${c.key}`}
          >
            {t(c.label)} <span className="filter-count">{formatNumber(countOf(c.key), locale)}</span>
          </button>
        ))}
      </div>
      {ends.overflowing && (
        <div className="filter-scroll-end">
          <ScrollArrow direction={-1} disabled={ends.atStart} label={t('common:queue.filtersBack')} onScroll={ends.page} />
          <ScrollArrow direction={1} disabled={ends.atEnd} label={t('common:queue.filtersMore')} onScroll={ends.page} />
        </div>
      )}
    </div>
  );
}

/**
 * One of the arrows. Out of the Tab order: Tab reaches every choice, and the row scrolls the one
 * focused clear of the arrows (queue.css).
 */
function ScrollArrow({ direction, disabled, label, onScroll }: { direction: 1 | -1; disabled: boolean; label: string; onScroll: (direction: 1 | -1) => void }) {
  return (
    <button
      type="button"
      className="filter-scroll"
      tabIndex={-1}
      disabled={disabled}
      aria-label={label}
      title={label}
      onClick={() => onScroll(direction)}
      data-testid={direction > 0 ? 'filters-more' : 'filters-back'}
    >
      <span aria-hidden="true">{direction > 0 ? '›' : '‹'}</span>
    </button>
  );
}

/** Whether the row overflows and which ends are reached, kept up to date through scrolls, resizes and changed words. */
function useScrollEnds() {
  const ref = useRef<HTMLDivElement>(null);
  const [ends, setEnds] = useState<Ends>(FITS);
  const measure = useCallback(() => {
    const row = ref.current;
    if (!row) return;
    // The room kept after the last choice for the arrows while they show is not a choice: without
    // it the row may fit.
    const room = parseFloat(getComputedStyle(row).paddingInlineEnd) || 0;
    const next: Ends = {
      overflowing: row.scrollWidth - room > row.clientWidth + 1,
      atStart: row.scrollLeft <= 1,
      atEnd: row.scrollLeft + row.clientWidth >= row.scrollWidth - 1,
    };
    setEnds((was) => (was.overflowing === next.overflowing && was.atStart === next.atStart && was.atEnd === next.atEnd ? was : next));
  }, []);
  useLayoutEffect(() => {
    const row = ref.current;
    if (!row) return;
    // First measured in the observer's first callback, which comes once the browser has laid the
    // row out anyway: measured here, in the first render, reading the widths forced a layout of the
    // whole page of its own (about a fifth of the queue's first render). Later changes (a count or
    // the language) are measured in the next frame, once, however many choices changed width.
    let frame = 0;
    let first = true;
    const observer = new ResizeObserver(() => {
      cancelAnimationFrame(frame);
      if (first) {
        first = false;
        measure();
      } else frame = requestAnimationFrame(measure);
    });
    observer.observe(row);
    // The choices change width with their counts and the language.
    for (const choice of row.children) observer.observe(choice);
    return () => {
      cancelAnimationFrame(frame);
      observer.disconnect();
    };
  }, [measure]);
  const page = useCallback((direction: 1 | -1) => {
    const row = ref.current;
    if (!row) return;
    // Most of what shows beside the arrows, so a choice cut under them is whole after the turn.
    const covered = row.parentElement?.querySelector('.filter-scroll-end')?.getBoundingClientRect().width ?? 0;
    row.scrollBy({ left: direction * Math.max((row.clientWidth - covered) * 0.9, 120) });
  }, []);
  return { ...ends, ref, measure, page };
}
