/**
 * The order service's clock as two witnesses tell it (decisions.md, "Tokens"): the token server's
 * `issued_at` and the `Date` header of the order service's own answers. Each gives this
 * terminal's clock minus theirs. When they agree, they are followed at any size of difference (a
 * flat CMOS battery puts a clock days off); when they disagree, both readings are kept, so intake
 * can read windows that cover both and the sync bar can say so.
 */
import { CLOCK_SKEW_LIMIT_MS, MAX_CLOCK_SKEW_MS } from '../auth/expiry';

/** What the witnesses say together. All differences are this terminal's clock minus the other's. */
export interface ClockJudgement {
  /** The difference countdowns and the sync bar follow, or null when no witness is believed. */
  readonly skewMs: number | null;
  /** The token server's reading less the order service's, when they disagree beyond the limit; else null. */
  readonly disagreementMs: number | null;
  /** The smallest and largest believed differences (equal with one witness; both 0 with none). */
  readonly lowMs: number;
  readonly highMs: number;
}

/** The order service's now as a range: the witnesses' readings, earliest and latest. */
export interface ServiceNow {
  readonly earliest: number;
  readonly latest: number;
}

/**
 * Combines the witnesses. The token alone is believed within a day (an `issued_at` of 0 or of
 * another year is not a clock); the order service's `Date` alone at any size (it is the clock the
 * windows and promises are on). Two that agree within CLOCK_SKEW_LIMIT_MS are followed at any
 * size. Two that disagree: countdowns follow the order service's, and windows span both unless
 * the token's is further than a day from it (then it is a broken `issued_at`, still said).
 */
export function judgeClock(token: number | null, service: number | null): ClockJudgement {
  if (service === null) {
    const believed = token !== null && Math.abs(token) <= MAX_CLOCK_SKEW_MS ? token : null;
    return { skewMs: believed, disagreementMs: null, lowMs: believed ?? 0, highMs: believed ?? 0 };
  }
  if (token === null) return { skewMs: service, disagreementMs: null, lowMs: service, highMs: service };
  const apart = token - service;
  const span = Math.abs(apart) <= MAX_CLOCK_SKEW_MS ? { lowMs: Math.min(token, service), highMs: Math.max(token, service) } : { lowMs: service, highMs: service };
  if (Math.abs(apart) <= CLOCK_SKEW_LIMIT_MS) return { skewMs: token, disagreementMs: null, ...span };
  return { skewMs: service, disagreementMs: apart, ...span };
}

// A Date header has whole seconds, and each answer's network delay differs: a new reading this
// close to the held one is the same clock, and keeping the held one keeps the status still.
const SAME_READING_MS = 2_000;

/** Holds the latest word of each witness; `onChange` hears when the judgement may have changed. */
export class ServiceClock {
  private token: number | null = null;
  private service: number | null = null;

  constructor(
    private readonly now: () => number,
    private readonly onChange: () => void = () => undefined,
  ) {}

  /** The token server's difference (receive time less `issued_at`), or null when unknown. */
  tokenSaid(skewMs: number | null): void {
    const next = skewMs !== null && Number.isFinite(skewMs) ? skewMs : null;
    if (next === this.token) return;
    this.token = next;
    this.onChange();
  }

  /** An order service answer's `Date` header, received at `receivedAt` on this terminal's clock. */
  serviceSaid(dateHeader: string | null, receivedAt: number): void {
    const at = dateHeader === null ? Number.NaN : Date.parse(dateHeader);
    if (!Number.isFinite(at)) return; // no header, or one that is no date: no witness
    const skew = receivedAt - at;
    if (this.service !== null && Math.abs(skew - this.service) <= SAME_READING_MS) return;
    this.service = skew;
    this.onChange();
  }

  /** True once the order service has told its time in this run. */
  heardService(): boolean {
    return this.service !== null;
  }

  judgement(): ClockJudgement {
    return judgeClock(this.token, this.service);
  }

  /** The believed difference, for countdowns and the sync bar (null: none believed). */
  skewMs(): number | null {
    return this.judgement().skewMs;
  }

  /** The order service's now, as the earliest and latest of the believed readings. */
  serviceNow(): ServiceNow {
    const j = this.judgement();
    const own = this.now();
    return { earliest: own - j.highMs, latest: own - j.lowMs };
  }

  /** Forgets what the token said (new credentials or environment); the service's answers keep telling. */
  forgetToken(): void {
    this.tokenSaid(null);
  }
}
