/**
 * The status bar's one sentence: of everything wrong at once, the one that matters most is said.
 * A table of inputs -> what the status says, over the pure function the engine calls (status.ts);
 * the engine's own tests show the same sentences arriving from a real data file and service.
 */
import { describe, expect, it } from 'vitest';
import { backlogDueIn, damagedStatus, type StatusInputs, syncStatus } from '../../../../src/main/core/engine/status';

const MIN = 60_000;
const T = Date.UTC(2026, 10, 2, 9, 0);

/** Nothing wrong: online, nothing waiting, credentials fine, clocks right. */
const calm: StatusInputs = {
  counts: { waiting: 0, failed: 0, mayBeApplied: 0, oldestWaitingAt: null },
  now: T,
  backlogThresholdMs: 15 * MIN,
  connectivity: 'online',
  lastSuccessAt: T - MIN,
  credentialsKnown: 'ok',
  credentialsSync: 'ok',
  tokenProblem: null,
  serviceCertificate: null,
  clockSkewMs: null,
  clockDisagreementMs: null,
  damage: null,
  storeNotice: null,
  storeSalvage: null,
  startStorage: null,
  syncProblem: null,
  syncStorage: false,
  lockNotice: null,
};

/**
 * The list in its order of priority: each row's problem, and the code said for it. Row k is checked
 * with every problem from k down switched on, so it must win over all those below it.
 */
const priorities: { code: string; on: Partial<StatusInputs> }[] = [
  { code: 'STORE_DAMAGED', on: { damage: 'page 7 unreadable' } },
  { code: 'STORE_REPLACED', on: { storeNotice: 'Damaged data file replaced.', storeSalvage: { recovered: 3, lost: '?' } } },
  { code: 'STORAGE', on: { startStorage: { kind: 'storage', code: 'STORE_FULL', message: 'The disk is full' } } },
  { code: 'SYNC_PROBLEM', on: { syncProblem: 'Sending stopped: the data file is read-only' } },
  { code: 'LOCK_HELD', on: { lockNotice: 'Another Packdesk (process 42) is sending this terminal’s queue' } },
  { code: 'CERTIFICATE', on: { tokenProblem: { kind: 'transient', code: 'CERTIFICATE_UNTRUSTED', message: 'The token server’s certificate is not trusted' } } },
  { code: 'SERVICE_CERTIFICATE', on: { serviceCertificate: 'The order service’s certificate is not trusted' } },
  { code: 'TOKEN_SERVER', on: { tokenProblem: { kind: 'transient', code: 'TOKEN_SERVER_FAULT', message: 'The token server failed' } } },
  { code: 'CREDENTIALS_MISSING', on: { credentialsKnown: 'missing' } },
  { code: 'CREDENTIALS_REJECTED', on: { credentialsSync: 'rejected' } },
  { code: 'OFFLINE', on: { connectivity: 'offline' } },
  { code: 'TO_CHECK', on: { counts: { waiting: 2, failed: 3, mayBeApplied: 1, oldestWaitingAt: T - 20 * MIN } } },
  { code: 'REFUSED', on: { counts: { waiting: 2, failed: 3, mayBeApplied: 0, oldestWaitingAt: T - 20 * MIN } } },
  { code: 'BACKLOG', on: { counts: { waiting: 2, failed: 0, mayBeApplied: 0, oldestWaitingAt: T - 20 * MIN } } },
  { code: 'CLOCKS_DISAGREE', on: { clockDisagreementMs: 5 * MIN } },
  { code: 'CLOCK_AHEAD', on: { clockSkewMs: 3 * MIN } },
];

/** The inputs with row `k` and every row below it switched on (a later row's counts give way to an earlier row's). */
function from(k: number): StatusInputs {
  let inputs = calm;
  for (const row of priorities.slice(k).reverse()) inputs = { ...inputs, ...row.on };
  return inputs;
}

