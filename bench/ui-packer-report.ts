/**
 * bench/ui-packer.ts's printed report: each measure against its bound, the first render also
 * against the floor measured the same way (issue 41: the queue's first render p95 at most the
 * floor's p95 plus 150 ms, fresh and kept profiles, on one core and two), and where the time went.
 */
import type { Floor } from './floor';
import type { TapFloor } from './tap-floor';
import { type Spread, spread } from './stats';

/** Issue 21: navigation to the first screenful of rows painted, at p95. */
export const FIRST_RENDER_BOUND_MS = 400;
/** Issue 41: the first render's p95 over the floor's p95 (the same profile, cores and slowdown), at most. */
export const OVER_FLOOR_BOUND_MS = 150;

/**
 * A measure against its bound. `slack` is for frame intervals only: an interval is the display's
 * tick give or take the clock's jitter, so 2% over is still one frame. Latencies get none.
 */
export function line(title: string, s: Spread, bound: number, boundWord: string, slack = 0): string {
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const ratio = (v: number) => `${(v / bound).toFixed(2)}x`;
  const verdict = s.p95 <= bound * (1 + slack) ? 'within' : 'OVER';
  return [
    `${title} (n=${s.n})`,
    `  median ${ms(s.median)}  p95 ${ms(s.p95)}  p99 ${ms(s.p99)}  max ${ms(s.max)}`,
    `  vs ${boundWord} ${ms(bound)}: median ${ratio(s.median)}  p95 ${ratio(s.p95)} (${verdict})  p99 ${ratio(s.p99)}`,
  ].join('\n');
}

export interface FirstRender {
  /** Navigation start to the app's script running (HTML, harness bridge, bundle). */
  readonly script: number;
  /** ... to the first command for the queue leaving the page. */
  readonly asked: number;
  /** ... to the queue's head arriving at the page (the host's answer on the socket). */
  readonly answered: number;
  /** ... to the queue's head and the settings in the store (answers checked, words started). */
  readonly data: number;
  /** ... to the first screenful of rows in the DOM (the rows' last change before a frame showed them filling the list). */
  readonly dom: number;
  /** ... to the first screenful of rows painted (the first contentful paint when they were in it; see FIRST_SCREEN_PROBE). */
  readonly rows: number;
  /** ... to the page's thread free after that first frame (requestAnimationFrame, then a task). */
  readonly frameTask: number;
  /** Whether those rows were the host's drawing in the page's HTML (firstScreen), not the app's. */
  readonly drawn: boolean;
  /** ... to the app's own rows in the DOM (their last change before a frame showed them filling the list; a drawing replaced, or the same as `dom` without one): a tap works from here. */
  readonly live: number;
  /** ... to those painted (the page's thread free after their frame). */
  readonly livePainted: number;
  /** Rows drawn in that first screen (those in view and the list's overscan). */
  readonly rowCount: number;
  /** ... to the page's HTML: its first byte and its last (the host's drawing inside). */
  readonly htmlStart: number;
  readonly htmlEnd: number;
  /** ... to the app's style sheet asked for and in (Resource Timing's fetchStart and responseEnd). */
  readonly sheetAsked: number;
  readonly sheetIn: number;
  /** ... to the shipped fonts in (the page's last font load that ended before the app was live; NaN: none). */
  readonly fontsIn: number;
  /** Within "asked to answered": the host answering orders.head, wall time and the process's CPU over it. */
  readonly hostList: number;
  readonly hostListCpu: number;
}


/**
 * Where each load's tab opens: `cold`, in a browser profile of its own (nothing kept: a new
 * renderer process, the bundle downloaded and compiled: a terminal's first start after an
 * install or update); `kept`, in one profile for all loads (the browser's cache and V8's code
 * cache of the bundle as the load before left them: every later start of a terminal, whose
 * Electron keeps both on disk, and every reload of the harness page).
 */
export type Profile = 'cold' | 'kept';


