/**
 * Electron IPC channel names, built only from the contract's command and event names, so no
 * channel outside the contract can be reached through the preload. Shared by the preload and
 * src/main/ipc.ts; no Node or Electron imports here.
 */
import { COMMANDS, EVENTS, IPC_CHANNEL_PREFIX, type CommandName, type EventName } from '../shared/ipc';

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

/** Checks an event name from outside. */
export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(EVENTS, name);
}

/** Every command name, in contract order. */
export const COMMAND_NAMES = Object.keys(COMMANDS) as CommandName[];
/** Every event name, in contract order. */
export const EVENT_NAMES = Object.keys(EVENTS) as EventName[];
