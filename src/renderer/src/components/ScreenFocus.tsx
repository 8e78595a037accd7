/**
 * After moving to another screen, the keyboard focus lands on that screen: its first action when
 * the screen put it there itself (an order's big button), otherwise its heading. Without this the
 * focus stays on a button of the screen that is gone, and Tab starts again from the window's top.
 */
import { useEffect } from 'react';
import { useUi } from '../store/ui';

/** Focuses the current screen's heading (made focusable for this, not a Tab stop). */
export function focusScreenStart(): void {
  const heading = document.querySelector<HTMLElement>('main h1');
  if (!heading) return;
  if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
  heading.focus({ preventScroll: true });
}

export function ScreenFocus() {
  const where = useUi((s) => (s.screen.name === 'order' ? `order:${s.screen.orderId}` : s.screen.name));
  useEffect(() => {
    const main = document.querySelector('main');
    // The screen already placed the focus (the big button on an order): leave it there.
    if (main && document.activeElement instanceof HTMLElement && main.contains(document.activeElement)) return;
    // The id field keeps the focus while someone types in it.
    if (document.activeElement instanceof HTMLInputElement && document.activeElement.id === 'order-id-entry') return;
    focusScreenStart();
  }, [where]);
  return null;
}
