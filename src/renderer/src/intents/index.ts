/**
 * What the packer can ask for, sent to the engine as commands. Each intent updates the stores
 * from the engine's answer (the engine also reports changes by event; merging twice is harmless)
 * and turns a refusal into plain words on screen with a buzz. Nothing here decides what an
 * order's next state is: the engine does, and says so in OrderView. One file per kind of intent;
 * the bridge (`command`, `refuse`) is the one the packing and staff intents use, so nothing cycles.
 */
export { command, refuse } from './bridge';
export { type Boot, readShellStatus, reload, start } from './boot';
export { type FindOutcome, findAndOpen, findOrders, isOrderId, openFound, openOrderById, showOrder } from './find';
export { acknowledgeAlarm, loadOrder, recordInvoice, removeOrder, takeOver, tap } from './orders';
export { scanned, scanPacksProduct } from './scan';
export { discard, refreshOutbox, retry, undo } from './outbox';
