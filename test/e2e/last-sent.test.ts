/**
 * The sync bar's "Last sent" follows the service: a packer who just accepted an order sees when it
 * got through, not "Nothing sent yet" for the next ten seconds (the status was published before the
 * engine noted the send, and went out again only with the next unrelated change).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appliedTo, openTerminal, orderPool, shot, tapStep, typeOrderId, until, type Terminal } from './support';

describe('last sent', () => {
  let t: Terminal;
  beforeAll(async () => {
    t = await openTerminal();
  });
  afterAll(async () => t?.close());

  it('says a tap was sent as soon as the service has it', async () => {
    const order = orderPool(t.sandbox)();
    await typeOrderId(t.page, order.id);
    const last = t.page.getByTestId('sync-last');
    expect(await last.textContent()).toBe('Nothing sent yet');
    await tapStep(t.page, 'ACCEPT');
    await until(`${order.id} accepted at the service`, () => appliedTo(t.sandbox, order.id).length >= 1);
    // A second is plenty for the event to cross the harness's socket; the bug took ten.
    await last.filter({ hasText: /^Last sent / }).waitFor({ timeout: 2_000 });
    await shot(t.page, 'last-sent-after-accept');
    expect(t.problems).toEqual([]);
  }, 60_000);
});
