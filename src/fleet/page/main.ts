/**
 * The fleet page in the browser: polls the server's JSON (status every 5 s, charts every 15 s, an
 * open store's drill-down every 5 s), draws the table with its filters, three SVG charts and the
 * drill-down. Built from the DOM with textContent only (no HTML from data) under a strict CSP.
 */
import { barSlots, type ChartBox, niceMax, yOf, yTicks } from '../../shared/chart';
import { printableText } from '../../shared/protocol/orderId';
import { ago, PROBLEM_WORDS } from '../format';
import type { FleetSeries } from '../history';
import type { StoreDrill } from '../serve';
import { refusalLine } from '../refusals';
import type { CounterRow, FleetStatus, StoreRow } from '../status';

const STATUS_EVERY_MS = 5_000;
const HISTORY_EVERY_MS = 15_000;
const DRILL_EVERY_MS = 5_000;
/** Lines drawn in the taps chart; the rest of the stores are summed into one line. */
const TOP_STORES = 6;
const COLOURS = ['#0b57d0', '#b3261e', '#1d7a3a', '#8a4fbf', '#b05f00', '#00707a', '#5f6368'];
const SVG = 'http://www.w3.org/2000/svg';

type Child = Node | string | null | false;
// Every text the page shows goes through printableText: store, counter and packer names come from
// the stores, and a direction control in one is shown as \uXXXX, not obeyed (issue 38).
function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children) if (c !== null && c !== false) node.append(typeof c === 'string' ? printableText(c) : c);
  return node;
}
function svg(tag: string, attrs: Record<string, string | number> = {}, text?: string): SVGElement {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = printableText(text);
  return node;
}
const byId = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

const state: {
  status: FleetStatus | null;
  series: FleetSeries | null;
  openStore: string | null;
  drill: StoreDrill | null;
  drillProblem: string | null;
} = { status: null, series: null, openStore: null, drill: null, drillProblem: null };

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url, { cache: 'no-store' });
  const body = (await res.json().catch(() => null)) as (T & { error?: string }) | null;
  if (!res.ok || body === null) throw new Error(body?.error ?? `The page's server answered ${res.status}.`);
  return body;
}

const time = (at: number): string => new Date(at).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit' });
const hhmm = (at: number): string => new Date(at).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });
const clock = (ms: number | null): string => (ms === null ? 'not known' : `${ms >= 0 ? '+' : '−'}${Math.abs(Math.round(ms / 1000))} s`);
const STEP_WORDS: Record<string, string> = { ACCEPT: 'Accept', PACKING: 'Start packing', PACKED: 'Mark packed', OUT_FOR_DELIVERY: 'Out for delivery', DELIVERED: 'Delivered', COMPLETE: 'Complete' };

// ---- table -------------------------------------------------------------------------------

function filters(): { onlyProblems: boolean; search: string; version: string } {
  return {
    onlyProblems: byId<HTMLInputElement>('only-problems').checked,
    search: byId<HTMLInputElement>('search').value.trim().toLowerCase(),
    version: byId<HTMLSelectElement>('version').value,
  };
}

function storeHasProblem(s: StoreRow): boolean {
  return s.stale || s.counters.some((c) => c.problems.length > 0);
}

function problemTags(c: CounterRow): Node {
  if (c.problems.length === 0) return el('span', { class: 'ok' }, 'ok');
  const span = el('span');
  for (const p of c.problems) span.append(el('span', { class: `tag ${p === 'offline' || p === 'no-service' || p === 'backlog' ? 'bad' : 'warn'}` }, PROBLEM_WORDS[p]));
  return span;
}

