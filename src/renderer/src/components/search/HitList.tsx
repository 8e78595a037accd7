/**
 * The orders the search found, one row each: number, customer, where it stands, when it arrived and
 * how the text found it. A row on the terminal opens its order screen; every row opens its
 * timeline. An order gone from the terminal says so (only its id and history are kept here).
 * Drawn as the find field's short list draws its orders (found-order in controls.css).
 */
import { useState } from 'react';
import type { OrderHit } from '../../../../shared/ipc';
import { formatDayClock } from '../../format';
import { useWords } from '../../i18n/useWords';
import { customerName, orderStateWord } from '../../orderFacts';
import { OrderHistory } from '../order/OrderHistory';

export function HitList({ hits, onOpen }: { hits: readonly OrderHit[]; onOpen: (orderId: string) => void }) {
  const { t, locale } = useWords();
  const [history, setHistory] = useState<string | null>(null);
  return (
    <>
      <ul className="search-hits" data-testid="search-hits">
        {hits.map((hit) => {
          const left = hit.leftAt !== null;
          const state = left ? t('search:standing.leftOn', { when: formatDayClock(hit.leftAt ?? 0, locale) }) : orderStateWord(t, hit.order?.facts ?? null);
          return (
            <li key={hit.id} className="search-hit" data-testid="search-hit" data-order-id={hit.id} data-standing={hit.standing}>
              <button
                type="button"
                className="button found-order"
                onClick={() => (left ? setHistory(hit.id) : onOpen(hit.id))}
                data-testid="search-hit-open"
              >
                <span className="found-order-title search-hit-title">
                  <strong>{hit.id}</strong>{' '}
                  <span>{left ? t('search:noDetails') : customerName(t, hit.order?.facts ?? null)}</span>
                </span>
                <span className="found-order-facts">
                  <span className={`search-standing search-standing-${hit.standing}`}>{state}</span>
                  {' · '}
                  {t('search:arrived', { when: formatDayClock(hit.addedAt, locale) })}
                  {' · '}
                  {hit.by === 'day' ? t('search:by.day') : t(`shift:find.by.${hit.by}`)}
                </span>
              </button>
              <button type="button" className="button" onClick={() => setHistory(hit.id)} data-testid="search-hit-history" aria-label={t('search:historyOf', { orderId: hit.id })}>
                {t('timeline:open')}
              </button>
            </li>
          );
        })}
      </ul>
      {history && <OrderHistory orderId={history} order={null} onClose={() => setHistory(null)} />}
    </>
  );
}
