/**
 * The app's start: the engine's events into the stores, and everything the first screen needs
 * asked at once.
 */
import type { OrderSummary, OrderView, OutboxEntryView, PackdeskApi, Settings } from '../../../shared/ipc';
import type { Problem } from '../../../shared/result';
import { afterNextPaint } from '../../../shared/paint';
import { playRefusal } from '../feedback/sound';
import { useNewOrders } from '../store/newOrders';
import { DONE_ELSEWHERE, elsewhereWords } from '../orderFacts';
import { holdsOrder, useOrders } from '../store/orders';
import { firstScreenRows } from '../queue/rows';
import { windowHeight } from '../viewport';
import { useOutbox } from '../store/outbox';
import { useStatus } from '../store/status';
import { useHub } from '../store/hub';
import { useUi } from '../store/ui';
import { watchPacker } from '../staff/intents';
import { usePacker } from '../staff/store';
import { restAfterBusySpells } from '../memory/rest';
import { command, refuse, soundsOn } from './bridge';
import { ordersGone } from './orders';

let subscribed = false;

/** What a start has asked the engine: its settings as soon as they come, and whether the app can show. */
export interface Boot {
  /** The terminal's settings, in the store once this resolves (null when the engine cannot say). */
  readonly settings: Promise<Settings | null>;
  /** Resolves once the orders and settings are in the stores: the first problem, or null. */
  readonly ready: Promise<Problem | null>;
}

/**
 * Subscribes to the engine's events, then asks for everything at once (the words wait for the
 * settings' language, the first screen for the orders: both are on their way together).
 */
export function start(api: PackdeskApi): Boot {
  // Subscribe first: anything that changes while the lists load arrives after their answers.
  // Once only: a second start (after a failed one) must not double every event.
  if (!subscribed) subscribe(api);
  subscribed = true;
  return load();
}

function subscribe(api: PackdeskApi): void {
  api.on('orders.changed', ({ orders }) => {
    // Before the merge: an order the screen did not know yet may be a new one to alert about.
    const known = useOrders.getState();
    useNewOrders.getState().noteChanged(orders, (id) => holdsOrder(known, id));
    sayTakenOver(orders, known.byId);
    useOrders.getState().merge(orders);
  });
  api.on('orders.removed', ({ orderIds }) => ordersLeft(orderIds));
  // Every order read again (the harness after its socket came back): the list replaces the queue.
  api.on('orders.listed', ({ orders }) => useOrders.getState().replace(orders));
  api.on('outbox.changed', ({ entries }) => {
    sayDoneElsewhere(entries);
    useOutbox.getState().merge(entries);
    dropSpentUndo();
  });
  api.on('sync.status', (s) => useStatus.getState().setSync(s));
  api.on('intake.status', (s) => useStatus.getState().setIntake(s));
  api.on('updates.status', (s) => useStatus.getState().setUpdates(s));
  api.on('hub.status', (s) => useHub.getState().setStatus(s));
  // A store setting changed at another counter (scan to pack, claims' quiet period): this counter packs as the store does.
  api.on('settings.changed', (s) => useStatus.getState().setSettings(s));
  watchPacker(api);
  // After a busy spell, once quiet, the page gives back its garbage (memory/rest.ts).
  restAfterBusySpells(api);
}

/** Reads everything again: after the engine behind the bridge was replaced (a new environment). */
export function reload(): Promise<Problem | null> {
  // The other engine's entries are not this one's: forget them before reading its outbox.
  useOutbox.getState().replaceAll([]);
  return load().ready;
}

/**
 * Reads what the shell shows beside the queue (the sync, intake and update status, the store hub,
 * the outbox's pending taps, who is packing), each answer into its store as it arrives. The app's
 * start asks through the bridge; the host's drawing of the first screen (firstScreen/) asks the
 * host itself, so both show the same.
 */
export function readShellStatus(ask: PackdeskApi['invoke']): Promise<unknown>[] {
  const status = useStatus.getState();
  return [
    ask('sync.status', {}).then((r) => r.ok && status.setSync(r.value)),
    ask('intake.status', {}).then((r) => r.ok && status.setIntake(r.value)),
    ask('updates.status', {}).then((r) => r.ok && status.setUpdates(r.value)),
    ask('hub.status', {}).then((r) => r.ok && useHub.getState().setStatus(r.value)),
    ask('outbox.list', {}).then((r) => r.ok && useOutbox.getState().replacePending(r.value)),
    ask('staff.current', {}).then((r) => r.ok && usePacker.getState().set(r.value)),
  ];
}