function counterRow(c: CounterRow, now: number): HTMLTableRowElement {
  const h = c.health;
  const tr = el('tr', { 'data-counter': h.counterId });
  tr.append(
    el('td', { class: 'counter-name' }, `${h.counterName} `, el('span', { class: 'figures' }, `(${h.counterId})`)),
    el('td', { class: c.problems.includes('old-version') ? 'warn' : '' }, h.version),
    el('td', { class: `num ${c.problems.includes('backlog') ? 'bad' : ''}` }, String(h.tapsWaiting)),
    el('td', {}, h.oldestWaitingAt === null ? '—' : ago(h.at, h.oldestWaitingAt)),
    el('td', {}, ago(h.at, h.lastSentAt)),
    el('td', { class: c.problems.includes('clock-off') ? 'warn' : '' }, clock(h.clockDifferenceMs)),
    el('td', { class: c.problems.includes('offline') ? 'bad' : '' }, ago(now, c.lastHeardAt)),
    el('td', {}, problemTags(c)),
  );
  return tr;
}

function storeRow(s: StoreRow, now: number): HTMLTableRowElement {
  const tr = el('tr', { class: `store-row${s.stale ? ' stale' : ''}`, 'data-store': s.storeId });
  const line = el('div', { class: 'store-line' });
  line.append(el('span', {}, s.storeId));
  line.append(el('span', { class: s.stale ? 'bad' : 'figures' }, s.stale ? `STALE: nothing arrived for ${ago(now, s.lastArrivedAt).replace(' ago', '')}` : `heard ${ago(now, s.lastArrivedAt)}`));
  if (s.summary) {
    const m = s.summary;
    line.append(el('span', { class: 'figures' }, `waiting for Accept ${m.awaitingAccept} · being packed ${m.beingPacked} · late ${m.late} · cancelled alarms ${m.cancelledAlarmsOpen}`));
  }
  const open = el('button', { type: 'button', 'data-open': s.storeId, 'aria-label': `Open store ${s.storeId}: its counters and open orders` }, 'Open store');
  open.addEventListener('click', () => openStore(s.storeId));
  line.append(open);
  tr.append(el('th', { scope: 'rowgroup', colspan: '8' }, line));
  return tr;
}

function renderTable(): void {
  const status = state.status;
  if (!status) return;
  const f = filters();
  const versionSelect = byId<HTMLSelectElement>('version');
  const versions = [...new Set(status.stores.flatMap((s) => s.counters.map((c) => c.health.version)))].sort();
  const known = [...versionSelect.options].map((o) => o.value).filter(Boolean);
  if (versions.join() !== known.join()) {
    const chosen = versionSelect.value;
    versionSelect.replaceChildren(el('option', { value: '' }, 'All versions'), ...versions.map((v) => el('option', { value: v }, v)));
    versionSelect.value = versions.includes(chosen) ? chosen : '';
  }
  const body = byId<HTMLTableSectionElement>('fleet-rows');
  const rows: HTMLTableRowElement[] = [];
  let storesShown = 0;
  let countersShown = 0;
  for (const store of status.stores) {
    const storeMatches = f.search === '' || store.storeId.toLowerCase().includes(f.search);
    const counters = store.counters.filter(
      (c) =>
        (!f.onlyProblems || store.stale || c.problems.length > 0) &&
        (f.version === '' || c.health.version === f.version) &&
        (storeMatches || c.health.counterName.toLowerCase().includes(f.search) || c.health.counterId.toLowerCase().includes(f.search)),
    );
    if (f.onlyProblems && !storeHasProblem(store)) continue;
    if (counters.length === 0 && (!storeMatches || f.version !== '' || (f.onlyProblems && !store.stale))) continue;
    storesShown += 1;
    countersShown += counters.length;
    rows.push(storeRow(store, status.at), ...counters.map((c) => counterRow(c, status.at)));
  }
  if (rows.length === 0) {
    const words = status.stores.length === 0 ? 'No stores yet: add one with fleet stores add <store id>.' : 'No store or counter matches these filters.';
    rows.push(el('tr', {}, el('td', { colspan: '8' }, words)));
  }
  body.replaceChildren(...rows);
  const total = status.stores.reduce((n, s) => n + s.counters.length, 0);
  byId('shown').textContent = `Showing ${storesShown} of ${status.stores.length} stores, ${countersShown} of ${total} counters`;
}

