/** Fan-out of host events (engine events and update status) to the shells' listeners. */
import type { EventName } from '../../../shared/ipc';
import type { Logger } from '../log';

export type HostListener = (event: EventName, body: unknown) => void;

/** A set of listeners where one throwing listener never stops the others (or the engine). */
export function createBroadcaster(log: Logger): { emit: HostListener; subscribe(listener: HostListener): () => void } {
  const listeners = new Set<HostListener>();
  return {
    emit(event, body) {
      for (const listener of [...listeners]) {
        try {
          listener(event, body);
        } catch (err) {
          log.error('an event listener failed', { event, error: err });
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
