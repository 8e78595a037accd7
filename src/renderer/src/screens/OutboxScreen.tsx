/**
 * The outbox: every tap the terminal holds, the ones that need a person first. Each says in
 * words where it stands, how often it was tried and what the service answered; refused ones can
 * be sent again or (with the manager PIN) dropped.
 */
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { DiscardDialog } from '../components/outbox/DiscardDialog';
import { OutboxEntryRow } from '../components/outbox/OutboxEntryRow';
import { formatClock } from '../format';
import { SupportDetails } from '../components/SupportDetails';
import { useWords } from '../i18n/useWords';
import { noticeWords } from '../i18n/words';
import { refreshOutbox } from '../intents';
import { useStatus } from '../store/status';
import { isWaiting, needsAttention, outboxOrder, useOutbox } from '../store/outbox';
import type { OutboxEntryView } from '../../../shared/ipc';

/** Rows drawn per section; a long outage can queue thousands and the packer needs the first few. */
const WAITING_SHOWN = 200;
const HISTORY_SHOWN = 50;

export function OutboxScreen() {
  const byId = useOutbox((s) => s.byId);
  const { t, locale } = useWords();
  const sync = useStatus((s) => s.sync);
  const message = noticeWords(t, sync?.notice, sync?.message ?? null);
  const lastSuccessAt = sync?.lastSuccessAt ?? null;
  const [discarding, setDiscarding] = useState<OutboxEntryView | null>(null);

  useEffect(() => {
    void refreshOutbox();
  }, []);

  const { attention, waiting, history } = useMemo(() => {
    const all = outboxOrder(byId.values());
    return {
      attention: all.filter(needsAttention),
      waiting: all.filter((e) => !needsAttention(e) && isWaiting(e)),
      history: all.filter((e) => !needsAttention(e) && !isWaiting(e)),
    };
  }, [byId]);

  return (
    <main className="screen outbox-screen" aria-labelledby="outbox-title" data-testid="outbox-screen">
      <h1 id="outbox-title" className="screen-title">
        {t('common:nav.outbox')}
      </h1>
      <p className="screen-intro">{t('outbox:intro')}</p>
      {message && (
        <p className="outbox-message" role="status">
          {message}
        </p>
      )}
      {/* The engine's own sentence (counts, file paths) for support, when the words above are a translation of it. */}
      {sync?.message && sync.message !== message && (
        <SupportDetails testId="outbox-message-details">
          <p>{sync.message}</p>
        </SupportDetails>
      )}
      <Section title={t('outbox:attention.title')} count={attention.length} empty={t('outbox:attention.empty')} testId="outbox-attention">
        {attention.map((e) => (
          <OutboxEntryRow key={e.id} entry={e} onDiscard={setDiscarding} />
        ))}
      </Section>
      <Section title={t('outbox:waiting.title')} count={waiting.length} empty={t('outbox:waiting.empty')} testId="outbox-waiting">
        {waiting.slice(0, WAITING_SHOWN).map((e) => (
          <OutboxEntryRow key={e.id} entry={e} onDiscard={setDiscarding} />
        ))}
        {waiting.length > WAITING_SHOWN && <li className="more">{t('outbox:waiting.more', { count: waiting.length - WAITING_SHOWN })}</li>}
      </Section>
      {/* The engine lists only what is still pending, so taps sent before this window opened are not
          here: say when the last one went, as the sync bar does, rather than "nothing sent". */}
      <Section
        title={t('outbox:history.title')}
        count={history.length}
        empty={lastSuccessAt === null ? t('outbox:history.empty') : t('outbox:history.before', { time: formatClock(lastSuccessAt, locale) })}
        testId="outbox-history"
      >
        {history.slice(0, HISTORY_SHOWN).map((e) => (
          <OutboxEntryRow key={e.id} entry={e} onDiscard={setDiscarding} />
        ))}
      </Section>
      {discarding && <DiscardDialog entry={discarding} onClose={() => setDiscarding(null)} />}
    </main>
  );
}

function Section(props: { title: string; count: number; empty: string; testId: string; children: ReactNode }) {
  return (
    <section className="outbox-section" aria-label={props.title} data-testid={props.testId}>
      <h2>
        {props.title} <span className="muted">({props.count})</span>
      </h2>
      {props.count === 0 ? <p className="muted">{props.empty}</p> : <ul className="outbox-list">{props.children}</ul>}
    </section>
  );
}