function renderUpdated(): void {
  const s = state.status;
  if (!s) return;
  const counters = s.stores.flatMap((st) => st.counters);
  const problems = s.stores.filter(storeHasProblem).length;
  const refused = refusalLine(s.refused);
  byId('updated').textContent = `Updated ${time(s.at)} · ${s.stores.length} stores · ${counters.length} counters · ${problems} ${problems === 1 ? 'store' : 'stores'} with problems${refused ? ` · messages refused: ${refused}` : ''}`;
}

// ---- charts ------------------------------------------------------------------------------

/** The chart's size in px: as wide as its column (drawn again on a resize), as tall as the CSS says. */
let W = 420;
let H = 150;
function measure(figure: HTMLElement): void {
  W = Math.max(280, Math.round(figure.clientWidth));
  H = window.innerWidth >= 1700 ? 180 : 150;
}
const PAD = { left: 34, right: 8, top: 8, bottom: 20 };

const box = (): ChartBox => ({ width: W, height: H, pad: PAD });

function axes(chart: SVGElement, max: number, xLabels: { x: number; text: string }[]): void {
  for (const v of yTicks(max)) {
    const y = yOf(box(), max, v);
    chart.append(svg('line', { class: v === 0 ? 'axis' : 'grid', x1: PAD.left, x2: W - PAD.right, y1: y, y2: y }));
    chart.append(svg('text', { x: PAD.left - 4, y: y + 4, 'text-anchor': 'end' }, String(Math.round(v * 10) / 10)));
  }
  xLabels.forEach((l, i) => chart.append(svg('text', { x: l.x, y: H - 5, 'text-anchor': i === 0 ? 'start' : i === xLabels.length - 1 ? 'end' : 'middle' }, l.text)));
}

function lineChart(figure: HTMLElement, times: readonly number[], lines: { name: string; values: readonly number[] }[], unit: string): void {
  figure.querySelectorAll('svg, .legend, .empty').forEach((n) => n.remove());
  const caption = figure.querySelector('figcaption')!.textContent ?? '';
  measure(figure);
  if (times.length === 0 || lines.length === 0) {
    figure.append(el('p', { class: 'empty' }, 'Nothing has arrived at the centre yet.'));
    return;
  }
  const max = niceMax(Math.max(0, ...lines.flatMap((l) => l.values)));
  const x = (i: number): number => PAD.left + (i / Math.max(1, times.length - 1)) * (W - PAD.left - PAD.right);
  const y = (v: number): number => yOf(box(), max, v);
  const latest = lines.map((l) => `${l.name} ${l.values.at(-1) ?? 0}`).join(', ');
  const chart = svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': `${caption}, ${hhmm(times[0]!)} to ${hhmm(times.at(-1)!)}; now: ${latest} ${unit}` });
  const step = Math.floor((times.length - 1) / 3);
  axes(chart, max, [0, step, 2 * step, times.length - 1].map((i) => ({ x: x(i), text: hhmm(times[i]!) })));
  lines.forEach((l, k) => {
    const points = l.values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
    chart.append(svg('polyline', { points, fill: 'none', stroke: COLOURS[k % COLOURS.length]!, 'stroke-width': 2, 'data-series': l.name }));
  });
  figure.append(chart);
  if (lines.length > 1 || lines[0]!.name !== '') {
    const legend = el('ul', { class: 'legend' });
    lines.forEach((l, k) => {
      const swatch = el('span', { class: 'swatch' });
      // Set through the CSSOM: the CSP allows no inline style text.
      swatch.style.background = COLOURS[k % COLOURS.length]!;
      legend.append(el('li', {}, swatch, `${l.name}: ${l.values.at(-1) ?? 0}`));
    });
    figure.append(legend);
  }
}

