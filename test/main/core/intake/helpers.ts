/** Intake against the real sandbox over HTTP: real token manager and client, a real SQLite file. */
import { randomUUID } from 'node:crypto';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../../../sandbox';
import type { OrderServiceClient } from '../../../../src/main/core/api';
import { MemoryVault } from '../../../../src/main/core/auth';
import { openServiceParts } from '../../../../src/main/core/engine';
import { openStore, type Store } from '../../../../src/main/core/db';
import { createIntake, type Intake, type IntakeOptions, type IntakeReader, storeForIntake } from '../../../../src/main/core/intake';
import { silentLogger } from '../../../../src/main/core/log';
import { systemTimers as nodeTimers } from '../../../../src/main/core/time';
import type { IntakeStatus } from '../../../../src/shared/ipc';
import { Cleanup, tempDir } from '../../../support/engine';
import { TRAINING } from '../../../support/credentials';
import type { manualTimers } from '../../../support/clock';
import { until } from '../../../support/until';

export { Cleanup };

export const PROVIDER = 'SP-BLR-0142';

/** A sandbox without timed arrivals or poll limit unless asked. */
export async function intakeSandbox(cleanup: Cleanup, options: SandboxOptions = {}): Promise<Sandbox> {
  const s = await startSandbox({ orderCount: 12, arrivalEveryMs: 0, changesMinIntervalMs: 0, ...options });
  cleanup.add(() => s.close());
  return s;
}

export interface Terminal {
  readonly intake: Intake;
  readonly store: Store;
  readonly client: OrderServiceClient;
  readonly stored: string[];
  readonly statuses: IntakeStatus[];
  readonly reachability: boolean[];
  /** Closes intake, token manager and data file (a "restart" opens another Terminal on the same folder). */
  close(): Promise<void>;
}

/** An intake on `dataDir` reading from the sandbox. */
export function terminal(
  cleanup: Cleanup,
  box: Sandbox,
  dataDir: string,
  options: Partial<IntakeOptions> & { wrapReader?: (r: IntakeReader) => IntakeReader } = {},
): Terminal {
  // The token manager on the terminal's clock too: it measures how far that is from the service's.
  // Wired as the app wires them: the token's issued_at and the service's Date are the clock's witnesses.
  const parts = openServiceParts({
    authUrl: box.url,
    baseUrl: box.url,
    vault: new MemoryVault({ credentials: TRAINING }),
    log: silentLogger,
    proactiveRefresh: false,
    ...(options.now ? { now: options.now } : {}),
  });
  const { tokens, client } = parts;
  const opened = openStore({ dataDir, now: Date.now });
  if (!opened.ok) throw new Error(opened.problem.message);
  const store = opened.value;
  const stored: string[] = [];
  const statuses: IntakeStatus[] = [];
  const reachability: boolean[] = [];
  const { wrapReader, ...rest } = options;
  const intake = createIntake({
    reader: wrapReader ? wrapReader(client) : client,
    store: storeForIntake(store),
    serviceProviderId: () => PROVIDER,
    settingsKey: () => `${box.url}|${PROVIDER}`,
    now: Date.now,
    serviceNow: () => parts.serviceNow(),
    random: Math.random,
    timers: nodeTimers,
    newRequestId: randomUUID,
    intervalMs: () => 30_000,
    outboxSending: () => 0,
    log: silentLogger,
    onStored: (ids) => stored.push(...ids),
    onStatus: (s) => statuses.push(s),
    onReachable: (r) => reachability.push(r),
    ...rest,
  });
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await intake.stop();
    await tokens.close();
    store.close();
  };
  cleanup.add(close);
  return { intake, store, client, stored, statuses, reachability, close };
}

/** A temp data folder removed at cleanup. */
export const dataDir = (cleanup: Cleanup): string => tempDir(cleanup, 'packdesk-intake-');

export type ManualTimers = ReturnType<typeof manualTimers>;

/**
 * The delay of the one intake timer armed on manual timers, once a pass (or a stopped one) has
 * ended and the next is due: the intake arms its timer only then.
 */
export const nextArmed = (m: ManualTimers, what = 'the next pass armed'): Promise<number> =>
  until(what, () => (m.pending().length === 1 ? m.pending()[0]! : false), 10_000);

/**
 * Runs `passes` passes on the intake's manual timeline, each when its timer is due; answers the
 * delay armed after each of them (how long the intake waits before the next).
 */
export async function timedPasses(m: ManualTimers, passes: number): Promise<number[]> {
  m.advance(await nextArmed(m, 'the first pass armed'));
  const waits: number[] = [];
  for (let i = 0; i < passes; i++) {
    const wait = await nextArmed(m, `the pass after pass ${i + 1} armed`);
    waits.push(wait);
    if (i < passes - 1) m.advance(wait);
  }
  return waits;
}
