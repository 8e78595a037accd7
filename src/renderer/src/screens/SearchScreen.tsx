/**
 * The Orders search (issue 24): find any order this terminal has, on the queue or gone from it,
 * by its number or last digits, the customer's name or phone, or the invoice number, narrowed by
 * where it stands and the day it arrived; or list a day's orders with nothing typed. Each order
 * opens its order screen, and its timeline (with reprints). A scan into the field searches for the
 * code: nothing on this screen records an invoice, so a product scanned here changes no order.
 * Loaded on first use (Shell.tsx), like the Shift screen.
 */
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { SEARCH_STANDINGS, type OrdersSearched } from '../../../shared/ipc';
import { dayOf } from '../../../shared/days';
import { DayField } from '../components/DayField';
import { HitList } from '../components/search/HitList';
import { dayOfChoice, useSearchQuery } from '../components/search/query';
import { dayText } from '../components/shift/days';
import { type Said, saidRefused } from '../i18n/said';
import { useWords } from '../i18n/useWords';
import { command, openFound } from '../intents';
import { useFieldScan } from '../scanner/fieldScan';
import '../styles/search.css';

/** Typing pauses this long before the search goes (each key would otherwise ask the host). */
const TYPING_PAUSE_MS = 200;
export const SEARCH_FIELD = 'orders-search-field';

export default function SearchScreen() {
  const { t, locale } = useWords();
  const { text, standing, day, set } = useSearchQuery();
  const [typed, setTyped] = useState(text);
  const [answer, setAnswer] = useState<{ key: string; result: OrdersSearched } | null>(null);
  const [problem, setProblem] = useState<Said | null>(null);
  const field = useRef<HTMLInputElement>(null);
  const today = dayOf(Date.now());
  const chosenDay = dayOfChoice(day, today);
  const key = JSON.stringify([text.trim(), standing, chosenDay ?? '']);

  // The last search is kept (query.ts) and selected: what the packer types next replaces it, rather
  // than running on after it ("INV-BLR" then "Patel" searched for "INV-BLRPatel").
  useEffect(() => {
    field.current?.focus();
    field.current?.select();
  }, []);
  // Typing settles before it becomes the query.
  useEffect(() => {
    if (typed === text) return;
    const timer = setTimeout(() => set({ text: typed }), TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [typed, text, set]);
  // A scan searches for the whole code at once (never anything else: no invoice is recorded here).
  useFieldScan(
    field,
    useCallback(
      (code: string) => {
        // After the listener has put the field back as it was before the burst (fieldScan.ts).
        queueMicrotask(() => {
          setTyped(code);
          set({ text: code });
        });
      },
      [set],
    ),
  );

  useEffect(() => {
    const asked = text.trim();
    if (!asked && !chosenDay) return;
    let live = true;
    setProblem(null);
    void command('orders.search', { text: asked, ...(standing === 'all' ? {} : { standing }), ...(chosenDay ? { day: chosenDay } : {}) }).then((reply) => {
      if (!live) return;
      if (reply.ok) setAnswer({ key, result: reply.value });
      else setProblem(saidRefused(reply.problem));
    });
    return () => {
      live = false;
    };
  }, [key, text, standing, chosenDay]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    set({ text: typed });
  };
  const asked = text.trim() !== '' || chosenDay !== undefined;
  const shown = asked && answer?.key === key ? answer.result : null;

  return (
    <main className="screen search-screen" aria-labelledby="search-title" data-testid="search-screen" aria-busy={asked && !shown && !problem ? true : undefined}>
      <h1 id="search-title">{t('search:title')}</h1>
      <form className="search-form" role="search" aria-label={t('search:title')} onSubmit={submit}>
        <label htmlFor={SEARCH_FIELD} className="search-label">
          {t('search:label')}
        </label>
        <input
          ref={field}
          id={SEARCH_FIELD}
          className="text-input search-input"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          placeholder={t('search:placeholder')}
          autoComplete="off"
          spellCheck={false}
          maxLength={128}
          data-testid="search-field"
        />
        <button type="submit" className="button button-primary" data-testid="search-go">
          {t('search:go')}
        </button>
      </form>
      <div className="search-filters">
        <div className="search-filter" role="group" aria-label={t('search:standing.label')}>
          {(['all', ...SEARCH_STANDINGS] as const).map((s) => (
            <button key={s} type="button" className="filter-chip" aria-pressed={standing === s} onClick={() => set({ standing: s })} data-testid={`search-standing-${s}`}>
              {t(`search:standing.${s}`)}
            </button>
          ))}
        </div>
        <div className="search-filter" role="group" aria-label={t('search:day.label')}>
          <button type="button" className="filter-chip" aria-pressed={day.kind === 'any'} onClick={() => set({ day: { kind: 'any' } })} data-testid="search-day-any">
            {t('search:day.any')}
          </button>
          <button type="button" className="filter-chip" aria-pressed={day.kind === 'today'} onClick={() => set({ day: { kind: 'today' } })} data-testid="search-day-today">
            {t('search:day.today')}
          </button>
          <DayField
            label={t('search:day.pick')}
            value={day.kind === 'day' ? day.day : null}
            max={today}
            optional
            years={1}
            onChange={(picked) => set({ day: picked ? { kind: 'day', day: picked } : { kind: 'any' } })}
            testId="search-day"
          />
        </div>
      </div>
      <div className="search-result" aria-live="polite">
        {problem && (
          <p className="search-problem" role="alert">
            {problem.words(t, locale)}
          </p>
        )}
        {!asked && <p className="search-empty" data-testid="search-empty">{t('search:empty')}</p>}
        {shown && shown.hits.length === 0 && (
          <p className="search-empty" data-testid="search-nothing">
            {text.trim() ? t('search:nothing', { text: text.trim() }) : t('search:nothingOnDay', { day: dayText(chosenDay ?? today, locale) })}
          </p>
        )}
        {shown && shown.hits.length > 0 && (
          <>
            <p className="search-count" data-testid="search-count">
              {t('search:count', { count: shown.hits.length })}
            </p>
            <HitList hits={shown.hits} onOpen={(orderId) => void openFound(orderId)} />
            {shown.more && <p data-testid="search-more">{t('search:more')}</p>}
            {shown.hits.some((h) => h.standing === 'left') && <p className="muted">{t('search:leftNote')}</p>}
          </>
        )}
      </div>
    </main>
  );
}