function barChart(figure: HTMLElement, bars: readonly { hour: number; late: number }[]): void {
  figure.querySelectorAll('svg, .legend, .empty').forEach((n) => n.remove());
  measure(figure);
  const max = niceMax(Math.max(0, ...bars.map((b) => b.late)));
  const slots = barSlots(box(), bars.length);
  const total = bars.reduce((n, b) => n + b.late, 0);
  const worst = bars.reduce((a, b) => (b.late > a.late ? b : a), bars[0] ?? { hour: 0, late: 0 });
  const chart = svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': `Late orders per hour over the last 24 hours: ${total} in all, most ${worst.late} in the hour from ${hhmm(worst.hour)}` });
  axes(chart, max, bars.flatMap((b, i) => (i % 6 === 0 || i === bars.length - 1 ? [{ x: slots.slotMiddle(i), text: hhmm(b.hour) }] : [])));
  bars.forEach((b, i) => {
    const y = yOf(box(), max, b.late);
    const { x, width } = slots.bar(i, 0);
    chart.append(svg('rect', { x, y, width, height: H - PAD.bottom - y, fill: '#b3261e', 'data-late': b.late }));
  });
  figure.append(chart);
}

function renderCharts(): void {
  const s = state.series;
  if (!s) return;
  const ranked = [...s.tapsWaiting].sort((a, b) => Math.max(...b.values) - Math.max(...a.values) || a.storeId.localeCompare(b.storeId));
  const top = ranked.slice(0, TOP_STORES).map((t) => ({ name: t.storeId, values: t.values }));
  const rest = ranked.slice(TOP_STORES);
  if (rest.length) top.push({ name: `${rest.length} other stores`, values: s.times.map((_, i) => rest.reduce((n, r) => n + r.values[i]!, 0)) });
  lineChart(byId('chart-taps'), s.tapsWaiting.length ? s.times : [], top, 'taps');
  lineChart(byId('chart-offline'), s.tapsWaiting.length ? s.times : [], [{ name: '', values: s.countersOffline }], 'counters offline');
  barChart(byId('chart-late'), s.lateByHour);
}

// ---- drill-down --------------------------------------------------------------------------

function renderDrill(): void {
  const aside = byId('drill');
  if (!state.openStore) {
    aside.hidden = true;
    return;
  }
  aside.hidden = false;
  byId('drill-title').textContent = printableText(`Store ${state.openStore}`);
  const body = byId('drill-body');
  const d = state.drill;
  if (!d) {
    body.replaceChildren(el('p', { class: 'note' }, state.drillProblem ?? 'Asking the store…'));
    return;
  }
  const parts: Node[] = [];
  if (state.drillProblem) parts.push(el('p', { class: 'words', role: 'alert' }, state.drillProblem));
  parts.push(el('h3', {}, 'Counters'));
  if (d.store && d.store.counters.length) {
    const t = el('table', { 'data-testid': 'drill-counters' }, el('thead', {}, el('tr', {}, ...['Counter', 'Version', 'Taps waiting', 'State'].map((h) => el('th', { scope: 'col' }, h)))));
    const tb = el('tbody');
    for (const c of d.store.counters) {
      tb.append(el('tr', {}, el('td', {}, c.health.counterName), el('td', {}, c.health.version), el('td', { class: 'num' }, String(c.health.tapsWaiting)), el('td', {}, problemTags(c))));
    }
    t.append(tb);
    parts.push(t);
  } else parts.push(el('p', { class: 'note' }, 'The centre has heard from no counter of this store.'));
  parts.push(el('h3', {}, 'Open orders'));
  if (d.open.state !== 'ok') parts.push(el('p', { class: 'words', 'data-testid': 'drill-words' }, d.open.words));
  else {
    const list = d.open.list;
    parts.push(el('p', { class: 'note' }, `${list.orders.length + list.more} open, read live from the store at ${time(d.at)} (its list made ${time(list.at)} on the store's clock). Ids, steps and claims only.`));
    if (list.orders.length === 0) parts.push(el('p', {}, 'No open orders.'));
    else {
      const t = el('table', { 'data-testid': 'drill-orders' }, el('thead', {}, el('tr', {}, ...['Order', 'Next step', 'Late', 'Being packed at'].map((h) => el('th', { scope: 'col' }, h)))));
      const tb = el('tbody');
      for (const o of list.orders) {
        const claim = o.claim ? `${o.claim.counterName} since ${hhmm(o.claim.claimedAt)}` : '—';
        tb.append(
          el(
            'tr',
            { 'data-order': o.orderId },
            el('td', { class: 'order-id' }, o.orderId),
            el('td', {}, STEP_WORDS[o.nextStep] ?? o.nextStep, o.cancelledAlarm ? el('span', { class: 'tag bad' }, 'cancelled alarm') : null),
            el('td', { class: o.late ? 'bad' : '' }, o.late ? 'late' : 'no'),
            el('td', {}, claim),
          ),
        );
      }
      t.append(tb);
      parts.push(t);
      if (list.more) parts.push(el('p', { class: 'note' }, `${list.more} more not listed.`));
    }
  }
  body.replaceChildren(...parts);
}

