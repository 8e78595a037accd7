/**
 * What the packer can ask for, sent to the engine as commands. Each intent updates the stores
 * from the engine's answer (the engine also reports changes by event; merging twice is harmless)
 * and turns a refusal into plain words on screen with a buzz. Nothing here decides what an
 * order's next state is: the engine does, and says so in OrderView.
 */
import { DEFAULT_ORDER_ID_PATTERN } from '../../shared/orderIdPattern';
import { orderIdProblem } from '../../shared/protocol/orderId';
import type { OrderView, OrdersFound, OutboxEntryView, CommandName, CommandPayload, CommandResult, PackdeskApi, Reply, Settings } from '../../shared/ipc';
import type { ActionInput } from '../../shared/protocol/builders';
import type { Problem } from '../../shared/result';
import { predictTap } from '../../shared/orders';
import { afterNextPaint } from '../../shared/paint';
import { bridge } from './api';
import { playConfirm, playRefusal } from './feedback/sound';
import { useNewOrders } from './store/newOrders';
import { orderIdMatcher } from './scanner/orderId';
import { isProductBarcode } from './scanner/productCode';
import { problemWording, type Wording } from './i18n/words';
import { actionSummary, DONE_ELSEWHERE, elsewhereWords, invoiceOf } from './orderFacts';
import { holdsOrder, shownView, useOrders } from './store/orders';
import { firstScreenRows } from './components/queue/OrderRow';
import { windowHeight } from './viewport';
import { useOutbox } from './store/outbox';
import { useStatus } from './store/status';
import { useHub } from './store/hub';
import { useUi } from './store/ui';
import { usePickSelection } from './print/selection';
import { looksLikeBadge } from '../../shared/staff';
import { signInByBadge, watchPacker } from './staff/intents';
import { usePacker } from './staff/store';
import { isItemCodeOf, packsByScan, packScanned } from './packing/intents';

/** A problem the bridge itself hit (the engine is gone, the socket closed): never a stack trace. */
async function call<C extends CommandName>(command: C, payload: CommandPayload<C>): Promise<Reply<CommandResult<C>>> {
  try {
    return await bridge().invoke(command, payload);
  } catch {
    return {
      ok: false,
      problem: { kind: 'transient', message: 'The terminal engine did not answer. Try again in a moment.', code: 'ENGINE_SILENT' },
    };
  }
}

function soundsOn(): boolean {
  return useStatus.getState().settings?.sounds ?? true;
}

/**
 * Plays the refusal buzz, shakes the screen and shows why: how to word it, or a problem (worded by
 * its code); the notice line words either in the language shown.
 */
export function refuse(why: Wording | Problem): void {
  if (soundsOn()) playRefusal();
  useUi.getState().buzz();
  useUi.getState().say('error', typeof why === 'function' ? why : problemWording(why));
}

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
    sayTakenOver(orders, known.views);
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
  const settingsAsked = call('settings.get', {});
  const ordersAsked = call('orders.head', { rows: firstScreenRows(windowHeight()) });
  const info = call('app.info', {}).then((r) => {
    if (r.ok) status.setInfo(r.value);
    return r;
  });
  void Promise.all(readShellStatus(call));
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
  const reply = await call('orders.list', {});
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
 * Whether a code is an order id by the terminal's pattern: the one place the renderer tells ids
 * from other text (a name, an invoice, a product), so one rule can replace it.
 */
export function isOrderId(code: string): boolean {
  const pattern = useStatus.getState().settings?.orderIdPattern ?? DEFAULT_ORDER_ID_PATTERN;
  return orderIdMatcher(pattern)(code);
}

/**
 * A scanned or typed order id: opens it, asking the service for it first when the terminal does
 * not have it. An id the service does not know is said so and added nowhere.
 */
export async function openOrderById(rawId: string): Promise<boolean> {
  const orderId = rawId.trim();
  if (!orderId) {
    refuse((t) => t('common:refusals.noOrderNumber'));
    return false;
  }
  if (orderIdProblem(orderId) !== null) {
    refuse((t) => t('common:refusals.badOrderNumber'));
    return false;
  }
  const reply = await call('orders.add', { orderId });
  if (!reply.ok) {
    refuse(reply.problem);
    return false;
  }
  useOrders.getState().merge([reply.value]);
  useUi.getState().openOrder(reply.value.id);
  return true;
}

