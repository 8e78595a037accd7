import { describe, expect, it, vi } from 'vitest';
import { COMMANDS, COMMAND_NAMES, EVENTS, EVENT_NAMES, commandChannel, createApi, eventChannel, isEventName } from '../../src/shared/ipc';
import { createIpcTransport, type IpcRendererLike } from '../../src/preload/transport';

/** A stand-in for Electron's ipcRenderer: records invokes and delivers sends to listeners. */
function fakeIpcRenderer(answer: (channel: string, args: unknown[]) => unknown = () => ({ ok: true, value: {} })) {
  const listeners = new Map<string, Set<(event: unknown, ...args: unknown[]) => void>>();
  const invokes: { channel: string; args: unknown[] }[] = [];
  const ipc: IpcRendererLike & { emit(channel: string, body: unknown): void; count(channel: string): number } = {
    async invoke(channel, ...args) {
      invokes.push({ channel, args });
      return answer(channel, args);
    },
    on(channel, listener) {
      if (!listeners.has(channel)) listeners.set(channel, new Set());
      listeners.get(channel)!.add(listener);
      return ipc;
    },
    removeListener(channel, listener) {
      listeners.get(channel)?.delete(listener);
      return ipc;
    },
    emit(channel, body) {
      // Electron passes an IpcRendererEvent first; its `sender` is ipcRenderer itself.
      for (const l of listeners.get(channel) ?? []) l({ sender: ipc, ports: [] }, body);
    },
    count: (channel) => listeners.get(channel)?.size ?? 0,
  };
  return { ipc, invokes };
}

describe('channels', () => {
  it('covers exactly the contract', () => {
    expect(COMMAND_NAMES).toEqual(Object.keys(COMMANDS));
    expect(EVENT_NAMES).toEqual(Object.keys(EVENTS));
    expect(commandChannel('orders.list')).toBe('packdesk:orders.list');
    expect(eventChannel('sync.status')).toBe('packdesk:event:sync.status');
    // Command and event channels never collide, even where the names do.
    const commandChannels = new Set(COMMAND_NAMES.map(commandChannel));
    for (const e of EVENT_NAMES) expect(commandChannels.has(eventChannel(e))).toBe(false);
    expect(isEventName('orders.changed')).toBe(true);
    expect(isEventName('toString')).toBe(false);
    expect(isEventName(42)).toBe(false);
  });
});

describe('createIpcTransport', () => {
  it('invokes the command channel with the payload as the one argument', async () => {
    const { ipc, invokes } = fakeIpcRenderer(() => ({ ok: true, value: { valid: true } }));
    const transport = createIpcTransport(ipc);
    const reply = await transport.invoke('pin.verify', { pin: '1234' });
    expect(reply).toEqual({ ok: true, value: { valid: true } });
    expect(invokes).toEqual([{ channel: 'packdesk:pin.verify', args: [{ pin: '1234' }] }]);
  });

  it('reaches no channel outside the contract', async () => {
    const { ipc, invokes } = fakeIpcRenderer();
    const transport = createIpcTransport(ipc);
    for (const name of ['ipc', '__proto__', 'constructor', 'packdesk:orders.list', '../orders.list', 'event:sync.status']) {
      const reply = await transport.invoke(name as never, {});
      expect(reply.ok).toBe(false);
    }
    expect(invokes).toHaveLength(0);
    const off = transport.subscribe('__proto__' as never, () => undefined);
    off();
    expect(ipc.count('packdesk:event:__proto__')).toBe(0);
  });

  it('passes problems through and refuses malformed replies', async () => {
    const answers: unknown[] = [
      { ok: false, problem: { kind: 'invalid', message: 'PIN must be 4 to 8 digits' } },
      { ok: false, problem: { kind: 'bogus', message: 'x' } },
      'a string',
      null,
      { ok: 'yes' },
    ];
    let i = 0;
    const { ipc } = fakeIpcRenderer(() => answers[i++]);
    const transport = createIpcTransport(ipc);
    expect(await transport.invoke('pin.verify', { pin: 'x' })).toEqual({ ok: false, problem: { kind: 'invalid', message: 'PIN must be 4 to 8 digits' } });
    for (let k = 1; k < answers.length; k++) {
      const reply = await transport.invoke('pin.verify', { pin: '1234' });
      expect(reply).toMatchObject({ ok: false, problem: { kind: 'permanent' } });
    }
  });

  it('turns a rejected invoke into a transient problem without the error text', async () => {
    const { ipc } = fakeIpcRenderer(() => {
      throw new Error("Error invoking remote method 'packdesk:orders.list': secret detail");
    });
    const reply = await createIpcTransport(ipc).invoke('orders.list', {});
    expect(reply).toMatchObject({ ok: false, problem: { kind: 'transient' } });
    expect(JSON.stringify(reply)).not.toContain('secret detail');
  });

  it('delivers event bodies only, never the IpcRendererEvent, and unsubscribes', () => {
    const { ipc } = fakeIpcRenderer();
    const transport = createIpcTransport(ipc);
    const seen: unknown[][] = [];
    const off = transport.subscribe('sync.status', (...args: unknown[]) => seen.push(args));
    ipc.emit('packdesk:event:sync.status', { connectivity: 'online' });
    ipc.emit('packdesk:sync.status', { connectivity: 'offline' }); // a command channel: not an event
    expect(seen).toEqual([[{ connectivity: 'online' }]]);
    off();
    expect(ipc.count('packdesk:event:sync.status')).toBe(0);
    ipc.emit('packdesk:event:sync.status', { connectivity: 'online' });
    expect(seen).toHaveLength(1);
  });
});

describe('the API the preload exposes', () => {
  it('is exactly createApi over the IPC transport: invoke and on, nothing else', async () => {
    const { ipc } = fakeIpcRenderer(() => ({ ok: true, value: { valid: true } }));
    const api = createApi(createIpcTransport(ipc));
    expect(Object.keys(api).sort()).toEqual(['invoke', 'on']);
    expect(await api.invoke('pin.verify', { pin: '1234' })).toEqual({ ok: true, value: { valid: true } });
    const listener = vi.fn();
    api.on('updates.status', listener);
    ipc.emit('packdesk:event:updates.status', { state: 'idle', currentVersion: '1.0.0', availableVersion: null, message: null, lastCheckAt: null });
    ipc.emit('packdesk:event:updates.status', { state: 'nonsense' });
    expect(listener).toHaveBeenCalledTimes(1);
  });
});
