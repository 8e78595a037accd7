/**
 * "Packed twice" (issue 39): this counter and another worked on the order while the counters could
 * not see each other. Red and loud on the order (the alarm's tone sounds while any such order is
 * not settled, OrderAlarm.tsx), naming every counter and packer involved, with one button per
 * counter to settle who keeps it. Once settled elsewhere's favour, what was picked here for it and
 * must go back, until a person says it is back.
 */
import { useEffect, useRef, useState } from 'react';
import type { OrderConflict, PutBackItem } from '../../../../shared/ipc';
import type { Order } from '../../../../shared/protocol/schemas';
import { formatClock } from '../../format';
import { useWords } from '../../i18n/useWords';
import { command, refuse } from '../../intents';
import { ACK_ARMS_AFTER_MS } from '../OrderAlarm';
import { conflictWho } from './conflictWords';

type T = ReturnType<typeof useWords>['t'];

function itemLine(t: T, item: PutBackItem, order: Order | null): string {
  const name = order?.items.find((i) => i.itemId === item.itemId)?.name ?? item.itemId;
  const key = item.why === 'scanned' ? 'hub:conflict.putBackScanned' : item.why === 'cut' ? 'hub:conflict.putBackCut' : 'hub:conflict.putBackPicked';
  return t(key, { name, count: item.units });
}

/** Settles who keeps the order (any person at the counter: it is their work, not a manager's). */
async function settle(orderId: string, keeperId: string): Promise<void> {
  const reply = await command('orders.settleConflict', { orderId, keeperId });
  if (!reply.ok) refuse(reply.problem);
}

async function putBack(orderId: string): Promise<void> {
  const reply = await command('orders.putBack', { orderId });
  if (!reply.ok) refuse(reply.problem);
}

export function ConflictPanel({ orderId, conflict, order }: { orderId: string; conflict: OrderConflict; order: Order | null }) {
  const { t, locale } = useWords();
  // It comes in above the big button: a tap meant for that button must not settle it.
  const [armed, setArmed] = useState(false);
  const panel = useRef<HTMLElement>(null);
  useEffect(() => {
    // Raised while the packer looked further down the order: brought into view, whole where it fits.
    panel.current?.scrollIntoView({ block: 'nearest' });
    const handle = setTimeout(() => setArmed(true), ACK_ARMS_AFTER_MS);
    return () => clearTimeout(handle);
  }, []);
  const who = conflictWho(t, locale, conflict);
  const settled = conflict.settled;
  if (!settled)
    return (
      <section ref={panel} className="alarm-panel conflict-panel" role="alert" aria-labelledby="conflict-title" data-testid="conflict-panel" data-settled="false">
        <h2 id="conflict-title" className="alarm-title">
          <span aria-hidden="true">⚠ </span>
          {t(conflict.parties.length > 2 ? 'hub:conflict.titleMany' : 'hub:conflict.title', { who })}
        </h2>
        <p className="alarm-do" data-testid="conflict-do">
          {t('hub:conflict.do')}
        </p>
        <div className="conflict-choices">
          {conflict.parties.map((p) => (
            <button
              key={p.counterId}
              type="button"
              className="button button-danger alarm-ack"
              disabled={!armed}
              onClick={() => void settle(orderId, p.counterId)}
              data-testid="conflict-keep"
              data-counter={p.counterName}
            >
              {t(p.here ? 'hub:conflict.keepHere' : 'hub:conflict.keep', { counter: p.counterName })}
            </button>
          ))}
        </div>
      </section>
    );
  const time = formatClock(settled.at, locale);
  return (
    <section ref={panel} className="alarm-panel conflict-panel" role="alert" aria-labelledby="conflict-title" data-testid="conflict-panel" data-settled="true">
      <h2 id="conflict-title" className="alarm-title">
        <span aria-hidden="true">⚠ </span>
        {settled.byPacker
          ? t('hub:conflict.settledBy', { keeper: settled.keeperName, packer: settled.byPacker, counter: settled.byCounter, time })
          : t('hub:conflict.settled', { keeper: settled.keeperName, counter: settled.byCounter, time })}
      </h2>
      <p className="alarm-do" data-testid="conflict-do">
        {t('hub:conflict.putBackDo')}
      </p>
      <ul className="alarm-taps" data-testid="conflict-put-back">
        {(conflict.putBack ?? []).map((item) => (
          <li key={item.itemId}>{itemLine(t, item, order)}</li>
        ))}
      </ul>
      <button type="button" className="button button-danger alarm-ack" disabled={!armed} onClick={() => void putBack(orderId)} data-testid="conflict-put-back-done">
        {t('hub:conflict.putBackDone')}
      </button>
    </section>
  );
}
