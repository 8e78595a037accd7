import { describe, expect, it, vi } from 'vitest';
import { COMMANDS, type EventName, type Reply } from '../../src/shared/ipc';
import { MemorySink, createLogger } from '../../src/main/core/log';
import { FOREIGN_SENDER_REPLY, forwardEvents, senderFacts, wireCommands, type InvokeEventLike } from '../../src/main/ipc';
import { APP_ORIGIN } from '../../src/main/security';

type Listener = (event: InvokeEventLike, ...args: unknown[]) => Promise<unknown>;

function setup(options: { mainId?: number | null } = {}) {
  const handlers = new Map<string, Listener>();
  const ipcMain = {
    handle: (channel: string, listener: Listener) => {
      if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
      handlers.set(channel, listener);
    },
    removeHandler: (channel: string) => handlers.delete(channel),
  };
  const host = {
    handle: vi.fn(async (command: unknown, payload: unknown): Promise<Reply<unknown>> => ({ ok: true, value: { command, payload } })),
    subscribe: vi.fn(() => () => undefined),
  };
  const sink = new MemorySink();
  const afterCommand = vi.fn();
  const unwire = wireCommands({
    ipcMain,
    host,
    mainContentsId: () => (options.mainId === undefined ? 7 : options.mainId),
    origins: [APP_ORIGIN],
    log: createLogger([sink]),
    afterCommand,
  });
  return { handlers, host, sink, afterCommand, unwire };
}

const fromApp: InvokeEventLike = { sender: { id: 7 }, senderFrame: { url: 'app://packdesk/index.html', parent: null } };

describe('wireCommands', () => {
  it('registers one handler per contract command and removes them all', () => {
    const { handlers, unwire } = setup();
    expect([...handlers.keys()].sort()).toEqual(Object.keys(COMMANDS).map((c) => `packdesk:${c}`).sort());
    unwire();
    expect(handlers.size).toBe(0);
  });

  it('passes the one payload to the host for the app window', async () => {
    const { handlers, host, afterCommand } = setup();
    const reply = await handlers.get('packdesk:orders.add')!(fromApp, { orderId: 'A1' });
    expect(host.handle).toHaveBeenCalledWith('orders.add', { orderId: 'A1' });
    expect(reply).toEqual({ ok: true, value: { command: 'orders.add', payload: { orderId: 'A1' } } });
    expect(afterCommand).toHaveBeenCalledWith('orders.add', reply);
  });

  const foreign: [string, InvokeEventLike][] = [
    ['another webContents', { ...fromApp, sender: { id: 8 } }],
    ['an iframe of the window', { sender: { id: 7 }, senderFrame: { url: 'app://packdesk/index.html', parent: {} } }],
    ['a frame that is gone', { sender: { id: 7 }, senderFrame: null }],
    ['a web page in the window', { sender: { id: 7 }, senderFrame: { url: 'https://evil.example/', parent: null } }],
    ['a file:// page', { sender: { id: 7 }, senderFrame: { url: 'file:///tmp/x.html', parent: null } }],
  ];

  it.each(foreign)('refuses every command from %s before the host sees it', async (_what, event) => {
    const { handlers, host, sink } = setup();
    for (const [channel, handler] of handlers) {
      const reply = await handler(event, { pin: '1234' });
      expect(reply, channel).toEqual(FOREIGN_SENDER_REPLY);
    }
    expect(host.handle).not.toHaveBeenCalled();
    expect(sink.records.some((r) => r.msg.includes('foreign sender'))).toBe(true);
    // The payload (here a PIN) is never logged.
    expect(JSON.stringify(sink.records)).not.toContain('1234');
  });

  it('refuses everything while there is no main window', async () => {
    const { handlers, host } = setup({ mainId: null });
    expect(await handlers.get('packdesk:app.info')!(fromApp, {})).toEqual(FOREIGN_SENDER_REPLY);
    expect(host.handle).not.toHaveBeenCalled();
  });

  it('refuses a call with other than exactly one argument', async () => {
    const { handlers, host } = setup();
    expect(await handlers.get('packdesk:app.info')!(fromApp)).toMatchObject({ ok: false, problem: { kind: 'invalid' } });
    expect(await handlers.get('packdesk:app.info')!(fromApp, {}, 'extra')).toMatchObject({ ok: false, problem: { kind: 'invalid' } });
    expect(host.handle).not.toHaveBeenCalled();
  });

  it('keeps the reply when applying it to the shell fails', async () => {
    const { handlers, afterCommand, sink } = setup();
    afterCommand.mockImplementation(() => {
      throw new Error('window gone');
    });
    const reply = await handlers.get('packdesk:settings.get')!(fromApp, {});
    expect(reply).toMatchObject({ ok: true });
    expect(sink.records.some((r) => r.level === 'error')).toBe(true);
  });
});

describe('senderFacts', () => {
  it('reads the frame, its parent and the sender id', () => {
    expect(senderFacts(fromApp, 7)).toEqual({ url: 'app://packdesk/index.html', isMainFrame: true, isMainWindow: true });
    expect(senderFacts(fromApp, null).isMainWindow).toBe(false);
    expect(senderFacts({ sender: { id: 7 }, senderFrame: null }, 7)).toEqual({ url: null, isMainFrame: false, isMainWindow: true });
  });
});

describe('forwardEvents', () => {
  it('sends host events to the window on the event channels, and not to a destroyed one', () => {
    let listener: ((event: EventName, body: unknown) => void) | undefined;
    const host = { handle: vi.fn(), subscribe: vi.fn((l: typeof listener) => ((listener = l), () => undefined)) };
    const contents = { isDestroyed: vi.fn(() => false), send: vi.fn() };
    let target: typeof contents | null = contents;
    forwardEvents(host as never, () => target);
    listener!('orders.changed', { orders: [] });
    expect(contents.send).toHaveBeenCalledWith('packdesk:event:orders.changed', { orders: [] });
    contents.isDestroyed.mockReturnValue(true);
    listener!('sync.status', {});
    target = null;
    listener!('sync.status', {});
    expect(contents.send).toHaveBeenCalledTimes(1);
  });
});
