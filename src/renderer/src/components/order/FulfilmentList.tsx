/** Each fulfilment with where it stands and its status history: promised, expected, actual. */
import type { Fulfillment, StatusHistoryEntry } from '../../../../shared/protocol/schemas';
import { formatClock, formatDayClock } from '../../format/time';

/** History keys in the order they happen; others the service adds follow, as sent. */
const KEY_ORDER = ['PACKING', 'PACKED', 'SEARCHING_FOR_AGENT', 'AGENT_ASSIGNED', 'OUT_FOR_DELIVERY', 'DELIVERED'];

const WORDS: Record<string, string> = {
  PACKING: 'Packing',
  PACKED: 'Packed',
  SEARCHING_FOR_AGENT: 'Finding a rider',
  AGENT_ASSIGNED: 'Rider assigned',
  OUT_FOR_DELIVERY: 'Out for delivery',
  DELIVERED: 'Delivered',
};

function word(key: string): string {
  const known = WORDS[key.toUpperCase()];
  if (known) return known;
  const plain = key.replace(/_/g, ' ').toLowerCase();
  return plain.charAt(0).toUpperCase() + plain.slice(1);
}

function sortedHistory(history: Record<string, StatusHistoryEntry>): [string, StatusHistoryEntry][] {
  const rank = (k: string) => {
    const i = KEY_ORDER.indexOf(k.toUpperCase());
    return i < 0 ? KEY_ORDER.length : i;
  };
  return Object.entries(history).sort(([a], [b]) => rank(a) - rank(b));
}

/** Today's times as "14:05"; other days with the date, since orders can span midnight. */
function at(e: { endTime: number } | undefined): string {
  if (!e) return '—';
  return new Date(e.endTime).toDateString() === new Date().toDateString() ? formatClock(e.endTime) : formatDayClock(e.endTime);
}

export function FulfilmentList({ fulfilments }: { fulfilments: readonly Fulfillment[] }) {
  return (
    <section className="panel" aria-labelledby="fulfilments-title">
      <h2 id="fulfilments-title">Fulfilment</h2>
      {fulfilments.map((f) => (
        <FulfilmentCard key={f.fulfillmentId} f={f} />
      ))}
    </section>
  );
}

function FulfilmentCard({ f }: { f: Fulfillment }) {
  const isDelivery = f.type.toUpperCase() === 'DELIVERY';
  const history = sortedHistory(f.fulfilmentStatusHistory ?? {});
  // The service rarely sends "expected" times; a column of dashes only takes room.
  const expected = history.some(([, e]) => e.expected);
  return (
    <div className="fulfilment" data-testid="fulfilment" data-type={f.type.toUpperCase()}>
      <div className="fulfilment-head">
        <span className="fulfilment-type">{isDelivery ? 'Delivery' : f.type.toUpperCase() === 'STORE' ? 'In store' : f.type}</span>
        <span className="fulfilment-state" data-testid="fulfilment-state">
          {f.fulfillmentState ? word(f.fulfillmentState) : 'Not started'}
        </span>
      </div>
      {isDelivery && f.end && (
        <p className="fulfilment-end">
          {f.end.person?.name && <strong>{f.end.person.name}</strong>}
          {f.end.contact?.phone && <> · {f.end.contact.phone}</>}
          {f.end.address?.formattedAddress && <span className="fulfilment-address">{f.end.address.formattedAddress}</span>}
        </p>
      )}
      {history.length > 0 && (
        <table className="history">
          <thead>
            <tr>
              <th scope="col">Step</th>
              <th scope="col">Promised</th>
              {expected && <th scope="col">Expected</th>}
              <th scope="col">Done</th>
            </tr>
          </thead>
          <tbody>
            {history.map(([key, entry]) => (
              <tr key={key} className={entry.actual ? 'history-done' : undefined}>
                <th scope="row">{word(key)}</th>
                <td>{at(entry.promised)}</td>
                {expected && <td>{at(entry.expected)}</td>}
                <td>{entry.actual ? <>✓ {at(entry.actual)}</> : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