describe('the sync status', () => {
  it.each(priorities.map((row, k) => ({ code: row.code, k })))('says $code over everything below it', ({ code, k }) => {
    const status = syncStatus(from(k));
    expect(status.notice?.code).toBe(code);
    expect(status.message).toEqual(expect.any(String));
  });

  it('says nothing when nothing is wrong', () => {
    const status = syncStatus(calm);
    expect(status).toEqual({
      connectivity: 'online',
      waiting: 0,
      failed: 0,
      toCheck: 0,
      oldestWaitingAt: null,
      lastSuccessAt: T - MIN,
      credentials: 'ok',
      backlogAlarm: false,
      clockSkewMs: null,
      message: null,
      notice: null,
    });
  });

  const rows: { name: string; on: Partial<StatusInputs>; want: Partial<ReturnType<typeof syncStatus>> }[] = [
    {
      name: 'the store-replaced notice carries what its taps came to',
      on: { storeNotice: 'Damaged data file replaced.', storeSalvage: { recovered: 3, lost: 1 } },
      want: { message: 'Damaged data file replaced.', notice: { code: 'STORE_REPLACED', values: { recovered: 3, lost: 1 } } },
    },
    {
      name: 'a full disk met by the sync engine is said as storage, not as a sync problem',
      on: { syncProblem: 'The disk is full', syncStorage: true },
      want: { message: 'The disk is full', notice: { code: 'STORAGE' } },
    },
    {
      name: 'an unusable token is the token server’s fault, said with the taps kept',
      on: { tokenProblem: { kind: 'transient', code: 'TOKEN_UNUSABLE', message: 'The token server gave an unusable token' }, counts: { ...calm.counts, waiting: 4 } },
      want: { message: 'The token server gave an unusable token. 4 tap(s) are kept', notice: { code: 'TOKEN_SERVER', values: { count: 4 } } },
    },
    {
      name: 'the token manager’s rejection counts as rejected credentials too',
      on: { credentialsKnown: 'rejected' },
      want: { credentials: 'rejected', notice: { code: 'CREDENTIALS_REJECTED', values: { count: 0 } } },
    },
    {
      name: 'offline with nothing waiting says what a tap made now does',
      on: { connectivity: 'offline' },
      want: { message: 'No connection to the order service. Taps made meanwhile are kept and will be sent when it is back' },
    },
    {
      name: 'taps that may be applied are not counted as refused',
      on: { counts: { waiting: 0, failed: 3, mayBeApplied: 1, oldestWaitingAt: null } },
      want: { failed: 2, toCheck: 1, notice: { code: 'TO_CHECK', values: { count: 1 } } },
    },
    {
      name: 'the backlog alarm rises exactly at the threshold, and names it',
      on: { counts: { waiting: 1, failed: 0, mayBeApplied: 0, oldestWaitingAt: T - 15 * MIN } },
      want: { backlogAlarm: true, message: 'A tap has waited more than 15 minutes to be sent: check the connection', notice: { code: 'BACKLOG', values: { thresholdMs: 15 * MIN } } },
    },
    {
      name: 'a tap younger than the threshold raises nothing',
      on: { counts: { waiting: 1, failed: 0, mayBeApplied: 0, oldestWaitingAt: T - 15 * MIN + 1 } },
      want: { backlogAlarm: false, message: null, notice: null },
    },
    {
      name: 'a clock behind by more than two minutes, in whole seconds',
      on: { clockSkewMs: -(2 * MIN + 30_400) },
      want: { clockSkewMs: -(2 * MIN + 30_000), notice: { code: 'CLOCK_BEHIND', values: { offsetMs: 2 * MIN + 30_000 } } },
    },
    {
      name: 'a clock off by two minutes or less is carried but not said',
      on: { clockSkewMs: 2 * MIN },
      want: { clockSkewMs: 2 * MIN, message: null, notice: null },
    },
    {
      name: 'the clocks’ disagreement is said in whole minutes',
      on: { clockDisagreementMs: -(7 * MIN + 20_000) },
      want: { notice: { code: 'CLOCKS_DISAGREE', values: { offsetMs: 7 * MIN } } },
    },
    {
      name: 'a short backlog threshold is said in seconds, never "0 minutes"',
      on: { backlogThresholdMs: 45_000, counts: { waiting: 1, failed: 0, mayBeApplied: 0, oldestWaitingAt: T - MIN } },
      want: { message: 'A tap has waited more than 45 seconds to be sent: check the connection' },
    },
  ];

  it.each(rows)('$name', ({ on, want }) => {
    expect(syncStatus({ ...calm, ...on })).toMatchObject(want);
  });

  it('says a damaged file whose counts cannot be read, with what the sync engine knows', () => {
    expect(damagedStatus({ connectivity: 'offline', lastSuccessAt: T, damage: 'bad page' })).toMatchObject({
      connectivity: 'offline',
      lastSuccessAt: T,
      waiting: 0,
      message: 'The data file is damaged (bad page). Packdesk sets it aside and starts a new one with the taps it can read',
      notice: { code: 'STORE_DAMAGED' },
    });
  });

  it('re-reads the status when the oldest waiting tap reaches the threshold', () => {
    expect(backlogDueIn({ oldestWaitingAt: null }, T, 15 * MIN)).toBeNull();
    expect(backlogDueIn({ oldestWaitingAt: T - 5 * MIN }, T, 15 * MIN)).toBe(10 * MIN);
    expect(backlogDueIn({ oldestWaitingAt: T - 20 * MIN }, T, 15 * MIN)).toBe(0);
  });
});
