/**
 * After moving to another screen, the keyboard focus lands on that screen: its first action when
 * the screen put it there itself (an order's big button), otherwise its heading. Without this the
 * focus stays on a button of the screen that is gone, and Tab starts again from the window's top.
 * A screen whose module is still loading (Shell: every screen but the queue is loaded after the
 * first render) gets the focus once it is drawn; meanwhile no screen is on show (the one before it
 * is gone, or hidden while the Shift screen's Suspense waits: hidden, its heading must not take it).
 */
import { useEffect } from 'react';
import { useUi } from '../store/ui';

/** The screen on show: a hidden one (kept by Suspense while the next one's module loads) has no boxes. */
function shownScreen(): HTMLElement | null {
  return [...document.querySelectorAll<HTMLElement>('main')].find((main) => main.getClientRects().length > 0) ?? null;
}

/** Focuses the current screen's heading (made focusable for this, not a Tab stop). */
export function focusScreenStart(): void {
  const heading = shownScreen()?.querySelector<HTMLElement>('h1');
  if (!heading) return;
  if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
  heading.focus({ preventScroll: true });
}

/** Places the focus on the screen on show; false while there is none (its module still loading). */
function placeFocus(): boolean {
  const main = shownScreen();
  if (!main) return false;
  // The screen already placed the focus (the big button on an order): leave it there.
  if (document.activeElement instanceof HTMLElement && main.contains(document.activeElement)) return true;
  // The id field keeps the focus while someone types in it.
  if (document.activeElement instanceof HTMLInputElement && document.activeElement.id === 'order-id-entry') return true;
  focusScreenStart();
  return true;
}

export function ScreenFocus() {
  const where = useUi((s) => (s.screen.name === 'order' ? `order:${s.screen.orderId}` : s.screen.name));
  useEffect(() => {
    if (placeFocus()) return;
    const observer = new MutationObserver(() => {
      if (placeFocus()) observer.disconnect();
    });
    observer.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['style'] });
    return () => observer.disconnect();
  }, [where]);
  return null;
}
