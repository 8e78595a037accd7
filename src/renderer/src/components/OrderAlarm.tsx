/**
 * The alarm of an order this terminal worked on that someone else cancelled or changed: a harsh
 * tone every few seconds while any such order waits for a person to acknowledge it (whatever the
 * screen, and however the "sounds" switch is set), a line in the dock naming the order from any
 * other screen, and on the order itself a red panel saying what to do, the taps that will not be
 * sent, and the one button that silences it.
 */
import { useCallback, useEffect, useState } from 'react';
import type { OrderAlarm, OrderSummary } from '../../../shared/ipc';
import { playOrderAlarm } from '../feedback/alert';
import { formatClock } from '../format';
import { useRepeatingSound } from '../hooks/useRepeatingSound';
import { useWords } from '../i18n/useWords';
import { acknowledgeAlarm } from '../intents';
import { actionSummary, CANCELLED_ELSEWHERE } from '../orderFacts';
import { useOrders, type OrdersSnapshot } from '../store/orders';
import { useOutbox } from '../store/outbox';
import { useStatus } from '../store/status';
import { useUi } from '../store/ui';
import type { Order } from '../../../shared/protocol/schemas';
import { conflictWho } from './hub/conflictWords';

/** How often the alarm sounds again until it is acknowledged. */
export const ORDER_ALARM_REPEAT_MS = 4_000;
/**
 * The panel comes in above the big button: a tap meant for that button must not land on the
 * acknowledgement, so it takes taps only this long after the panel showed.
 */
export const ACK_ARMS_AFTER_MS = 1_200;

let cached: { version: number; ids: string } = { version: -1, ids: '' };
const raisedAt = (v: OrderSummary): number => v.alarm?.raisedAt ?? v.conflict?.raisedAt ?? 0;
/** Ids of the orders with an open alarm, oldest raised first, as one string (selectors compare it by value). */
function alarmedIds(s: OrdersSnapshot): string {
  if (s.version === cached.version) return cached.ids;
  const alarmed: OrderSummary[] = [];
  // An order packed twice sounds until a person settles who keeps it.
  for (const v of s.byId.values()) if (v.alarm || (v.conflict && !v.conflict.settled)) alarmed.push(v);
  alarmed.sort((a, b) => raisedAt(a) - raisedAt(b));
  cached = { version: s.version, ids: alarmed.map((v) => v.id).join('\n') };
  return cached.ids;
}

const useAlarmedIds = (): string[] => {
  const ids = useOrders(alarmedIds);
  return ids === '' ? [] : ids.split('\n');
};

/** Sounds while any order's alarm is open: at once when one is raised, then every few seconds. */
export function OrderAlarmSound() {
  const count = useAlarmedIds().length;
  const volume = useStatus((s) => s.settings?.alertVolume ?? 1);
  useRepeatingSound(count, ORDER_ALARM_REPEAT_MS, useCallback(() => playOrderAlarm(volume), [volume]));
  return null;
}

/** In the dock on every other screen: which order, what happened, and a way to it. */
export function AlarmBanner() {
  const { t, locale } = useWords();
  const ids = useAlarmedIds();
  const screen = useUi((s) => s.screen);
  const openOrder = useUi((s) => s.openOrder);
  const onScreen = screen.name === 'order' ? screen.orderId : null;
  const id = ids.find((x) => x !== onScreen);
  const alarm = useOrders((s) => (id === undefined ? undefined : s.byId.get(id)?.alarm));
  const conflict = useOrders((s) => (id === undefined ? undefined : s.byId.get(id)?.conflict));
  if (id === undefined || (!alarm && !conflict)) return null;
  const text = alarm
    ? t(`common:alarmBanner.${alarm.kind}`, { orderId: id, time: formatClock(alarm.changedAt, locale) })
    : t('hub:conflict.banner', { orderId: id, who: conflictWho(t, locale, conflict!) });
  return (
    <div className="alarm-banner" role="alert" data-testid="alarm-banner" data-order-id={id} data-kind={alarm ? alarm.kind : 'conflict'}>
      <span aria-hidden="true">⚠</span>
      <span className="alarm-banner-text">{text}</span>
      <button type="button" className="button button-danger" onClick={() => openOrder(id)}>
        {t('common:alarmBanner.open')}
      </button>
    </div>
  );
}

/** On the order: what happened and when, what to do, the taps that will not be sent, and the acknowledgement. */
export function AlarmPanel({ orderId, alarm, order }: { orderId: string; alarm: OrderAlarm; order: Order | null }) {
  const { t, locale } = useWords();
  const byId = useOutbox((s) => s.byId);
  const setAside = [...byId.values()].filter((e) => e.orderId === orderId && e.state === 'discarded' && e.lastError?.code === CANCELLED_ELSEWHERE);
  const time = formatClock(alarm.changedAt, locale);
  const cancelled = alarm.kind === 'cancelled';
  const [armed, setArmed] = useState(false);
  useEffect(() => {
    const handle = setTimeout(() => setArmed(true), ACK_ARMS_AFTER_MS);
    return () => clearTimeout(handle);
  }, []);
  return (
    <section className="alarm-panel" role="alert" aria-labelledby="alarm-title" data-testid="alarm-panel" data-kind={alarm.kind}>
      <h2 id="alarm-title" className="alarm-title">
        <span aria-hidden="true">⚠ </span>
        {cancelled ? t('order:alarm.cancelledTitle', { time }) : t('order:alarm.itemsTitle', { time })}
      </h2>
      <p className="alarm-do" data-testid="alarm-do">
        {cancelled ? t('order:alarm.cancelledDo') : t('order:alarm.itemsDo')}
      </p>
      {setAside.length > 0 && (
        <ul className="alarm-taps" data-testid="alarm-taps">
          {setAside.map((e) => (
            <li key={e.id}>
              {t('order:alarm.setAside', { time: formatClock(Number(e.lastError?.values?.at ?? alarm.changedAt), locale), what: actionSummary(t, e.action, order) })}
            </li>
          ))}
        </ul>
      )}
      <button type="button" className="button button-danger alarm-ack" disabled={!armed} onClick={() => void acknowledgeAlarm(orderId)} data-testid="alarm-ack">
        {cancelled ? t('order:alarm.ackCancelled') : t('order:alarm.ackItems')}
      </button>
    </section>
  );
}