function load(): Boot {
  const status = useStatus.getState();
  // Each answer is shown as it arrives; only the queue's head and the settings hold up the first
  // screen (app.info may wait on a slow keychain, and nothing on the queue needs it). The head is
  // the first screenful's rows, every id and the counts: the whole list (1.6 MB for 5,000 orders,
  // its checks and parse on both sides) is read once the first screen is painted.
  const generation = ++loads;
  const settingsAsked = command('settings.get', {});
  const ordersAsked = command('orders.head', { rows: firstScreenRows(windowHeight()) });
  const info = command('app.info', {}).then((r) => {
    if (r.ok) status.setInfo(r.value);
    return r;
  });
  void Promise.all(readShellStatus(command));
  const settings = settingsAsked.then((r) => {
    if (!r.ok) return null;
    status.setSettings(r.value);
    return r.value;
  });
  const ready = (async (): Promise<Problem | null> => {
    const [settingsReply, orders] = await Promise.all([settingsAsked, ordersAsked]);
    await settings;
    if (orders.ok) {
      useOrders.getState().replaceHead(orders.value);
      afterNextPaint(() => void fillQueue(generation), FILL_AFTER_MS);
    }
    performance.mark('packdesk:data');
    if (!orders.ok) return orders.problem;
    if (!settingsReply.ok) {
      // Without settings the screen still works (sounds on, no scanner prefix); say why if app.info cannot either.
      const about = await info;
      return about.ok ? null : settingsReply.problem;
    }
    return null;
  })();
  return { settings, ready };
}

/** Starts of `load`, so a list read for an earlier start (another engine) is not taken for this one's. */
let loads = 0;

/** The longest the whole list waits for the first screen's paint (a hidden window paints no frames). */
const FILL_AFTER_MS = 500;

/**
 * Reads the whole list after the head: every order's row, replacing the head's. Tried again
 * (1, 2, 4… up to 10 s apart) while it fails and the queue still holds the head alone.
 */
async function fillQueue(generation: number, wait = 1_000): Promise<void> {
  const reply = await command('orders.list', {});
  if (generation !== loads || useOrders.getState().complete) return;
  if (reply.ok) {
    useOrders.getState().fill(reply.value);
    performance.mark('packdesk:queue-complete');
    return;
  }
  setTimeout(() => void fillQueue(generation, Math.min(wait * 2, 10_000)), wait);
}

/** Hides the undo offer once its entry has left the queue (sent, discarded, undone). */
function dropSpentUndo(): void {
  const offer = useUi.getState().undo;
  if (!offer) return;
  const entry = useOutbox.getState().byId.get(offer.entryId);
  if (entry && entry.state !== 'queued') useUi.getState().offerUndo(null);
}

/**
 * A tap of this terminal that someone else had already made (another counter, the marketplace):
 * said as a refusal, with the step and time the order shows, the moment its answer comes.
 */
function sayDoneElsewhere(entries: readonly OutboxEntryView[]): void {
  const known = useOutbox.getState().byId;
  const fresh = entries.find((e) => e.state === 'discarded' && e.lastError?.code === DONE_ELSEWHERE && known.get(e.id)?.state !== 'discarded');
  if (!fresh) return;
  refuse((t, locale) => t('order:elsewhere', { orderId: fresh.orderId, what: elsewhereWords(t, fresh, locale) }));
}

/** Another counter took over an order this counter was packing: the packer hears it at once. */
function sayTakenOver(orders: readonly OrderView[], before: ReadonlyMap<string, OrderSummary>): void {
  for (const view of orders) {
    const was = before.get(view.id)?.claim;
    if (was?.here && view.claim && !view.claim.here) {
      if (soundsOn()) playRefusal();
      const orderId = view.id;
      const counter = view.claim.counterName;
      useUi.getState().say('error', (t) => t('hub:claim.takenFromHere', { orderId, counter }));
    }
  }
}

/** Finished orders the engine took off the terminal: the queue drops them; an open one goes back to the queue, saying why. */
function ordersLeft(orderIds: readonly string[]): void {
  const ui = useUi.getState();
  const shown = ui.screen.name === 'order' && orderIds.includes(ui.screen.orderId) ? ui.screen.orderId : null;
  // Known by its number alone: not a finished order but one the service said it does not know.
  const unknown = shown !== null && useOrders.getState().byId.get(shown)?.facts === null;
  ordersGone(orderIds);
  if (shown === null) return;
  ui.back();
  ui.say('info', (t) => t(unknown ? 'shift:unknownLeft' : 'shift:orderLeft', { orderId: shown }));
}