export interface TapSample {
  /** Click event to the new state painted: the page's foreseen view, or the engine's if it came first. */
  readonly total: number;
  /** Whether that first new state was the page's foreseen view. */
  readonly foreseen: boolean;
  /** Click event to the page's own acknowledgement painted (the big button resting). */
  readonly ack: number;
  /** The new state in the DOM to painted (waiting for the next frame, then painting). */
  readonly frame: number;
  /** Of which the frame's own work: style, layout, paint (from its animation frame callback). */
  readonly render: number;
  /** The display tick that frame was begun for (requestAnimationFrame's timestamp), from the click: see inFirstFrame. */
  readonly tick: number;
  /** Click event to the engine's own view of the order painted (the tap confirmed). */
  readonly confirmed: number;
  /** Click event to the command leaving the page. */
  readonly toSend: number;
  /** Command sent to the engine's orders.changed event arriving. */
  readonly engine: number;
  /** Event arrived to the engine's view in the DOM (validation, store, React). */
  readonly page: number;
}

/** rAF timestamps' rounding (see inFirstFrame). */
const TICK_ROUNDING_MS = 0.25;

/**
 * Whether a tap's new state was drawn by the first frame after the tap: the display tick that frame
 * was begun for, from the click, is at most one display interval (the first tick after the click),
 * or before the click (the frame under way at it took the change in). Later than one interval, the
 * page missed a frame. `interval` is the display's, measured with nothing happening (a median of
 * rAF timestamps, which sit on the display's ticks); 0.25 ms is for their rounding, no more, so a
 * missed frame is not counted as a first one.
 */
export function inFirstFrame(tick: number, interval: number): boolean {
  return tick <= interval + TICK_ROUNDING_MS;
}

/** How many taps were drawn by the first frame after them, and when that frame's tick came. */
function firstFrames(ticks: readonly number[], interval: number): string {
  const first = ticks.filter((t) => inFirstFrame(t, interval)).length;
  return `${first} of ${ticks.length} taps (${Math.round((first / ticks.length) * 100)} %)`;
}

export function tapReport(title: string, samples: readonly TapSample[], floor?: TapFloor, interval?: number): string {
  const part = (k: Exclude<keyof TapSample, 'foreseen'>): string => {
    const s = spread(samples.map((x) => x[k]));
    return `median ${s.median.toFixed(1)} / p95 ${s.p95.toFixed(1)} ms`;
  };
  const foreseen = samples.filter((x) => x.foreseen).length;
  const total = spread(samples.map((x) => x.total));
  return [
    line(title, total, 16, 'one frame'),
    `  the new state first drawn from the page's foreseen view in ${foreseen} of ${samples.length} taps (else the engine's view came first)`,
    ...(interval
      ? [
          `  drawn by the first frame after the tap (its display tick at most ${(interval + TICK_ROUNDING_MS).toFixed(2)} ms after the click, or the frame under way at it): ${firstFrames(samples.map((x) => x.tick), interval)};`,
          `                       that frame's tick after the click ${part('tick')}${floor ? `; the tap floor's in ${firstFrames(floor.ticks, interval)}` : ''}`,
        ]
      : []),
    `  the tap acknowledged on screen by the page alone (button resting): ${part('ack')}; new state in the DOM to painted ${part('frame')},`,
    `                       of which the frame's style, layout and paint ${part('render')}`,
    `  the engine's own view painted (tap confirmed): ${part('confirmed')}`,
    `  where that time goes: click to command sent ${part('toSend')}; engine round trip (command to orders.changed) ${part('engine')};`,
    `                       page (event to DOM: validation, store, React) ${part('page')}; then the next frame`,
    ...(floor ? [`  beside the tap floor (a trivial page's button, the browser alone): p95 ${floor.total.p95.toFixed(1)} ms; the app's taps ${(total.p95 - floor.total.p95).toFixed(1)} ms over it at p95`] : []),
  ].join('\n');
}

