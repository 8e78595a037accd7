/**
 * A training store of several counters (`npm start -- --counters N`) made ready for screens: each
 * counter's manager PIN set, every counter connected to the hub with one of them taking in
 * orders, and every seeded order on every counter.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startTrainingStore, type TrainingStore, type TrainingStoreOptions } from '../../src/web/store';
import { connectChromium } from '../support/shared-chromium';
import { firstIntakePass } from '../support/intake';
import { MANAGER_PIN, openCounterPage, until } from './support';

/** Starts the store and resolves once every counter shows every seeded order. */
export async function readyTrainingStore(options: TrainingStoreOptions): Promise<TrainingStore> {
  const store = await startTrainingStore(options);
  try {
    for (const c of store.counters) {
      const pin = await c.host.handle('pin.set', { newPin: MANAGER_PIN });
      if (!pin.ok) throw new Error(pin.problem.message);
    }
    const holding = (): TrainingStore['counters'][number] | undefined => store.counters.find((c) => c.host.hub.status().intakeHolder?.counterId === c.host.hub.status().counterId);
    await until('every counter connected, one of them polling', () => store.counters.every((c) => c.host.hub.status().mode === 'connected') && holding() !== undefined, 30_000);
    await firstIntakePass(holding()!.host);
    const expected = store.sandbox.orders().length;
    await until('every order on every counter', () => store.counters.every((c) => (c.host.engine()?.listOrders().length ?? 0) >= expected), 60_000);
    return store;
  } catch (error) {
    await store.close();
    throw error;
  }
}

/** What a store's screen tests want of every counter: no undo window, quick retries and polls. */
export const QUICK_COUNTERS = { settingsOverride: { undoWindowMs: 0 }, engineOptions: { backoff: { baseMs: 200, capMs: 1_000 }, pollMs: 500 } } as const;

/** A two-counter training store on screens: its data folder, one Chromium, a page at each counter. */
export interface TwoCountersOnScreens {
  readonly store: TrainingStore;
  readonly browser: Browser;
  readonly one: Page;
  readonly two: Page;
  /** Stops the browser and the store and removes the data folder. */
  close(): Promise<void>;
}

/**
 * Starts a two-counter training store in a data folder of its own (`packdesk-e2e-<name>-`), signs
 * `packer` in at Counter 1 when given (by a badge made for them), and opens each counter at 1024 px.
 */
export async function twoCountersOnScreens(options: {
  readonly name: string;
  readonly sandboxOptions: TrainingStoreOptions['sandboxOptions'];
  readonly host?: TrainingStoreOptions['host'];
  readonly packer?: string;
}): Promise<TwoCountersOnScreens> {
  const dataDir = mkdtempSync(join(tmpdir(), `packdesk-e2e-${options.name}-`));
  let store: TrainingStore | undefined;
  let browser: Browser | undefined;
  const close = async (): Promise<void> => {
    await browser?.close().catch(() => undefined);
    await store?.close().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    store = await readyTrainingStore({ counters: 2, dataDir, sandboxOptions: options.sandboxOptions, host: options.host ?? QUICK_COUNTERS });
    if (options.packer !== undefined) {
      const engine = store.counters[0]!.host.engine()!;
      const added = await engine.staff.add(options.packer);
      if (!added.ok) throw new Error(added.problem.message);
      const signed = engine.staff.signInByBadge(added.value.badge);
      if (!signed.ok) throw new Error(signed.problem.message);
    }
    browser = await connectChromium();
    const one = await openCounterPage(browser, store.counters[0]!.url, 1024);
    const two = await openCounterPage(browser, store.counters[1]!.url, 1024);
    return { store, browser, one, two, close };
  } catch (error) {
    await close();
    throw error;
  }
}
