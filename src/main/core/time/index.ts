/** Time as an injected dependency: the one Timers abstraction and its helpers. */
export { every, systemTimers, TimerSlot, type TimerOptions, type Timers } from './timers';
export { awaitWithin } from './deadline';
