/**
 * Sounds while `count` things wait for a person: at once when the count grows, then every
 * `repeatMs` until it is zero (the new-order chime, the alarm of an order changed elsewhere).
 */
import { useEffect, useRef } from 'react';

/** Plays `play` as the module comment says; `play` should be stable (a module function). */
export function useRepeatingSound(count: number, repeatMs: number, play: () => void): void {
  const previous = useRef(0);
  useEffect(() => {
    const grew = count > previous.current;
    previous.current = count;
    if (count === 0) return;
    if (grew) play();
    const handle = setInterval(play, repeatMs);
    return () => clearInterval(handle);
  }, [count, repeatMs, play]);
}
