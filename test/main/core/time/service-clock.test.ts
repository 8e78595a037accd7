/** How the clock's two witnesses are judged: pure, on made-up readings. */
import { describe, expect, it } from 'vitest';
import { judgeClock, ServiceClock } from '../../../../src/main/core/time/service-clock';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('the clock of the order service, as two witnesses tell it', () => {
  it('believes the token alone within a day only, the service alone at any size, and two that agree at any size', () => {
    expect(judgeClock(3 * DAY, null).skewMs).toBeNull();
    expect(judgeClock(5.5 * HOUR, null).skewMs).toBe(5.5 * HOUR);
    expect(judgeClock(null, 3 * DAY).skewMs).toBe(3 * DAY);
    expect(judgeClock(3 * DAY + 400, 3 * DAY)).toEqual({ skewMs: 3 * DAY + 400, disagreementMs: null, lowMs: 3 * DAY, highMs: 3 * DAY + 400 });
  });

  it('says when they disagree, follows the service for countdowns, and spans both for windows unless the token is more than a day off', () => {
    expect(judgeClock(3 * HOUR, 0)).toEqual({ skewMs: 0, disagreementMs: 3 * HOUR, lowMs: 0, highMs: 3 * HOUR });
    // An issued_at of 0: said, not read.
    expect(judgeClock(56 * 365 * DAY, 0)).toEqual({ skewMs: 0, disagreementMs: 56 * 365 * DAY, lowMs: 0, highMs: 0 });
  });

  it("reads the service's Date header, ignores one that is no date, and does not stir for a second's jitter", () => {
    let changes = 0;
    const now = Date.UTC(2026, 10, 25, 12, 0, 0);
    const clock = new ServiceClock(() => now, () => changes++);
    clock.serviceSaid('not a date', now);
    clock.serviceSaid(null, now);
    expect(clock.heardService()).toBe(false);
    clock.serviceSaid(new Date(now - 72 * HOUR).toUTCString(), now);
    expect(clock.skewMs()).toBe(72 * HOUR);
    expect(clock.serviceNow()).toEqual({ earliest: now - 72 * HOUR, latest: now - 72 * HOUR });
    clock.serviceSaid(new Date(now - 72 * HOUR - 1_000).toUTCString(), now);
    expect(changes).toBe(1);
  });
});
