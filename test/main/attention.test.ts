/** The new-order alert in the Electron shell: taskbar flash and system notification while another program is in front. */
import { describe, expect, it } from 'vitest';
import { createNewOrderAttention, notification, type AttentionWindow } from '../../src/main/attention';
import type { OrderView } from '../../src/shared/ipc';
import { sampleOrder } from '../support/orders';

class FakeWindow implements AttentionWindow {
  focused = false;
  minimized = false;
  flashes: boolean[] = [];
  calls: string[] = [];
  private onFocus: (() => void)[] = [];
  isDestroyed = (): boolean => false;
  isFocused = (): boolean => this.focused;
  isMinimized = (): boolean => this.minimized;
  flashFrame = (flag: boolean): void => void this.flashes.push(flag);
  restore = (): void => void this.calls.push('restore');
  show = (): void => void this.calls.push('show');
  focus = (): void => {
    this.calls.push('focus');
    this.gainFocus();
  };
  once(_event: 'focus', listener: () => void): void {
    this.onFocus.push(listener);
  }
  gainFocus(): void {
    this.focused = true;
    const l = this.onFocus.splice(0);
    for (const f of l) f();
  }
}

const view = (id: string, step: 'ACCEPT' | 'PACKING'): OrderView => ({
  id,
  order: sampleOrder({ id, orderState: step === 'ACCEPT' ? 'Created' : 'Accepted' }),
  nextStep: { key: step, label: step },
  waiting: 0,
  failed: 0,
  mayBeApplied: false,
  needsRefresh: false,
  promisedPackedAt: null,
  syncedAt: 1,
  addedAt: 1,
});

function setup(language = 'en') {
  const win = new FakeWindow();
  const notes: { title: string; body: string; click: () => void }[] = [];
  const attention = createNewOrderAttention({
    window: () => win,
    notify: (title, body, click) => notes.push({ title, body, click }),
    language: () => language,
  });
  return { win, notes, attention };
}

describe('new orders while another program is in front', () => {
  it('flashes the taskbar and notifies once per batch; a click brings the window forward and the flash stops with the focus', () => {
    const { win, notes, attention } = setup();
    win.minimized = true;
    attention.ordersChanged([view('ORD-1', 'ACCEPT'), view('ORD-2', 'ACCEPT'), view('ORD-3', 'PACKING')]);
    expect(win.flashes).toEqual([true]);
    expect(notes.map((n) => [n.title, n.body])).toEqual([['2 new orders are waiting', 'Open Packdesk to accept or reject ORD-1, ORD-2.']]);
    notes[0]!.click();
    expect(win.calls).toEqual(['restore', 'show', 'focus']);
    expect(win.flashes).toEqual([true, false]);
  });

  it('says nothing while the window is in front, and never twice for the same order', () => {
    const { win, notes, attention } = setup();
    win.focused = true;
    attention.ordersChanged([view('ORD-1', 'ACCEPT')]);
    win.focused = false;
    attention.ordersChanged([view('ORD-1', 'ACCEPT'), view('ORD-4', 'PACKING')]);
    expect(notes).toEqual([]);
    expect(win.flashes).toEqual([]);
    attention.ordersChanged([view('ORD-5', 'ACCEPT')]);
    expect(notes.map((n) => n.title)).toEqual(['A new order is waiting']);
  });

  it('keeps one flash going for several batches until the window has the focus', () => {
    const { win, notes, attention } = setup();
    attention.ordersChanged([view('ORD-1', 'ACCEPT')]);
    attention.ordersChanged([view('ORD-2', 'ACCEPT')]);
    expect(win.flashes).toEqual([true]);
    expect(notes).toHaveLength(2);
    win.gainFocus();
    expect(win.flashes).toEqual([true, false]);
  });

  it('words the notification in Hindi from the locale files, naming at most three orders', () => {
    expect(notification('hi', ['ORD-1'])).toEqual({ title: 'एक नया ऑर्डर इंतज़ार में है', body: 'ORD-1 स्वीकार या नामंज़ूर करने के लिए Packdesk खोलें।' });
    expect(notification('en', ['A-1', 'A-2', 'A-3', 'A-4']).body).toBe('Open Packdesk to accept or reject A-1, A-2, A-3 +1.');
  });
});
