/**
 * A training store of several counters (`npm start -- --counters N`) made ready for screens: each
 * counter's manager PIN set, every counter connected to the hub with one of them taking in
 * orders, and every seeded order on every counter.
 */
import { startTrainingStore, type TrainingStore, type TrainingStoreOptions } from '../../src/web/store';
import { firstIntakePass } from '../support/intake';
import { MANAGER_PIN, until } from './support';

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
