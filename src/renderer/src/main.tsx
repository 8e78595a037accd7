/**
 * Renderer entry. Small on purpose: when the host drew the queue into the page (firstScreen/), the
 * browser runs this as soon as the page is parsed, before its first frame; the app's own script
 * (start.tsx: React, the stores, the words) and the worker that loads ICU's data are started only
 * once that frame is on screen (its first contentful paint presented), so the packer sees the
 * queue without waiting for the app, and the frame's raster has the cores to itself (on a 2-core
 * counter PC, compiling the app beside it put the rows on screen about 75 ms later). Without a
 * drawing the app starts at once.
 */
// The style sheets are here, not in start.tsx, so the page's HTML links them (the drawing needs them).
import './styles/fonts.css';
import './styles/base.css';
import './styles/layout.css';
import './styles/topbar.css';
import './styles/controls.css';
import './styles/queue.css';
import './styles/order.css';
import './styles/panels.css';
import './styles/print.css';
import './styles/intake.css';
import './styles/hub.css';
import './styles/shift.css';
import './styles/staff.css';
import { afterContentPresented } from '../../shared/paint';
import { warmIcu } from './format/warmIcu';
import { FIRST_SCREEN } from '../../shared/firstScreen';

/**
 * How long the app waits for the drawing's frame to be presented at most: a page that draws no
 * frame (a tab in the background) must still start, so new orders are heard.
 */
const PAINT_WAIT_MS = 500;

/** The app's script; asked for once more a second later if it cannot be loaded (a file being replaced by an update). */
const loadApp = () => import('./start').catch(() => new Promise((resolve) => setTimeout(resolve, 1_000)).then(() => import('./start')));

const drawn = document.querySelector(FIRST_SCREEN) !== null;

/**
 * An order tapped in the drawing before the app could answer: the app opens it once it is up, so
 * the tap is not lost (the last one, if several). Taps after the app has replaced the drawing are
 * its own: no row of the drawing is left to find.
 */
let tapped: string | null = null;
const noteTap = (event: MouseEvent): void => {
  const row = event.target instanceof Element ? event.target.closest(`${FIRST_SCREEN} [data-order-id]`) : null;
  if (row) tapped = row.getAttribute('data-order-id');
};
if (drawn) document.addEventListener('click', noteTap, true);
const takeTapped = (): string | null => {
  document.removeEventListener('click', noteTap, true);
  return tapped;
};

void (drawn ? new Promise<void>((resolve) => afterContentPresented(resolve, PAINT_WAIT_MS)) : Promise.resolve())
  .then(() => {
    warmIcu();
    return loadApp();
  })
  .then(
    ({ startApp }) => startApp({ tappedInDrawing: takeTapped }),
    () => {
      // A broken install: the drawing must not stand there looking like a working queue.
      const root = document.getElementById('root');
      if (root) root.textContent = 'Packdesk could not load its screens. Restart Packdesk; if this keeps happening, reinstall it or call support.';
    },
  );