/** The first render against its bound, and each step's own spread: which one the slow loads lost their time in. */
export function firstRenderReport(firstRender: readonly FirstRender[], profile: Profile, floor?: Floor): string {
  type Moment = Exclude<keyof FirstRender, 'drawn'>;
  const fr = (k: Moment) => spread(firstRender.map((f) => f[k])).median.toFixed(0);
  const step = (k: Moment, from: Moment | null) => {
    const s = spread(firstRender.map((f) => f[k] - (from ? f[from] : 0)));
    return `${s.median.toFixed(0)} / ${s.p95.toFixed(0)}`;
  };
  const hostWall = spread(firstRender.map((f) => f.hostList));
  const rows = spread(firstRender.map((f) => f.rows));
  return [
    line(
      `First render of the queue, navigation to the first screenful of rows painted, ${profile === 'kept' ? "browser's caches kept from the load before (a terminal's every later start)" : 'fresh browser profile each load (first start after an install)'}`,
      rows,
      FIRST_RENDER_BOUND_MS,
      "issue 21's bound",
    ),
    ...(floor ? [floorMargin(rows, floor)] : []),
    `  ${fr('rowCount')} rows, ${firstRender.filter((f) => f.drawn).length} of ${firstRender.length} loads the host's drawing in the HTML; medians from navigation: rows in the DOM ${fr('dom')} ms; painted ${fr('rows')} ms;`,
    `    the page's thread free after that frame ${fr('frameTask')} ms`,
    `  before the first frame, medians from navigation: the HTML's first byte ${fr('htmlStart')} ms, its last ${fr('htmlEnd')} ms; the style sheet asked for ${fr('sheetAsked')} ms, in ${fr('sheetIn')} ms`,
    fontsLine(firstRender),
    line('  The app live (its own rows in the DOM, painted: a tap works from here)', spread(firstRender.map((f) => f.livePainted)), FIRST_RENDER_BOUND_MS, 'the same bound').replace(/\n/g, '\n  '),
    `  the app's steps, medians from navigation: app script starts ${fr('script')} ms; queue asked for ${fr('asked')} ms; its head arrives ${fr('answered')} ms;`,
    `    head and settings in the store ${fr('data')} ms; its rows in the DOM ${fr('live')} ms`,
    `  steps, median / p95 ms: HTML and scripts to the app's script ${step('script', null)}; app script to the queue asked for ${step('asked', 'script')};`,
    `    asked to answered (host, socket) ${step('answered', 'asked')}; answer to store (checks, words) ${step('data', 'answered')};`,
    `    store to its rows in the DOM (React) ${step('live', 'data')}; rows in the DOM to painted ${step('rows', 'dom')}`,
    `  within asked to answered, the host answering orders.head: median ${hostWall.median.toFixed(0)} / p95 ${hostWall.p95.toFixed(0)} ms, using median ${fr('hostListCpu')} ms of the host process's CPU`,
  ].join('\n');
}

/**
 * When the shipped fonts came in, against the rows' paint. A Hindi screen's words are drawn with
 * them (font-display: block): rows painted before them showed no Hindi words yet, so a change that
 * paints sooner by not waiting for them is no gain (seen in stop 61: the font preloads left out).
 * On an English screen only the language button's "हिन्दी" needs them.
 */
function fontsLine(firstRender: readonly FirstRender[]): string {
  const loaded = firstRender.filter((f) => Number.isFinite(f.fontsIn));
  if (loaded.length === 0) return '  no shipped font loaded before the app was live';
  const early = loaded.filter((f) => f.rows < f.fontsIn).length;
  return `  the shipped fonts in (median) ${spread(loaded.map((f) => f.fontsIn)).median.toFixed(0)} ms, in ${loaded.length} of ${firstRender.length} loads; the rows painted before them in ${early} (in Hindi: painted without their Hindi words)`;
}

/** The first render's p95 beside the floor's (the same kind of profile): the app's own share against issue 41's bound. */
function floorMargin(rows: Spread, floor: Floor): string {
  const bound = floor.painted.p95 + OVER_FLOOR_BOUND_MS;
  const over = rows.p95 - floor.painted.p95;
  return `  vs the floor's p95 ${floor.painted.p95.toFixed(1)} ms + ${OVER_FLOOR_BOUND_MS} ms = ${bound.toFixed(1)} ms: p95 ${rows.p95.toFixed(1)} ms, ${over.toFixed(1)} ms over the floor (${(over / OVER_FLOOR_BOUND_MS).toFixed(2)}x the ${OVER_FLOOR_BOUND_MS} ms allowed; ${rows.p95 <= bound ? 'within' : 'OVER'})`;
}