/** The orders on the terminal typed text finds (the engine searches); null when it could not (said why). */
export async function findOrders(text: string): Promise<OrdersFound | null> {
  const reply = await call('orders.find', { text: text.trim() });
  if (!reply.ok) {
    refuse(reply.problem);
    return null;
  }
  return reply.value;
}

/** What a search from the find field came to: an order opened, a short list to choose from, or nothing (said why). */
export type FindOutcome = { readonly kind: 'opened' } | { readonly kind: 'choose'; readonly found: OrdersFound } | { readonly kind: 'none' };

/**
 * Typed text (or a code) from the find field. One order found opens; several come back as a short
 * list; none, and the text is an order id, asks the service for it; anything else found nothing,
 * in words. Nothing is ever added from a name, a phone or the digits of a number.
 */
export async function findAndOpen(raw: string): Promise<FindOutcome> {
  const text = raw.trim();
  if (!text) {
    refuse((t) => t('common:refusals.noOrderNumber'));
    return { kind: 'none' };
  }
  const found = await findOrders(text);
  if (!found) return { kind: 'none' };
  const [only, ...others] = found.matches;
  if (only && others.length === 0 && !found.more) {
    // Kept while the service could not be asked: asked now (one it does not know is let go).
    if (only.order.facts === null) return (await openOrderById(only.order.id)) ? { kind: 'opened' } : { kind: 'none' };
    await openFound(only.order.id);
    return { kind: 'opened' };
  }
  if (only) return { kind: 'choose', found };
  if (isOrderId(text)) return (await openOrderById(text)) ? { kind: 'opened' } : { kind: 'none' };
  refuse((t) => t('shift:find.nothing', { text }));
  return { kind: 'none' };
}

/** Opens an order the finder found (on the terminal already), its next step focused. */
export async function openFound(orderId: string): Promise<void> {
  await loadOrder(orderId);
  useUi.getState().openOrder(orderId);
}

/**
 * Opens an order of the queue: its body is read first when the store has only its row, so the
 * screen draws once, whole (a few milliseconds; the screen reads it itself if this fails).
 */
export async function showOrder(orderId: string): Promise<void> {
  // An id that breaks the id rule cannot be asked for (the set-aside line above the queue names it).
  if (orderIdProblem(orderId) !== null) {
    refuse((t) => t('common:queue.unreadableRow'));
    return;
  }
  await loadOrder(orderId);
  useUi.getState().show({ name: 'order', orderId });
}

