/**
 * A small typed event hub for the EVENTS of src/shared/ipc/ (a throwing listener never breaks the
 * engine), and what the engine publishes on it when the queue changes.
 */
import type { EventBody, EventName, OrderView, SyncStatus } from '../../../shared/ipc';
import type { EntryRow } from '../db';
import type { Logger } from '../log';
import type { StoreViews } from '../outbox';

type Listener<E extends EventName> = (body: EventBody<E>) => void;

export class EventHub {
  private readonly listeners = new Map<EventName, Set<(body: never) => void>>();
  constructor(private readonly log: Logger) {}

  /** Subscribes; returns the unsubscribe function. */
  on<E extends EventName>(event: E, listener: Listener<E>): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener as (body: never) => void);
    return () => {
      set.delete(listener as (body: never) => void);
    };
  }

  /** Whether anyone listens (views are only computed for someone). */
  wanted(event: EventName): boolean {
    return (this.listeners.get(event)?.size ?? 0) > 0;
  }

  emit<E extends EventName>(event: E, body: EventBody<E>): void {
    for (const l of [...(this.listeners.get(event) ?? [])]) {
      try {
        (l as Listener<E>)(body);
      } catch (e) {
        this.log.error('event listener failed', { event, error: e });
      }
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}

/** Sends what changed to whoever listens: the orders and taps moved, then the status if it changed. */
export interface Publisher {
  /** `entries` changed (claimed, settled, recovered, moved by a person); `alwaysOrders`: their orders changed even with no entry. */
  changed(entries: readonly EntryRow[], alwaysOrders: boolean): void;
  /** The status may have changed: sent only when it differs from the last one sent. */
  status(): void;
  /**
   * Runs `fn` and works the status out once at its end, however many changes it published: the
   * counts behind it read every waiting tap, too much to read again for each answer of a batch.
   */
  batch<T>(fn: () => T): T;
}

export function createPublisher(o: {
  hub: EventHub;
  log: Logger;
  stopped: () => boolean;
  wrote: () => void;
  views: Pick<StoreViews, 'viewOf' | 'entryViews'>;
  damaged: (e: unknown) => boolean;
  current: () => SyncStatus;
}): Publisher {
  const { hub, log, views } = o;
  let lastStatusJson = '';
  // Inside batch(): how deep, and whether the status was asked for meanwhile.
  let batching = 0;
  let statusAsked = false;

  function status(): void {
    if (batching > 0) {
      statusAsked = true;
      return;
    }
    if (o.stopped() || !hub.wanted('sync.status')) return;
    try {
      const now = o.current();
      const json = JSON.stringify(now);
      if (json === lastStatusJson) return;
      lastStatusJson = json;
      hub.emit('sync.status', now);
    } catch (e) {
      log.error('status failed', { error: e });
    }
  }

  return {
    status,
    batch(fn) {
      batching++;
      try {
        return fn();
      } finally {
        batching--;
        if (batching === 0 && statusAsked) {
          statusAsked = false;
          status();
        }
      }
    },
    changed(entries, alwaysOrders) {
      if (o.stopped()) return;
      o.wrote();
      try {
        // Orders first: the order's new state is what the packer waits to see after a tap, and each
        // event is its own message for the page to parse.
        if (hub.wanted('orders.changed') && (entries.length > 0 || alwaysOrders)) {
          const changed = [...new Set(entries.map((e) => e.orderId))].map(views.viewOf).filter((v): v is OrderView => v !== null);
          if (changed.length > 0) hub.emit('orders.changed', { orders: changed });
        }
        if (hub.wanted('outbox.changed') && entries.length > 0) hub.emit('outbox.changed', { entries: views.entryViews(entries) });
      } catch (e) {
        if (!o.damaged(e)) log.error('publishing changes failed', { error: e });
      }
      status();
    },
  };
}
