/** Measurements taken inside the page: control sizes, controls covered by something else, rows in view. */
import type { Page } from 'playwright-core';

export interface ControlProblem {
  readonly what: string;
  readonly height: number;
  readonly width: number;
}

const CONTROLS = 'button, a[href], input:not([type="hidden"]), select, textarea, [role="button"], [role="option"], summary';

/** Visible controls (or, for a hidden checkbox, its label) less than `min` px tall. */
export function smallControls(page: Page, min = 56): Promise<ControlProblem[]> {
  return page.evaluate(
    ({ selector, min }) => {
      const out: { what: string; height: number; width: number }[] = [];
      for (const el of document.querySelectorAll<HTMLElement>(selector)) {
        const input = el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio');
        const target = input ? (el.closest('label') ?? el) : el;
        const r = target.getBoundingClientRect();
        // Not drawn (display: none, a closed part) or a visually hidden input behind its label.
        if (r.width <= 2 || r.height <= 2) continue;
        if (getComputedStyle(target).visibility === 'hidden') continue;
        if (r.height + 0.5 < min) {
          const name = (target.getAttribute('aria-label') ?? target.textContent ?? '').trim().slice(0, 40);
          out.push({ what: `${target.tagName.toLowerCase()}${target.dataset.testid ? `[${target.dataset.testid}]` : ''} "${name}"`, height: Math.round(r.height), width: Math.round(r.width) });
        }
      }
      return out;
    },
    { selector: CONTROLS, min },
  );
}

/**
 * Controls in view whose middle is covered by something else (the undo bar, a notice). A control
 * scrolled out of its scroll box is not in view; it can be scrolled to, so it is not covered.
 */
export function coveredControls(page: Page): Promise<string[]> {
  return page.evaluate((selector) => {
    const visibleRect = (el: Element): DOMRect | null => {
      let r = el.getBoundingClientRect();
      let left = r.left;
      let top = r.top;
      let right = r.right;
      let bottom = r.bottom;
      for (let p = el.parentElement; p; p = p.parentElement) {
        const style = getComputedStyle(p);
        if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
        const c = p.getBoundingClientRect();
        left = Math.max(left, c.left);
        top = Math.max(top, c.top);
        right = Math.min(right, c.right);
        bottom = Math.min(bottom, c.bottom);
      }
      right = Math.min(right, window.innerWidth);
      bottom = Math.min(bottom, window.innerHeight);
      if (right - left < 4 || bottom - top < 4) return null;
      r = new DOMRect(left, top, right - left, bottom - top);
      return r;
    };
    const out: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>(selector)) {
      if (el.closest('[inert]') || el.closest('dialog:not([open])')) continue;
      const r = visibleRect(el);
      if (!r) continue;
      const x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      const hit = document.elementFromPoint(x, y);
      if (hit && (hit === el || el.contains(hit) || hit.contains(el) || hit.closest('label')?.contains(el))) continue;
      // A filter under the arrow over an end of its row is cut by the row's edge, as one scrolled
      // out of its box: the arrow brings it into view.
      if (hit?.closest('.filter-scroll-end') && el.closest('.step-filters')) continue;
      // A modal dialog covers the page behind it on purpose; only its own controls count then.
      if (document.querySelector('dialog[open]') && !el.closest('dialog[open]')) continue;
      out.push(`${el.tagName.toLowerCase()}${el.dataset.testid ? `[${el.dataset.testid}]` : ''} "${(el.textContent ?? '').trim().slice(0, 40)}" under ${hit ? `${hit.tagName.toLowerCase()}.${hit.className}` : 'nothing'}`);
    }
    return out;
  }, CONTROLS);
}

/** Where each enabled control in view is drawn now, by a name that says which it is. */
export function enabledControlsInView(page: Page): Promise<{ what: string; top: number; bottom: number; left: number; right: number }[]> {
  return page.evaluate((selector) => {
    const out: { what: string; top: number; bottom: number; left: number; right: number }[] = [];
    document.querySelectorAll<HTMLElement>(selector).forEach((el, i) => {
      if (el.closest('[inert]') || (el as HTMLButtonElement).disabled) return;
      // The part drawn: clipped by every scroll box around it and by the window.
      const r = el.getBoundingClientRect();
      let { top, bottom, left, right } = r;
      for (let p = el.parentElement; p; p = p.parentElement) {
        const style = getComputedStyle(p);
        if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
        const c = p.getBoundingClientRect();
        top = Math.max(top, c.top);
        bottom = Math.min(bottom, c.bottom);
        left = Math.max(left, c.left);
        right = Math.min(right, c.right);
      }
      bottom = Math.min(bottom, window.innerHeight);
      right = Math.min(right, window.innerWidth);
      if (right - left <= 2 || bottom - top <= 2) return;
      const what = `${el.tagName.toLowerCase()}${el.dataset.testid ? `[${el.dataset.testid}]` : ''} "${(el.textContent ?? '').trim().slice(0, 30)}" #${i}`;
      out.push({ what, top, bottom, left, right });
    });
    return out;
  }, CONTROLS);
}

