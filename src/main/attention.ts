/**
 * Electron glue for the new-order alert when another program is in front (billing software usually
 * is): the taskbar button flashes until the window has the focus again, and the operating system
 * shows a notification that brings the window forward when clicked. Only orders new to this
 * process that wait for Accept count, one notification per batch, never while the window is focused.
 */
import type { OrderView } from '../shared/ipc';
import enWords from '../renderer/src/i18n/locales/en/intake.json';
import hiWords from '../renderer/src/i18n/locales/hi/intake.json';

/** What this module needs of the BrowserWindow. */
export interface AttentionWindow {
  isDestroyed(): boolean;
  isFocused(): boolean;
  isMinimized(): boolean;
  flashFrame(flag: boolean): void;
  restore(): void;
  show(): void;
  focus(): void;
  once(event: 'focus', listener: () => void): unknown;
}

/** Shows one operating-system notification; `onClick` runs when the person clicks it. */
export type Notify = (title: string, body: string, onClick: () => void) => void;

export interface AttentionOptions {
  readonly window: () => AttentionWindow | null;
  /** Null where the system has no notifications (Notification.isSupported() false). */
  readonly notify: Notify | null;
  /** The staff's language now ('en' or 'hi'). */
  readonly language: () => string;
}

/** At most this many order ids are named in a notification's body. */
const NAMED = 3;

const waitsForAccept = (v: OrderView): boolean => v.order !== null && v.nextStep?.key === 'ACCEPT';

/** Builds the watcher; feed it every `orders.changed` body. */
export function createNewOrderAttention(options: AttentionOptions) {
  // Every order seen waiting for Accept: one that comes back in a later event is not new again.
  const seen = new Set<string>();
  let flashing = false;

  const bringForward = (): void => {
    const w = options.window();
    if (!w || w.isDestroyed()) return;
    if (w.isMinimized()) w.restore();
    w.show();
    w.focus();
  };

  return {
    /** Orders whose view changed: new ones waiting for Accept get the person's attention if the window is not in front. */
    ordersChanged(views: readonly OrderView[]): void {
      const fresh = views.filter((v) => waitsForAccept(v) && !seen.has(v.id)).map((v) => v.id);
      for (const id of fresh) seen.add(id);
      if (fresh.length === 0) return;
      const w = options.window();
      if (!w || w.isDestroyed() || w.isFocused()) return;
      if (!flashing) {
        flashing = true;
        w.flashFrame(true);
        w.once('focus', () => {
          flashing = false;
          if (!w.isDestroyed()) w.flashFrame(false);
        });
      }
      const { title, body } = notification(options.language(), fresh);
      options.notify?.(title, body, bringForward);
    },
  };
}

/** The notification's words in the staff's language, from the renderer's own locale files. */
export function notification(language: string, ids: readonly string[]): { title: string; body: string } {
  const words = language === 'hi' ? hiWords.newOrders : enWords.newOrders;
  const count = ids.length;
  const named = ids.slice(0, NAMED).join(', ') + (count > NAMED ? ` +${count - NAMED}` : '');
  const title = (count === 1 ? words.notifyTitle_one : words.notifyTitle_other).replace('{{count}}', String(count));
  return { title, body: words.notifyBody.replace('{{orders}}', named) };
}
