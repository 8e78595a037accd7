/**
 * The new-order alert: a rising three-note chime made with WebAudio (no sound file ships), louder
 * and longer than the tap blips so it carries across a shop floor.
 */
import { tone } from './sound';

/** Plays the chime once at `volume` (0.2 … 1 of full loudness). */
export function playNewOrderAlert(volume: number): void {
  const level = 0.35 * Math.min(1, Math.max(0.2, volume));
  tone(784, 160, 'triangle', level);
  setTimeout(() => tone(988, 160, 'triangle', level), 180);
  setTimeout(() => tone(1319, 260, 'triangle', level), 360);
}
