/**
 * A language's `t` that remembers what it said. Every word is bundled and never changes while the
 * app runs, so the same key with the same values always gives the same text; i18next works each
 * one out again (namespace split, lookup, plural rule, interpolation), about 20 µs a call, and a
 * queue row asks for a dozen. Flinging through the queue in Hindi mounted three rows a frame and
 * spent most of each frame there.
 */
import type { TFunction } from 'i18next';

/** Texts remembered per language, at most; beyond that the memory starts again (a row has a dozen). */
const LIMIT = 5_000;

type Plain = string | number | boolean | null | undefined;

/** The cache key of a call whose values are all plain (no objects, no arrays), else null. */
function keyOf(key: unknown, options: unknown): string | null {
  if (typeof key !== 'string') return null;
  if (options === undefined) return key;
  if (typeof options !== 'object' || options === null) return null;
  let out = key;
  for (const [name, value] of Object.entries(options as Record<string, unknown>)) {
    if (value !== null && typeof value === 'object') return null;
    out += `\u0000${name}\u0001${typeof value}\u0001${String(value as Plain)}`;
  }
  return out;
}

/** `t` (a fixed language's) with its plain calls remembered; any other call goes straight through. */
export function memoT(t: TFunction): TFunction {
  const said = new Map<string, string>();
  // TFunction's overloads cannot be written as one signature: call it untyped, hand it back typed.
  const say = t as unknown as (...args: unknown[]) => unknown;
  const memo = (key: unknown, options?: unknown, ...rest: unknown[]): unknown => {
    const k = rest.length === 0 ? keyOf(key, options) : null;
    if (k === null) return say(key, options, ...rest);
    const known = said.get(k);
    if (known !== undefined) return known;
    const text = say(key, options);
    if (typeof text !== 'string') return text;
    if (said.size >= LIMIT) said.clear();
    said.set(k, text);
    return text;
  };
  return memo as unknown as TFunction;
}
