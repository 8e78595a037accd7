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

/**
 * Runs `then` once the page's first contentful paint has been presented (the browser's record of
 * it: its paint timing entry, delivered once the frame is on screen, not only once it was drawn),
 * or after `atMostMs`, whichever is first. Where the browser keeps no paint timing, after the next
 * paint. Work started here no longer takes the cores the frame's raster and presentation need.
 */
export function afterContentPresented(then: () => void, atMostMs: number): void {
  let done = false;
  let observer: PerformanceObserver | null = null;
  const once = (): void => {
    if (done) return;
    done = true;
    observer?.disconnect();
    then();
  };
  try {
    observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName('first-contentful-paint').length > 0) once();
    });
    observer.observe({ type: 'paint', buffered: true });
  } catch {
    afterNextPaint(once, atMostMs);
    return;
  }
  setTimeout(once, atMostMs);
}
