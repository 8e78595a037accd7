/**
 * zustand's `create` for the first screen drawn on the host (aliased for 'zustand' in
 * build/first-screen.config.mts only). zustand's own hook gives React the store's *initial* state
 * when drawing on a server, so every screen would be drawn empty; this one gives the state the
 * host has just put in. The browser's app uses zustand as it is.
 */
import { useCallback, useSyncExternalStore } from 'react';
import { createStore, type StateCreator, type StoreApi } from 'zustand/vanilla';

type BoundStore<T> = StoreApi<T> & (<U = T>(selector?: (state: T) => U) => U);

function bind<T>(init: StateCreator<T, [], []>): BoundStore<T> {
  const api = createStore(init);
  const useBound = <U,>(selector: (state: T) => U = (s) => s as unknown as U): U => {
    const slice = useCallback(() => selector(api.getState()), [selector]);
    return useSyncExternalStore(api.subscribe, slice, slice);
  };
  return Object.assign(useBound, api) as BoundStore<T>;
}

export function create<T>(): (init: StateCreator<T, [], []>) => BoundStore<T>;
export function create<T>(init: StateCreator<T, [], []>): BoundStore<T>;
export function create<T>(init?: StateCreator<T, [], []>): BoundStore<T> | ((init: StateCreator<T, [], []>) => BoundStore<T>) {
  return init ? bind(init) : bind;
}
