/**
 * What the store says alike at every counter (issue 39, item 5), as the host binds it: the store's
 * settings (scan to pack, how long an order stays with its counter) between this counter's settings
 * file and the hub, and alarms on orders cancelled or changed elsewhere: this counter's put into the
 * hub, every other counter's laid over the order as a red line (overlay.ts lays it). The member's
 * session (session.ts) binds it.
 */
import type { EventBody, OrderSummary, Settings } from '../../../../shared/ipc';
import { orderPhase } from '../../../../shared/fulfilment';
import type { Engine } from '../../engine';
import type { CounterIdentity, CounterPorts, HubSession } from '../../hub/ports';
import type { StoreAlarm } from '../../hub/store-alarms';
import type { StoreSettingValues } from '../../hub/store-settings';
import type { HostListener } from '../events';

/** This counter's settings, as the store's settings reach them (host/index.ts's settings store). */
export interface StoreSettingsPort {
  get(): Settings;
  /** Takes the store's word into the settings file; answers the settings now. */
  apply(patch: Partial<StoreSettingValues>): Settings;
}

/** The session's ports for the store's settings and this counter's alarms. */
export function storeWordPorts(settings: StoreSettingsPort | undefined, rows: () => readonly OrderSummary[], me: CounterIdentity): Pick<CounterPorts, 'storeSettings' | 'openAlarms'> {
  return {
    ...(settings
      ? {
          storeSettings: {
            current: () => {
              const s = settings.get();
              return { scanToPack: s.scanToPack, claimQuietMs: s.claimQuietMs };
            },
            apply: (patch) => void settings.apply(patch),
          },
        }
      : {}),
    // The queue's kept rows carry each open alarm: no listing of every order's body at a reconnect.
    openAlarms: () =>
      rows().flatMap((r) =>
        r.alarm ? [{ orderId: r.id, kind: r.alarm.kind, changedAt: r.alarm.changedAt, counterId: me.counterId, counterName: me.counterName, packer: null, acknowledgedAt: null }] : [],
      ),
  };
}

/**
 * Follows this counter's alarms (orders.changed: raised, or acknowledged) into the hub, raises the
 * alarm of an order this counter holds that is cancelled before it tapped it, and tells the screens
 * of the others' alarms and of store settings taken here. Answers its unsubscribes.
 */
export function bindStoreWord(deps: {
  readonly session: HubSession;
  readonly engine: Engine;
  readonly me: CounterIdentity;
  readonly emit: HostListener;
  readonly emitOrders: (orderIds: readonly string[]) => void;
  readonly settings: StoreSettingsPort | undefined;
  /** This counter's open alarms now (storeWordPorts' openAlarms). */
  readonly openAlarms: () => readonly StoreAlarm[];
  /** Bodies stored by intake or from the hub (a cancellation raises its alarm there, not through the engine's events). */
  readonly onStored: (listener: (orderIds: readonly string[]) => void) => () => void;
  readonly now: () => number;
}): (() => void)[] {
  const { session, engine, me } = deps;
  /** This counter's alarms told to the hub as open, by order (those open at the start included: the hub had them from before). */
  const told = new Map<string, Pick<StoreAlarm, 'kind' | 'changedAt'>>(deps.openAlarms().map((a) => [a.orderId, a]));
  const alarmOf = (orderId: string, alarm: Pick<StoreAlarm, 'kind' | 'changedAt'>, acknowledgedAt: number | null = null): StoreAlarm => {
    const claim = session.claimOf(orderId);
    return { orderId, kind: alarm.kind, changedAt: alarm.changedAt, counterId: me.counterId, counterName: me.counterName, packer: claim?.counterId === me.counterId ? claim.packer : null, acknowledgedAt };
  };
  const onOrders = ({ orders }: EventBody<'orders.changed'>): void => {
    for (const view of orders) {
      // Held here, cancelled elsewhere before any tap of this counter's: the alarm this counter would have raised had it tapped.
      if (!view.alarm && view.order && orderPhase(view.order) === 'CANCELLED' && session.claimOf(view.id)?.counterId === me.counterId && engine.conflicts.alarmHeld(view.id)) {
        deps.emitOrders([view.id]);
        continue;
      }
      const was = told.get(view.id);
      if (view.alarm && was?.changedAt !== view.alarm.changedAt) {
        told.set(view.id, view.alarm);
        session.shareAlarm(alarmOf(view.id, view.alarm));
      } else if (!view.alarm && was) {
        // Acknowledged here: the others' red line goes.
        session.shareAlarm(alarmOf(view.id, was, deps.now()));
        told.delete(view.id);
      }
    }
  };
  return [
    engine.on('orders.changed', onOrders),
    deps.onStored((ids) => onOrders({ orders: ids.flatMap((id) => engine.getOrder(id) ?? []) })),
    session.on((event) => {
      if (event.kind === 'alarmElsewhere') deps.emitOrders(event.orderIds);
      else if (event.kind === 'storeSettings' && deps.settings) deps.emit('settings.changed', deps.settings.get());
    }),
  ];
}
