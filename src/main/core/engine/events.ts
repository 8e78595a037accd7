/** A small typed event hub for the EVENTS of src/shared/ipc/; a throwing listener never breaks the engine. */
import type { EventBody, EventName } from '../../../shared/ipc';
import type { Logger } from '../log';

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