function openStore(storeId: string): void {
  state.openStore = storeId;
  state.drill = null;
  state.drillProblem = null;
  renderDrill();
  byId('drill-title').focus();
  void refreshDrill();
}

// ---- polling -----------------------------------------------------------------------------

function showProblem(words: string | null): void {
  const p = byId('problem');
  p.hidden = words === null;
  p.textContent = printableText(words ?? '');
}

async function refreshStatus(): Promise<void> {
  try {
    state.status = await getJson<FleetStatus>('/api/status');
    showProblem(null);
    renderUpdated();
    renderTable();
  } catch (error) {
    showProblem(`${(error as Error).message} Figures below are from ${state.status ? time(state.status.at) : 'nothing yet'}.`);
  }
}

async function refreshHistory(): Promise<void> {
  try {
    state.series = await getJson<FleetSeries>(`/api/history?minutes=${byId<HTMLSelectElement>('window').value}`);
    renderCharts();
  } catch {
    // The status line says what is wrong with the centre; the charts keep what they drew.
  }
}

async function refreshDrill(): Promise<void> {
  const storeId = state.openStore;
  if (!storeId) return;
  try {
    const drill = await getJson<StoreDrill>(`/api/stores/${encodeURIComponent(storeId)}`);
    if (state.openStore !== storeId) return;
    state.drill = drill;
    state.drillProblem = null;
  } catch (error) {
    if (state.openStore !== storeId) return;
    state.drillProblem = `Could not ask the centre about this store: ${(error as Error).message}`;
  }
  renderDrill();
}

function start(): void {
  byId('filters').addEventListener('submit', (e) => e.preventDefault());
  for (const id of ['only-problems', 'search', 'version']) byId(id).addEventListener('input', renderTable);
  byId('window').addEventListener('change', () => void refreshHistory());
  let resizing: ReturnType<typeof setTimeout> | undefined;
  window.addEventListener('resize', () => {
    clearTimeout(resizing);
    resizing = setTimeout(renderCharts, 150);
  });
  byId('drill-close').addEventListener('click', () => {
    const was = state.openStore;
    state.openStore = null;
    renderDrill();
    document.querySelector<HTMLElement>(`button[data-open="${CSS.escape(was ?? '')}"]`)?.focus();
  });
  void refreshStatus();
  void refreshHistory();
  setInterval(() => void refreshStatus(), STATUS_EVERY_MS);
  setInterval(() => void refreshHistory(), HISTORY_EVERY_MS);
  setInterval(() => void refreshDrill(), DRILL_EVERY_MS);
}

start();
