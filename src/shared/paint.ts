/**
 * Page-side timing shared by the renderer and the harness's bridge: work that must not come before
 * the page's next frame (the queue the host drew, the first screenful of rows) waits for it.
 */

/**
 * Runs `then` once, when the frame now on its way has been painted (the task after its animation
 * frame callbacks: the paint happens in between), or after `atMostMs`, whichever is first. The
 * limit is for a page that draws no frame: a tab in the background gets no animation frames.
 */
export function afterNextPaint(then: () => void, atMostMs: number): void {
  let done = false;
  const once = (): void => {
    if (done) return;
    done = true;
    then();
  };
  requestAnimationFrame(() => setTimeout(once, 0));
  setTimeout(once, atMostMs);
}
