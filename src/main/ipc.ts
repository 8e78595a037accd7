/**
 * ipcMain wiring: one handler per contract command, each checking the sender frame before the
 * host (which validates the name and payload with zod) sees anything; host events go to the
 * window. Electron objects are passed in (structurally typed), so this is tested under Node.
 */
import { COMMAND_NAMES, commandChannel, eventChannel, type CommandName, type EventName, type Reply } from '../shared/ipc';
import type { Logger } from './core/log';
import { isAllowedSender, type SenderFacts } from './security';

/** What ipcMain hands a handler, reduced to the facts the sender check needs. */
export interface InvokeEventLike {
  readonly sender: { readonly id: number };
  /** Electron's WebFrameMain: `parent` is null for a top frame; the whole frame is null once gone. */
  readonly senderFrame: { readonly url: string; readonly parent: unknown } | null;
}

/** The part of ipcMain this module uses. */
export interface IpcMainLike {
  handle(channel: string, listener: (event: InvokeEventLike, ...args: unknown[]) => Promise<unknown>): void;
  removeHandler(channel: string): void;
}

/** The part of the host this module uses. */
export interface CommandHost {
  handle(command: unknown, payload: unknown): Promise<Reply<unknown>>;
  subscribe(listener: (event: EventName, body: unknown) => void): () => void;
}

export interface IpcWiringOptions {
  readonly ipcMain: IpcMainLike;
  readonly host: CommandHost;
  /** The id of the main window's webContents, or null while there is none. */
  readonly mainContentsId: () => number | null;
  /** Origins the UI may be served from (see trustedOrigins). */
  readonly origins: readonly string[];
  readonly log: Logger;
  /** Runs after a command the host accepted, e.g. to apply changed settings to the window. */
  readonly afterCommand?: (command: CommandName, reply: Reply<unknown>) => void;
}

/** The answer to a message from anywhere but the app's window; says no more than needed. */
export const FOREIGN_SENDER_REPLY: Reply<never> = {
  ok: false,
  problem: { kind: 'invalid', message: 'Refused: this request did not come from the Packdesk window.', code: 'FOREIGN_SENDER' },
};

/** The sender facts of an invoke event, for isAllowedSender. */
export function senderFacts(event: InvokeEventLike, mainContentsId: number | null): SenderFacts {
  const frame = event.senderFrame;
  return {
    url: frame ? frame.url : null,
    isMainFrame: frame !== null && (frame.parent === null || frame.parent === undefined),
    isMainWindow: mainContentsId !== null && event.sender.id === mainContentsId,
  };
}

/** Registers a handler for every command; returns a function that removes them all. */
export function wireCommands(options: IpcWiringOptions): () => void {
  const { ipcMain, host, log } = options;
  for (const command of COMMAND_NAMES) {
    ipcMain.handle(commandChannel(command), async (event, ...args) => {
      if (!isAllowedSender(senderFacts(event, options.mainContentsId()), options.origins)) {
        // The URL says where the attempt came from; the payload is not logged (it may hold a PIN).
        log.warn('refused IPC from a foreign sender', { command, url: (event.senderFrame?.url ?? 'gone').slice(0, 200) });
        return FOREIGN_SENDER_REPLY;
      }
      // The preload always sends exactly one payload argument; anything else is not our preload.
      if (args.length !== 1) {
        return { ok: false, problem: { kind: 'invalid', message: `The request ${command} was not valid.`, code: 'INVALID_REQUEST' } } satisfies Reply<never>;
      }
      const reply = await host.handle(command, args[0]);
      try {
        options.afterCommand?.(command, reply);
      } catch (err) {
        // Applying a setting to the window must not turn an accepted command into a failure.
        log.error('applying a command to the shell failed', { command, error: err instanceof Error ? err.message : String(err) });
      }
      return reply;
    });
  }
  return () => {
    for (const command of COMMAND_NAMES) ipcMain.removeHandler(commandChannel(command));
  };
}

/** The part of webContents events are pushed through. */
export interface EventTarget {
  isDestroyed(): boolean;
  send(channel: string, ...args: unknown[]): void;
}

/** Forwards every host event to the window (when there is one); returns the unsubscribe. */
export function forwardEvents(host: CommandHost, target: () => EventTarget | null): () => void {
  return host.subscribe((event, body) => {
    const contents = target();
    if (contents && !contents.isDestroyed()) contents.send(eventChannel(event), body);
  });
}
