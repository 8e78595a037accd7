/**
 * bench/ui-packer.ts's in-page probe of the queue's first render. Notes when the first screenful
 * of queue rows is painted after navigation: rows down to the list's bottom edge (or as many as
 * there are orders), each with its text. Painted: when the rows were in the DOM before the page's
 * first contentful paint, that paint's time as the browser records it (Paint Timing: the frame that
 * showed them); otherwise the page's thread free after the frame that followed them into the DOM
 * (its requestAnimationFrame, then a task queued from it). That second figure is noted in every
 * load: it is later than the paint whenever a long task (the app's script, which runs right after
 * the first frame) comes between the frame and the queued task. (Element Timing would name the
 * rows' own paint, but headless Chromium 156 records no element entries.) The rows may be the
 * host's drawing of the queue in the page's HTML (firstScreen) or the app's own; when the app's own rows replace a drawing is noted too
 * (from then on a tap works). Also notes when the page sent its first command for the queue and
 * when that answer arrived (the harness's socket), and when each load of the page's shipped fonts ended.
 */
export const FIRST_SCREEN_PROBE = `(() => {
  window.__first = {};
  // When the shipped faces came in (each load of the page's fonts that ended): a Hindi screen's
  // words are drawn with them, and a frame painted before them shows its rows without those words.
  window.__first.fontsAts = [];
  document.fonts.addEventListener('loadingdone', () => window.__first.fontsAts.push(performance.now()));
  const Base = window.WebSocket;
  window.WebSocket = class extends Base {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (m) => {
        if (window.__first.answerAt === undefined && typeof m.data === 'string' && m.data.includes('"ids":[')) window.__first.answerAt = performance.now();
      });
    }
    send(data) {
      if (window.__first.askedAt === undefined && String(data).includes('"orders.')) window.__first.askedAt = performance.now();
      super.send(data);
    }
  };
  new PerformanceObserver((entries) => {
    for (const e of entries.getEntries()) if (e.name === 'first-contentful-paint') window.__first.contentfulAt = e.startTime;
  }).observe({ type: 'paint', buffered: true });
  const full = () => {
    const list = document.querySelector('[data-testid="queue-list"]');
    const rows = list ? list.querySelectorAll('[data-testid="order-row"]') : [];
    const last = rows[rows.length - 1];
    if (!last || !last.textContent) return null;
    return rows.length >= Number(last.getAttribute('aria-setsize')) || last.getBoundingClientRect().bottom >= list.getBoundingClientRect().bottom ? last : null;
  };
  // Each batch of DOM changes only counts the rows (no layout); whether they fill the list is asked
  // after the next frame, when the page is laid out anyway. Asked in the batch, it forced a layout
  // while the HTML was still parsing, before the style sheet was in: 11-16 ms of one core in a
  // trace, and the style sheet's parsing waited for it. \`rowsIn\`: the rows as they last changed
  // before they were seen filling the list (\`domAt\` is that change); \`appRows\`: the same for the
  // app's own rows (\`liveAt\`). A change after the frame an ask waited for had begun was not in that
  // frame: the ask waits for the next one.
  const rowsIn = { at: undefined, count: 0, texted: false, drawn: false };
  const appRows = { at: undefined, count: 0, texted: false };
  let frameBegunAt = -1;
  let asking = false;
  const ask = () => {
    asking = false;
    const first = window.__first;
    if (first.domAt === undefined) {
      if (rowsIn.at >= frameBegunAt || !full()) return askAfterFrame();
      Object.assign(first, { domAt: rowsIn.at, drawn: rowsIn.drawn, rowCount: rowsIn.count, frameTaskAt: performance.now() });
    }
    // The app's own rows come by DOM changes, which ask again themselves.
    if (appRows.at === undefined || document.querySelector('.first-screen') !== null) return;
    if (appRows.at >= frameBegunAt) return askAfterFrame();
    if (!full()) return;
    observer.disconnect();
    Object.assign(first, { liveAt: appRows.at, livePaintedAt: performance.now() });
  };
  const askAfterFrame = () => {
    if (asking) return;
    asking = true;
    requestAnimationFrame(() => {
      frameBegunAt = performance.now();
      setTimeout(ask, 0);
    });
  };
  const observer = new MutationObserver(() => {
    const drawn = document.querySelector('.first-screen') !== null;
    const rows = document.querySelectorAll('[data-testid="order-row"]');
    const texted = rows.length > 0 && rows[rows.length - 1].textContent !== '';
    const now = performance.now();
    if (window.__first.domAt === undefined && (rows.length !== rowsIn.count || texted !== rowsIn.texted || drawn !== rowsIn.drawn)) Object.assign(rowsIn, { at: now, count: rows.length, texted, drawn });
    if (!drawn && (rows.length !== appRows.count || texted !== appRows.texted)) Object.assign(appRows, { at: now, count: rows.length, texted });
    if (rows.length > 0) askAfterFrame();
  });
  observer.observe(document, { childList: true, subtree: true });
})()`;