/**
 * Controls that were in view at `before` and that the undo bar, now up, sits on: a finger on its
 * way to one of them when the bar appeared lands on the bar instead (the page keeps its scroll
 * position, so where a control was is where the finger goes).
 */
export async function controlsUnderUndoBar(page: Page, before: Awaited<ReturnType<typeof enabledControlsInView>>): Promise<string[]> {
  const bar = await page.getByTestId('undo-bar').boundingBox();
  if (!bar) throw new Error('the undo bar is not up');
  return before
    .filter((c) => c.bottom > bar.y + 0.5 && c.top < bar.y + bar.height - 0.5 && c.right > bar.x && c.left < bar.x + bar.width)
    .map((c) => `${c.what} (${Math.round(Math.min(c.bottom, bar.y + bar.height) - Math.max(c.top, bar.y))} px under the bar)`);
}

/** Order rows wholly inside the queue's visible box. */
export function rowsInView(page: Page): Promise<number> {
  return page.evaluate(() => {
    const box = document.querySelector('[data-testid="queue-list"]')?.getBoundingClientRect();
    if (!box) return 0;
    const bottom = Math.min(box.bottom, window.innerHeight);
    return [...document.querySelectorAll('[data-testid="order-row"]')].filter((row) => {
      const r = row.getBoundingClientRect();
      return r.top >= box.top - 0.5 && r.bottom <= bottom + 0.5;
    }).length;
  });
}

/**
 * Order rows in view with something drawn outside their own box (a second line of facts that
 * does not fit spills onto the next order), as "<order id>: <what> <top>-<bottom> in <row top>-<row bottom>".
 */
export function spillingRows(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const box = document.querySelector('[data-testid="queue-list"]')?.getBoundingClientRect();
    if (!box) return [];
    const out: string[] = [];
    for (const row of document.querySelectorAll<HTMLElement>('[data-testid="order-row"]')) {
      const r = row.getBoundingClientRect();
      if (r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5) continue;
      for (const el of row.querySelectorAll<HTMLElement>('*')) {
        const b = el.getBoundingClientRect();
        if (b.width === 0 || b.height === 0) continue;
        if (b.top < r.top - 0.5 || b.bottom > r.bottom + 0.5 || b.left < r.left - 0.5 || b.right > r.right + 0.5)
          out.push(
            `${row.dataset.orderId ?? '?'}: ${el.tagName.toLowerCase()}.${el.className} "${(el.textContent ?? '').trim().slice(0, 30)}" ` +
              `${Math.round(b.top)}-${Math.round(b.bottom)} in ${Math.round(r.top)}-${Math.round(r.bottom)}`,
          );
      }
    }
    return out;
  });
}

/**
 * Controls inside `within` (the top bar, say) that a person could not read or tap whole: two that
 * overlap, one past the window's edge, or one whose words are cut. Each named by its words.
 */
export function crowdedControls(page: Page, within: string): Promise<string[]> {
  return page.evaluate(
    ({ within, controls }) => {
      const name = (el: Element) => `${el.tagName.toLowerCase()} "${((el as HTMLInputElement).placeholder || el.textContent || '').trim().slice(0, 40)}"`;
      const shown = [...document.querySelectorAll<HTMLElement>(`${within} :is(${controls})`)].filter((el) => {
        const r = el.getBoundingClientRect();
        return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
      });
      const out: string[] = [];
      shown.forEach((el, i) => {
        const r = el.getBoundingClientRect();
        if (r.left < -0.5 || r.right > window.innerWidth + 0.5) out.push(`${name(el)} past the window's edge (${Math.round(r.left)}-${Math.round(r.right)} px)`);
        if (el.scrollWidth > el.clientWidth + 1) out.push(`${name(el)} cut (${el.scrollWidth} px of words in ${el.clientWidth})`);
        // An empty field's placeholder says what it is for: cut, it says less (scrollWidth does not count it).
        if (el instanceof HTMLInputElement && el.value === '' && el.placeholder) {
          const style = getComputedStyle(el);
          const pen = document.createElement('canvas').getContext('2d');
          if (pen) {
            pen.font = style.font;
            const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
            const words = pen.measureText(el.placeholder).width;
            if (words > room + 1) out.push(`${name(el)} placeholder cut (${Math.round(words)} px of words in ${Math.round(room)})`);
          }
        }
        for (const other of shown.slice(i + 1)) {
          const o = other.getBoundingClientRect();
          const across = Math.min(r.right, o.right) - Math.max(r.left, o.left);
          const down = Math.min(r.bottom, o.bottom) - Math.max(r.top, o.top);
          if (across > 1 && down > 1) out.push(`${name(el)} over ${name(other)} by ${Math.round(across)} px`);
        }
      });
      return out;
    },
    { within, controls: CONTROLS },
  );
}

