/**
 * With a store hub: an order another counter packs was cancelled (or its items changed) by someone
 * else, and that counter's people have not acknowledged its alarm yet. Every other counter shows a
 * solid red line about it in the dock, on every screen (issue 39), until they have: whoever is
 * about to hand it over here is told not to.
 */
import type { OrderSummary } from '../../../../shared/ipc';
import { formatClock } from '../../format';
import { useWords } from '../../i18n/useWords';
import { useOrders, type OrdersSnapshot } from '../../store/orders';

let cached: { version: number; ids: string } = { version: -1, ids: '' };
/** Orders with another counter's open alarm, as one string (selectors compare it by value). */
function alarmedElsewhere(s: OrdersSnapshot): string {
  if (s.version === cached.version) return cached.ids;
  const ids: OrderSummary[] = [];
  for (const v of s.byId.values()) if (v.alarmElsewhere) ids.push(v);
  ids.sort((a, b) => (a.alarmElsewhere?.changedAt ?? 0) - (b.alarmElsewhere?.changedAt ?? 0));
  cached = { version: s.version, ids: ids.map((v) => v.id).join('\n') };
  return cached.ids;
}

export function StoreAlarmLines() {
  const joined = useOrders(alarmedElsewhere);
  if (joined === '') return null;
  return (
    <div className="store-alarm-lines" data-testid="store-alarm-lines">
      {joined.split('\n').map((id) => (
        <StoreAlarmLine key={id} orderId={id} />
      ))}
    </div>
  );
}

function StoreAlarmLine({ orderId }: { orderId: string }) {
  const { t, locale } = useWords();
  const alarm = useOrders((s) => s.byId.get(orderId)?.alarmElsewhere);
  if (!alarm) return null;
  const where = alarm.packer ? t('hub:claim.holderByAt', { packer: alarm.packer, counter: alarm.counterName }) : alarm.counterName;
  const time = formatClock(alarm.changedAt, locale);
  return (
    <div className="store-alarm-line" role="alert" data-testid="store-alarm-line" data-order-id={orderId} data-kind={alarm.kind}>
      <span aria-hidden="true">⚠ </span>
      {alarm.kind === 'cancelled' ? t('hub:storeAlarm.cancelled', { orderId, time, where }) : t('hub:storeAlarm.items', { orderId, time, where })}
    </div>
  );
}
