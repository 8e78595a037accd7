/**
 * The Orders search (issue 24): typed text read as the find field reads it (an id, its last digits,
 * a customer's name or phone, an invoice number), or a day's arrivals when nothing is typed; orders
 * that left the terminal are found too (by their id: their details left with them), each saying
 * where it stands. Filtered by standing and day here, over the index's first candidates, so a
 * filter never costs a walk over the whole file; a view is built only for an order that is shown
 * or whose standing nothing cheaper can tell.
 */
import { nextStep } from '../../../shared/fulfilment';
import type { OrderView, SearchStanding } from '../../../shared/ipc';
import type { MatchKind } from '../../../shared/orders';
import { dayBounds } from '../../../shared/days';
import type { OrderSearch, Searched, StandingFacts } from '../db';

/** Most candidates looked at for one search before the filters: a filter that keeps none of them says "more". */
export const SEARCH_CANDIDATES = 400;

export interface SearchQuery {
  readonly text: string;
  readonly standing?: SearchStanding | undefined;
  readonly day?: string | undefined;
}

/** One order found, with its view while it is on the terminal. */
export interface SearchHit {
  readonly id: string;
  readonly by: MatchKind | 'day';
  readonly standing: SearchStanding;
  readonly addedAt: number;
  readonly leftAt: number | null;
  readonly view: OrderView | null;
}

/** Where an order stands: gone from the terminal, nothing left to do, or something still to do. */
export function standingOf(removedAt: number | null, view: OrderView | null): SearchStanding {
  if (removedAt !== null) return 'left';
  return view?.order && view.nextStep === null ? 'done' : 'open';
}

/**
 * True when an order on the terminal surely stands 'open', told from its stored facts without
 * building its view (reading, checking and freezing a ~4 kB body, laying taps over it, its alarm
 * and cuts): with no tap shaping it, its view's order is its body as stored, so a body whose facts
 * give a next step is open (and one that does not parse whole shows no order: open as well), and so
 * is an order with no body. Anything else only its view can tell (standingOf).
 */
export function surelyOpen(facts: StandingFacts | null): boolean {
  if (facts === null || facts.shaped) return false;
  if (!facts.hasBody) return true;
  return facts.step !== null && nextStep(facts.step) !== null;
}

/** Up to `limit` orders `query` finds, most certain first (a day's list newest first); `more` when others matched. */
export function searchOrders(
  search: OrderSearch,
  viewOf: (orderId: string) => OrderView | null,
  query: SearchQuery,
  limit: number,
): { hits: SearchHit[]; more: boolean } {
  const text = query.text.trim();
  const bounds = query.day ? dayBounds(query.day) : null;
  let candidates: { found: (Omit<Searched, 'by'> & { by?: MatchKind })[]; more: boolean };
  if (text) candidates = search.search(text, SEARCH_CANDIDATES);
  else if (bounds) candidates = search.ofDay(bounds.from, bounds.to, SEARCH_CANDIDATES);
  // Nothing typed and no day: nothing asked for (the screen says what to type).
  else return { hits: [], more: false };
  const hits: SearchHit[] = [];
  for (const c of candidates.found) {
    if (bounds && (c.addedAt < bounds.from || c.addedAt >= bounds.to)) continue;
    // With no standing asked for, each candidate left is shown: one past the limit says "more" unread.
    if (!query.standing && hits.length === limit) return { hits, more: true };
    // An order gone from the terminal has no view to read (its body left with it).
    if (query.standing === 'left' && c.removedAt === null) continue;
    // Finished orders are a few among many a name finds: most are told apart without their views.
    if (query.standing === 'done' && c.removedAt === null && surelyOpen(search.standingFacts(c.id))) continue;
    const view = c.removedAt === null ? viewOf(c.id) : null;
    const standing = standingOf(c.removedAt, view);
    if (query.standing && standing !== query.standing) continue;
    if (hits.length === limit) return { hits, more: true };
    hits.push({ id: c.id, by: c.by ?? 'day', standing, addedAt: c.addedAt, leftAt: c.removedAt, view });
  }
  return { hits, more: candidates.more };
}
