/**
 * The engine's side of the store hub's ports (hub/ports.ts) for intake and order bodies: bodies
 * heard from the hub go into this counter's SQLite as its own intake's do (newer ones only, the
 * screens told), the bodies it holds go out, and its intake polls only while the hub's rules say
 * so. The taps and presence half lives beside it; the host joins the two.
 */
import type { CounterPorts } from '../hub/ports';
import type { ServiceEngine } from './compose';

/** The intake and order-body ports of one counter, over its engine. */
export type IntakeCounterPorts = Pick<CounterPorts, 'saveOrders' | 'bodies' | 'resumeIntake' | 'pauseIntake'>;

/** Builds this counter's intake and order-body ports from its engine. */
export function intakeCounterPorts(service: Pick<ServiceEngine, 'intake' | 'storeOrders' | 'heldOrders'>): IntakeCounterPorts {
  return {
    saveOrders: (orders, now) => service.storeOrders(orders, now),
    bodies: (orderIds) => service.heldOrders(orderIds),
    resumeIntake: () => service.intake.resume(),
    pauseIntake: () => service.intake.pause(),
  };
}