/**
 * How many rows the visible controls inside `within` lie on: controls whose middles are less than
 * half a control apart share a row.
 */
export function controlRows(page: Page, within: string): Promise<number> {
  return page.evaluate(
    ({ within, controls }) => {
      const middles = [...document.querySelectorAll<HTMLElement>(`${within} :is(${controls})`)]
        .map((el) => el.getBoundingClientRect())
        .filter((r) => r.width > 2 && r.height > 2)
        .map((r) => r.top + r.height / 2)
        .sort((a, b) => a - b);
      let rows = 0;
      let last = -Infinity;
      for (const m of middles) {
        if (m - last > 28) rows += 1;
        last = m;
      }
      return rows;
    },
    { within, controls: CONTROLS },
  );
}

/**
 * The first `count` elements `selector` finds that are not wholly in view without scrolling: cut
 * by a scroll box around them or by the window, or covered where they are drawn. Fewer than
 * `count` found is a problem too.
 */
export function notWhollyInView(page: Page, selector: string, count: number): Promise<string[]> {
  return page.evaluate(
    ({ selector, count }) => {
      const all = [...document.querySelectorAll<HTMLElement>(selector)].slice(0, count);
      const out: string[] = [];
      if (all.length < count) out.push(`${all.length} of ${count} "${selector}" on the page`);
      all.forEach((el, i) => {
        const r = el.getBoundingClientRect();
        const what = `${selector} #${i + 1} "${(el.textContent ?? '').trim().slice(0, 30)}" (${Math.round(r.top)}-${Math.round(r.bottom)} px)`;
        let top = 0;
        let bottom = window.innerHeight;
        for (let p = el.parentElement; p; p = p.parentElement) {
          const style = getComputedStyle(p);
          if (style.overflowY === 'visible') continue;
          const c = p.getBoundingClientRect();
          top = Math.max(top, c.top);
          bottom = Math.min(bottom, c.bottom);
        }
        if (r.top < top - 0.5 || r.bottom > bottom + 0.5) {
          out.push(`${what} not in view (${Math.round(top)}-${Math.round(bottom)} px shown)`);
          return;
        }
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        if (hit && hit !== el && !el.contains(hit)) out.push(`${what} under ${hit.tagName.toLowerCase()}.${hit.className}`);
      });
      return out;
    },
    { selector, count },
  );
}

/**
 * Lists (select) inside `within` whose chosen words do not fit their box: a closed list shows
 * only what fits, so "Only when I press “Install now”" read "Only when I press “Ins". Each named
 * by its label, with the words' width and the room.
 */
export function cutSelects(page: Page, within: string): Promise<string[]> {
  return page.evaluate((within) => {
    const out: string[] = [];
    const pen = document.createElement('canvas').getContext('2d');
    if (!pen) return ['no canvas to measure with'];
    for (const el of document.querySelectorAll<HTMLSelectElement>(`${within} select`)) {
      const r = el.getBoundingClientRect();
      if (r.width <= 2 || r.height <= 2) continue;
      const style = getComputedStyle(el);
      pen.font = style.font;
      const words = el.selectedOptions[0]?.textContent ?? '';
      // The box less its padding and the list's arrow (about 1em in Chromium's drawing).
      const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - parseFloat(style.fontSize);
      const width = pen.measureText(words).width;
      if (width > room + 1) {
        const label = (el.labels?.[0]?.textContent ?? el.getAttribute('aria-label') ?? '').trim().slice(0, 40);
        out.push(`"${label}": "${words}" is ${Math.round(width)} px in ${Math.round(room)}`);
      }
    }
    return out;
  }, within);
}
