/**
 * The outbox: every tap the terminal holds, the ones that need a person first. Each says in
 * words where it stands, how often it was tried and what the service answered; refused ones can
 * be sent again or (with the manager PIN) dropped.
 */
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { DiscardDialog } from '../components/outbox/DiscardDialog';
import { OutboxEntryRow } from '../components/outbox/OutboxEntryRow';
import { refreshOutbox } from '../intents';
import { useStatus } from '../store/status';
import { isWaiting, needsAttention, outboxOrder, useOutbox } from '../store/outbox';
import type { OutboxEntryView } from '../../../shared/ipc';

/** Rows drawn per section; a long outage can queue thousands and the packer needs the first few. */
const WAITING_SHOWN = 200;
const HISTORY_SHOWN = 50;

export function OutboxScreen() {
  const byId = useOutbox((s) => s.byId);
  const message = useStatus((s) => s.sync?.message ?? null);
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
        Outbox
      </h1>
      <p className="screen-intro">
        Every tap is kept here until the order service has it. Taps are sent in the order they were made, one order at a time.
      </p>
      {message && (
        <p className="outbox-message" role="status">
          {message}
        </p>
      )}
      <Section title="Needs attention" count={attention.length} empty="Nothing needs attention." testId="outbox-attention">
        {attention.map((e) => (
          <OutboxEntryRow key={e.id} entry={e} onDiscard={setDiscarding} />
        ))}
      </Section>
      <Section title="Waiting to send" count={waiting.length} empty="No taps waiting: everything has been sent." testId="outbox-waiting">
        {waiting.slice(0, WAITING_SHOWN).map((e) => (
          <OutboxEntryRow key={e.id} entry={e} onDiscard={setDiscarding} />
        ))}
        {waiting.length > WAITING_SHOWN && <li className="more">…and {waiting.length - WAITING_SHOWN} more, sent in turn.</li>}
      </Section>
      <Section title="Recently finished" count={history.length} empty="Nothing sent yet." testId="outbox-history">
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