/** Takes an order none of whose taps reached the service off the terminal, then shows the queue. */
export async function removeOrder(orderId: string): Promise<boolean> {
  const reply = await call('orders.remove', { orderId });
  if (!reply.ok) {
    refuse(reply.problem);
    return false;
  }
  ordersGone([orderId]);
  const ui = useUi.getState();
  if (ui.screen.name === 'order' && ui.screen.orderId === orderId) ui.back();
  ui.say('info', (t) => t('shift:removeOrder.done', { orderId }));
  void refreshOutbox();
  return true;
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

/** A person has seen an order's alarm (cancelled or changed elsewhere): it stops sounding. */
export async function acknowledgeAlarm(orderId: string): Promise<void> {
  const reply = await call('orders.acknowledge', { orderId });
  if (!reply.ok) return refuse(reply.problem);
  const view = await call('orders.get', { orderId });
  if (view.ok && view.value) useOrders.getState().merge([view.value]);
}

/** Takes over an order another counter is packing (the packer confirmed); the order then shows its next step here. */
export async function takeOver(orderId: string): Promise<boolean> {
  const reply = await call('orders.takeOver', { orderId });
  if (!reply.ok) {
    refuse(reply.problem);
    return false;
  }
  if (soundsOn()) playConfirm();
  const counter = reply.value.counterName;
  useUi.getState().say('info', (t) => t('hub:claim.takenOver', { orderId, counter }));
  await readOrder(orderId);
  return true;
}

/** Another counter took over an order this counter was packing: the packer hears it at once. */
function sayTakenOver(orders: readonly OrderView[], before: ReadonlyMap<string, OrderView>): void {
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

/** Orders off the terminal leave the queue and the pick list. */
function ordersGone(orderIds: readonly string[]): void {
  useOrders.getState().remove(orderIds);
  usePickSelection.getState().drop(orderIds);
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

/**
 * A code the scanner read outside the invoice field. An order id opens its order (asked of the
 * service when new). A product's barcode is never an invoice: refused in words. Any other code is
 * never added as an order: on an open order it is offered as that order's invoice number (the
 * offer names the invoice it would replace), elsewhere it opens the one order it is the invoice of,
 * or is refused in words.
 */
export function scanned(code: string): void {
  // A packer's badge first: whatever an order id or invoice looks like, a badge is never one.
  if (looksLikeBadge(code)) {
    void signInByBadge(code);
    return;
  }
  if (isOrderId(code)) {
    void openOrderById(code);
    return;
  }
  const open = orderPackedByScan();
  if (open) {
    // A product on an order being packed ticks its item; a code that names no product goes on as before.
    void packScanned(open, code).then((taken) => taken || notPacked(code));
    return;
  }
  notPacked(code);
}

/** The order on screen when scanning products packs it now (scan to pack), else undefined. */
function orderPackedByScan(): OrderView | undefined {
  const ui = useUi.getState();
  const open = ui.screen.name === 'order' ? shownView(useOrders.getState(), ui.screen.orderId) : undefined;
  return open && packsByScan(open) ? open : undefined;
}

/**
 * Whether `code`, scanned now, goes to the packing checklist (as scanned() would send it): a code
 * that is neither a badge nor an order id, while the order on screen is packed by scan. Such a
 * code read twice half a second apart is two identical units, not one read (scanner/repeat.ts).
 */
export function scanPacksProduct(code: string): boolean {
  return !looksLikeBadge(code) && !isOrderId(code) && orderPackedByScan() !== undefined;
}

/** A scanned code that packs nothing: a product is refused as an invoice; anything else is offered as one, or finds its order. */
function notPacked(code: string): void {
  const ui = useUi.getState();
  const open = ui.screen.name === 'order' ? shownView(useOrders.getState(), ui.screen.orderId) : undefined;
  if (isProductBarcode(code) || isItemCodeOf(open?.order, code)) {
    refuse((t) => t('shift:scan.product', { code }));
    return;
  }
  if (ui.screen.name === 'order') {
    ui.clearNotice();
    ui.offerInvoice({ orderId: ui.screen.orderId, code });
    return;
  }
  void findOrders(code).then((found) => {
    const match = found?.matches.length === 1 && !found.more ? found.matches[0] : undefined;
    if (match?.by === 'invoice') void openFound(match.order.id);
    else if (found) refuse((t) => t('shift:scan.notAnOrder', { code }));
  });
}

/**
 * An invoice number typed or scanned into an order's invoice field. A product's barcode is
 * refused; replacing an invoice already recorded is its own question (the offer names both
 * numbers), never one tap. True when the tap was queued.
 */
export async function recordInvoice(orderId: string, code: string): Promise<boolean> {
  if (looksLikeBadge(code)) {
    refuse((t) => t('staff:badgeNotInvoice'));
    return false;
  }
  if (isProductBarcode(code) || isItemCodeOf(shownView(useOrders.getState(), orderId)?.order, code)) {
    refuse((t) => t('shift:scan.product', { code: code.trim() }));
    return false;
  }
  const current = invoiceOf(shownView(useOrders.getState(), orderId)?.order ?? null);
  if (current !== null && current !== code.trim()) {
    useUi.getState().clearNotice();
    useUi.getState().offerInvoice({ orderId, code: code.trim() });
    return false;
  }
  return tap(orderId, { kind: 'invoice', sellerInvoiceId: code });
}

/**
 * Sends one tap. The screen draws the order as the tap will leave it at once (`predictTap`, the
 * engine's own rules), in the same frame as the button's acknowledgement; the engine answers with
 * the queued entry, and its view of the order arrives by event and replaces the foreseen one. A
 * refused tap drops it, so the screen goes back to what the engine holds.
 */
export async function tap(orderId: string, input: ActionInput, pin?: string): Promise<boolean> {
  const orders = useOrders.getState();
  const shown = shownView(orders, orderId);
  const foreseen = shown ? predictTap(shown, input, Date.now()) : null;
  if (foreseen) orders.predict(foreseen);
  const reply = await call('taps.submit', pin === undefined ? { orderId, input } : { orderId, input, pin });
  // The engine's view comes by event before its answer; should it not have (an event lost on a
  // reconnect), read it rather than keep showing the foreseen one.
  if (foreseen && useOrders.getState().answered(orderId, reply.ok) === 'unseen') void readOrder(orderId);
  if (!reply.ok) {
    refuse(reply.problem);
    // A refused step usually means this screen was behind the engine (another window moved the
    // order): read the order again so the button shows what is really next.
    if (reply.problem.kind === 'invalid') void readOrder(orderId);
    return false;
  }
  const entry = reply.value;
  useOutbox.getState().merge([entry]);
  if (soundsOn()) playConfirm();
  const ui = useUi.getState();
  ui.clearNotice();
  ui.offerUndo(
    entry.state === 'queued' && entry.sendAfter > Date.now()
      ? { entryId: entry.id, orderId, action: entry.action, summary: entry.summary, sendAfter: entry.sendAfter }
      : null,
  );
  return true;
}

/** Reads one order from the engine into the store; null when the engine cannot say or no longer has it. */
async function readOrder(orderId: string): Promise<OrderView | null> {
  const reply = await call('orders.get', { orderId });
  if (!reply.ok || !reply.value) return null;
  useOrders.getState().merge([reply.value]);
  return reply.value;
}

/** Reads in flight, so a screen drawn twice while one is on its way asks once. */
const loading = new Map<string, Promise<OrderView | null>>();

/**
 * The whole view of an order (its body: items, fulfilments, address), read from the engine when
 * the store has only its queue row. Null when the engine cannot say or no longer has the order.
 */
export function loadOrder(orderId: string): Promise<OrderView | null> {
  const have = useOrders.getState().views.get(orderId);
  if (have) return Promise.resolve(have);
  let read = loading.get(orderId);
  if (!read) {
    read = readOrder(orderId).finally(() => loading.delete(orderId));
    loading.set(orderId, read);
  }
  return read;
}

/** Takes back the offered tap, if the engine has not sent it yet. */
export async function undo(entryId: number): Promise<void> {
  const ui = useUi.getState();
  const offer = ui.undo;
  const reply = await call('taps.undo', { entryId });
  ui.offerUndo(null);
  if (!reply.ok) {
    refuse(reply.problem);
    return;
  }
  if (!offer) {
    ui.say('info', (t) => t('common:undo.undone'));
    return;
  }
  const order = useOrders.getState().views.get(offer.orderId)?.order ?? null;
  ui.say('info', (t) => t('common:undo.undoneWhat', { what: actionSummary(t, offer.action, order) }));
}

/** Sends a failed or waiting entry again now. */
export async function retry(entryId: number): Promise<void> {
  const reply = await call('outbox.retry', { entryId });
  if (!reply.ok) refuse(reply.problem);
  else useUi.getState().say('info', (t) => t('outbox:sendingAgain'));
}

/** Drops an entry for good (manager PIN); returns the refusal (the dialog words it), if any. */
export async function discard(entryId: number, pin: string): Promise<Problem | null> {
  const reply = await call('outbox.discard', { entryId, pin });
  if (!reply.ok) return reply.problem;
  useUi.getState().say('info', (t) => t('outbox:discarded'));
  return null;
}

/** Reads the pending outbox again (on opening its screen), in case an event was missed. */
export async function refreshOutbox(): Promise<void> {
  const reply = await call('outbox.list', {});
  if (reply.ok) useOutbox.getState().replacePending(reply.value);
}

/** Runs any other command, for the settings screens; problems come back as values. */
export function command<C extends CommandName>(name: C, payload: CommandPayload<C>): Promise<Reply<CommandResult<C>>> {
  return call(name, payload);
}
