/** Each fulfilment with where it stands and its status history: promised, expected, actual. */
import type { Fulfillment, StatusHistoryEntry } from '../../../../shared/protocol/schemas';
import type { TFunction } from 'i18next';
import { formatClock, formatDayClock } from '../../format';
import { useWords } from '../../i18n/useWords';
import { stateWord } from '../../i18n/words';
import { printableText } from '../../../../shared/protocol/orderId';

/** History keys in the order they happen; others the service adds follow, as sent. */
const KEY_ORDER = ['PACKING', 'PACKED', 'SEARCHING_FOR_AGENT', 'AGENT_ASSIGNED', 'OUT_FOR_DELIVERY', 'DELIVERED'];


function sortedHistory(history: Record<string, StatusHistoryEntry>): [string, StatusHistoryEntry][] {
  const rank = (k: string) => {
    const i = KEY_ORDER.indexOf(k.toUpperCase());
    return i < 0 ? KEY_ORDER.length : i;
  };
  return Object.entries(history).sort(([a], [b]) => rank(a) - rank(b));
}

/** Today's times as "14:05"; other days with the date, since orders can span midnight. */
function at(e: { endTime: number } | undefined, locale: string): string {
  if (!e) return '—';
  return new Date(e.endTime).toDateString() === new Date().toDateString() ? formatClock(e.endTime, locale) : formatDayClock(e.endTime, locale);
}

/** The fulfilment's kind in words: delivery, in store, or as the service names it. */
function typeWord(t: TFunction, type: string): string {
  const upper = type.toUpperCase();
  if (upper === 'DELIVERY') return t('order:fulfilment.delivery');
  if (upper === 'STORE') return t('order:fulfilment.store');
  return type;
}

export function FulfilmentList({ fulfilments }: { fulfilments: readonly Fulfillment[] }) {
  const { t } = useWords();
  return (
    <section className="panel" aria-labelledby="fulfilments-title">
      <h2 id="fulfilments-title">{t('order:fulfilment.title')}</h2>
      {fulfilments.map((f) => (
        <FulfilmentCard key={f.fulfillmentId} f={f} />
      ))}
    </section>
  );
}

function FulfilmentCard({ f }: { f: Fulfillment }) {
  const { t, locale } = useWords();
  const isDelivery = f.type.toUpperCase() === 'DELIVERY';
  const history = sortedHistory(f.fulfilmentStatusHistory ?? {});
  // The service rarely sends "expected" times; a column of dashes only takes room.
  const expected = history.some(([, e]) => e.expected);
  return (
    <div className="fulfilment" data-testid="fulfilment" data-type={f.type.toUpperCase()}>
      <div className="fulfilment-head">
        <span className="fulfilment-type">{typeWord(t, f.type)}</span>
        <span className="fulfilment-state" data-testid="fulfilment-state">
          {f.fulfillmentState ? stateWord(t, f.fulfillmentState) : t('order:fulfilment.notStarted')}
        </span>
      </div>
      {isDelivery && f.end && (
        <p className="fulfilment-end">
          {f.end.person?.name && <strong>{printableText(f.end.person.name)}</strong>}
          {f.end.contact?.phone && <> · {f.end.contact.phone}</>}
          {f.end.address?.formattedAddress && <span className="fulfilment-address">{printableText(f.end.address.formattedAddress)}</span>}
        </p>
      )}
      {history.length > 0 && (
        <table className="history">
          <thead>
            <tr>
              <th scope="col">{t('order:fulfilment.step')}</th>
              <th scope="col">{t('order:fulfilment.promised')}</th>
              {expected && <th scope="col">{t('order:fulfilment.expected')}</th>}
              <th scope="col">{t('order:fulfilment.done')}</th>
            </tr>
          </thead>
          <tbody>
            {history.map(([key, entry]) => (
              <tr key={key} className={entry.actual ? 'history-done' : undefined}>
                <th scope="row">{stateWord(t, key)}</th>
                <td>{at(entry.promised, locale)}</td>
                {expected && <td>{at(entry.expected, locale)}</td>}
                <td>{entry.actual ? <>✓ {at(entry.actual, locale)}</> : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
