/**
 * Values built the first time they are asked for, and kept. The IPC contract's zod schemas are
 * built this way: building them all when their modules load cost the engine's start (and every
 * page's first answer) tens of milliseconds, while a start or a screen needs only a few. A schema
 * built on first use is still the one schema every side validates with; only when it is built
 * changes. Memoised functions rather than `z.lazy`, so a schema composed from another (`.extend`,
 * `.omit`, `.shape`) is the very same zod schema, with the same error paths.
 */

/** `build`'s value, built on the first call and the same value on every later one. */
export function builtOnce<T>(build: () => T): () => T {
  let built: { readonly value: T } | null = null;
  return () => {
    built ??= { value: build() };
    return built.value;
  };
}


/**
 * An object whose every property is built by its function the first time it is read, and kept
 * (the contract's command and event tables: a page's first screen reads two or three of them).
 */
export function builtOnFirstUse<T extends Record<string, () => unknown>>(builders: T): { readonly [K in keyof T]: ReturnType<T[K]> } {
  const built = {} as { [K in keyof T]: ReturnType<T[K]> };
  for (const key of Object.keys(builders) as (keyof T)[]) {
    Object.defineProperty(built, key, {
      enumerable: true,
      configurable: true,
      get() {
        const value = builders[key]!() as ReturnType<T[typeof key]>;
        Object.defineProperty(built, key, { value, enumerable: true, writable: false, configurable: false });
        return value;
      },
    });
  }
  return built;
}
