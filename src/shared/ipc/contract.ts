/**
 * The one typed table of commands and events, put together from each domain's commands; the reply
 * envelope, the typed client and the Electron channels.
 */
import { z } from 'zod';
import { builtOnce, builtOnFirstUse } from '../on-first-use';
import { hubStatusSchema } from '../hub';
import type { Problem } from '../result';
import { orderSummarySchema, orderViewSchema, ordersCommands } from './orders';
import { outboxEntryViewSchema, outboxCommands } from './outbox';
import { settingsSchema, settingsCommands } from './settings';
import { orderIdInputSchema, ProblemSchema } from './shapes';
import { packerStatusSchema, staffCommands } from './staff';
import { intakeStatusSchema, syncStatusSchema, statusCommands } from './status';
import { updateStatusSchema, updatesCommands } from './updates';
import { printCommands } from './print';
import { hubCommands } from './hub';
import { chainCommands } from './chain';
import { shiftCommands } from './shift';

/** Every command: name -> payload schema and result schema. */
export const COMMANDS = builtOnFirstUse({
  ...statusCommands,
  ...ordersCommands,
  ...outboxCommands,
  ...settingsCommands,
  ...updatesCommands,
  ...printCommands,
  ...hubCommands,
  ...chainCommands,
  ...shiftCommands,
  ...staffCommands,
});


export type CommandName = keyof typeof COMMANDS;

export type CommandPayload<C extends CommandName> = z.input<(typeof COMMANDS)[C]['payload']>;

export type CommandResult<C extends CommandName> = z.infer<(typeof COMMANDS)[C]['result']>;


export const EVENTS = builtOnFirstUse({
  /** Orders whose view changed (full views, so the renderer never recomputes). */
  'orders.changed': () => z.object({ orders: z.array(orderViewSchema()) }),
  /**
   * Every order on the terminal read again, as `orders.list` answers: the list replaces the
   * renderer's. The harness bridge raises it after its socket came back (changes may have been
   * missed while it was down); the main process has no reason to.
   */
  'orders.listed': () => z.object({ orders: z.array(orderSummarySchema()) }),
  /**
   * Orders taken off the terminal by the engine: finished (completed or cancelled) and untouched
   * for days (core/outbox/retire.ts). The queue drops them.
   */
  'orders.removed': () => z.object({ orderIds: z.array(orderIdInputSchema()).max(10_000) }),
  'outbox.changed': () => z.object({ entries: z.array(outboxEntryViewSchema()) }),
  'sync.status': () => syncStatusSchema(),
  'intake.status': () => intakeStatusSchema(),
  'updates.status': () => updateStatusSchema(),
  /** The store hub's status changed (joined, away, back, counters come and go, intake moved). */
  'hub.status': () => hubStatusSchema(),
  /** The packer signed in at this counter changed (or the staff list did). */
  'staff.changed': () => packerStatusSchema(),
  /**
   * Other counters' shift taps arrived from the store hub: the store-wide Shift figures changed
   * (this counter's own taps come as `outbox.changed`).
   */
  'shift.changed': () => z.object({}).strict(),
  /** A store setting (scan to pack, how long an order stays with its counter) was changed at another counter and taken here. */
  'settings.changed': () => settingsSchema(),
});


export type EventName = keyof typeof EVENTS;

export type EventBody<E extends EventName> = z.infer<(typeof EVENTS)[E]>;


/** What crosses the wire as a command's answer. */
export type Reply<T> = { ok: true; value: T } | { ok: false; problem: Problem };


/**
 * A command's answer as it arrives at the page, from either shell (Electron IPC, the harness
 * WebSocket): the envelope only; createApi then parses the value with the command's result schema.
 */
export const replySchema = builtOnce(() => z.union([
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), problem: ProblemSchema }),
]));


/** How a shell carries the contract (ipcRenderer in Electron, a WebSocket in the harness). */
export interface Transport {
  invoke(command: CommandName, payload: unknown): Promise<Reply<unknown>>;
  subscribe(event: EventName, listener: (body: unknown) => void): () => void;
}


/** The API object the renderer sees as `window.packdesk`, whatever the shell. */
export interface PackdeskApi {
  invoke<C extends CommandName>(command: C, payload: CommandPayload<C>): Promise<Reply<CommandResult<C>>>;
  on<E extends EventName>(event: E, listener: (body: EventBody<E>) => void): () => void;
}


/** A command's reply as the renderer may see it: a value that passed the command's result schema, or a problem. */
export function parseReply<C extends CommandName>(command: C, reply: Reply<unknown>): Reply<CommandResult<C>> {
  const spec = COMMANDS[command];
  if (!spec) return { ok: false, problem: { kind: 'invalid', message: `Unknown command ${String(command)}`, code: 'UNKNOWN_COMMAND' } };
  if (!reply.ok) return reply as Reply<never>;
  const parsed = spec.result.safeParse(reply.value);
  if (!parsed.success)
    return { ok: false, problem: { kind: 'permanent', message: `The terminal sent an unreadable answer to ${command}`, code: 'UNREADABLE_ANSWER', values: { command } } };
  return { ok: true, value: parsed.data } as never;
}


/** An event's body that passed the event's schema, or undefined (dropped). */
export function parseEvent<E extends EventName>(event: E, body: unknown): EventBody<E> | undefined {
  const parsed = EVENTS[event].safeParse(body);
  return parsed.success ? (parsed.data as EventBody<E>) : undefined;
}


/** Builds the renderer's API over a transport; results and events are validated on arrival too. */
export function createApi(transport: Transport): PackdeskApi {
  return {
    async invoke(command, payload) {
      if (!COMMANDS[command]) return parseReply(command, { ok: true, value: undefined });
      return parseReply(command, await transport.invoke(command, payload));
    },
    on(event, listener) {
      return transport.subscribe(event, (body) => {
        const parsed = parseEvent(event, body);
        if (parsed !== undefined) listener(parsed);
      });
    },
  };
}


/** Checks a command name from outside (IPC channel, WebSocket frame). */
export function isCommandName(name: unknown): name is CommandName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(COMMANDS, name);
}


/** Checks an event name from outside (IPC channel, WebSocket frame). */
export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(EVENTS, name);
}


/** Every command name, in contract order. */
export const COMMAND_NAMES = Object.keys(COMMANDS) as CommandName[];

/** Every event name, in contract order. */
export const EVENT_NAMES = Object.keys(EVENTS) as EventName[];


// Built only from the contract's names, so no channel outside the contract can be reached
// through the preload; src/main/ipc.ts and the preload both use these.

/** The IPC channel prefix used by the Electron shell. */
export const IPC_CHANNEL_PREFIX = 'packdesk:';


/** The ipcMain.handle channel of a command: `packdesk:orders.list`. */
export function commandChannel(command: CommandName): string {
  return `${IPC_CHANNEL_PREFIX}${command}`;
}


/**
 * The webContents.send channel of an event: `packdesk:event:sync.status`. Kept apart from the
 * command channels because some events share a name with a command (`sync.status`).
 */
export function eventChannel(event: EventName): string {
  return `${IPC_CHANNEL_PREFIX}event:${event}`;
}
