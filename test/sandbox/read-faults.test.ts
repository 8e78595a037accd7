/**
 * The sandbox's `changes` and `status` faults, switched through the admin API as a trainer or
 * support person would, and the read log that shows what a client asked for.
 */
import { describe, expect, it } from 'vitest';
import { ADMIN_PREFIX, TRAINING_SERVICE_PROVIDER_ID } from '../../sandbox';
import type { ReadLogEntry } from '../../sandbox/types';
import { buildChangesRequest, buildStatusRequest, CHANGES_PATH, STATUS_PATH } from '../../src/shared/protocol/intake';
import { sandbox, token } from '../support/sandbox-http';

type Box = Awaited<ReturnType<typeof sandbox>>;

async function post(box: Box, path: string, accessToken: string, body: unknown): Promise<{ status: number; text: string; retryAfter: string | null }> {
  const res = await fetch(`${box.url}${path}`, {
    method: 'POST',
    headers: { Authorization: `O-Bearer ${accessToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text(), retryAfter: res.headers.get('retry-after') };
}

const setFaults = async (box: Box, patch: unknown): Promise<number> =>
  (await fetch(`${box.adminUrl}${ADMIN_PREFIX}faults`, { method: 'POST', body: JSON.stringify(patch) })).status;

const page = (box: Box, accessToken: string, nextPage?: string) =>
  post(box, CHANGES_PATH, accessToken, buildChangesRequest({ requestId: 'rq', serviceProviderId: TRAINING_SERVICE_PROVIDER_ID, fromTimestamp: 0, toTimestamp: Date.now() + 1_000, size: 5, ...(nextPage ? { nextPage } : {}) }));

const nextOf = (text: string): string | undefined => (JSON.parse(text) as { response: { nextPage?: string } }).response.nextPage;

describe('sandbox read faults (admin switches)', () => {
  it('changesEveryMs limits every changes page, not only a new poll, with a Retry-After', async () => {
    const box = await sandbox({ orderCount: 12, arrivalEveryMs: 0, changesMinIntervalMs: 0 });
    const t = await token(box);
    expect(await setFaults(box, { changesEveryMs: 1_500 })).toBe(200);
    const first = await page(box, t.access_token);
    expect(first.status).toBe(200);
    const limited = await page(box, t.access_token, nextOf(first.text));
    expect(limited).toMatchObject({ status: 429, retryAfter: '2' });
    const reads = (await (await fetch(`${box.adminUrl}${ADMIN_PREFIX}reads`)).json()) as ReadLogEntry[];
    expect(reads.map((r) => [r.call, r.offset, r.status, r.fault ?? null])).toEqual([
      ['changes', 0, 200, null],
      ['changes', 5, 429, 'changes-every'],
    ]);
  });

  it('changesNextPage repeat answers with the cursor it was given; endless never leaves nextPage out', async () => {
    const box = await sandbox({ orderCount: 3, arrivalEveryMs: 0, changesMinIntervalMs: 0 });
    const t = await token(box);
    expect(await setFaults(box, { changesNextPage: 'repeat' })).toBe(200);
    const cursor = nextOf((await page(box, t.access_token)).text);
    expect(cursor).toBeDefined();
    expect(nextOf((await page(box, t.access_token, cursor)).text)).toBe(cursor);
    expect(await setFaults(box, { changesNextPage: 'endless' })).toBe(200);
    let next = nextOf((await page(box, t.access_token)).text);
    for (let i = 0; i < 5; i++) {
      const answer = await page(box, t.access_token, next);
      expect(answer.status).toBe(200);
      next = nextOf(answer.text);
      expect(next).toBeDefined();
    }
    expect(await setFaults(box, { changesNextPage: 'sometimes' })).toBe(400);
  });

  it('badStatus spoils the next status answers of the orders named, as the platform might', async () => {
    const box = await sandbox({ orderCount: 3, arrivalEveryMs: 0 });
    const t = await token(box);
    const [a, b] = box.orders().map((o) => o.id);
    const status = (id: string) => post(box, STATUS_PATH, t.access_token, buildStatusRequest('rq', id));
    const expected: [string, (r: { status: number; text: string }) => void][] = [
      ['cut', (r) => expect(() => JSON.parse(r.text) as unknown).toThrow()],
      ['otherView', (r) => expect(JSON.parse(r.text)).toMatchObject({ type: 'OTHER_VIEW', response: {} })],
      ['empty', (r) => expect(r).toMatchObject({ status: 204, text: '' })],
      ['notFound', (r) => expect(r).toMatchObject({ status: 404, text: expect.stringContaining('ORDER_NOT_FOUND') })],
      ['refused', (r) => expect(r.status).toBe(400)],
    ];
    for (const [answer, check] of expected) {
      expect(await setFaults(box, { badStatus: { answer, count: 1, orderIds: [a] } })).toBe(200);
      // Another order is answered as usual, and does not use up the fault.
      expect((await status(b!)).status).toBe(200);
      check(await status(a!));
      expect((await status(a!)).status).toBe(200);
    }
    const reads = box.readLog().filter((r) => r.fault !== undefined);
    expect(reads.map((r) => [r.orderId, r.fault])).toEqual(expected.map(([answer]) => [a, answer]));
  });
});
