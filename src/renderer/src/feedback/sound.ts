/**
 * Short tones made with WebAudio, so no sound files ship and nothing loads from disk:
 * a bright blip when a tap is taken, a low buzz when it is refused. Browsers only let audio
 * start after a gesture; every call here follows a tap or a scan, so the context can resume.
 */

let context: AudioContext | null = null;

function audio(): AudioContext | null {
  if (typeof AudioContext === 'undefined') return null;
  context ??= new AudioContext();
  if (context.state === 'suspended') void context.resume().catch(() => undefined);
  return context;
}

/** One short tone with a fade in and out. */
export function tone(frequency: number, durationMs: number, type: OscillatorType, volume: number): void {
  const ctx = audio();
  if (!ctx) return;
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  const start = ctx.currentTime;
  const end = start + durationMs / 1000;
  osc.type = type;
  osc.frequency.setValueAtTime(frequency, start);
  // A quick fade in and out avoids the click of a hard edge.
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(volume, start + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, end);
  osc.connect(gain).connect(ctx.destination);
  osc.start(start);
  osc.stop(end + 0.02);
}

/** A tap was taken. */
export function playConfirm(): void {
  tone(1046, 90, 'sine', 0.25);
}

/** A tap was refused: low, rough and longer, unlike the confirm blip. */
export function playRefusal(): void {
  tone(130, 320, 'square', 0.18);
  // Terminals with a vibration motor (tablets) buzz too; desktops ignore it.
  if (typeof navigator !== 'undefined' && typeof navigator.vibrate === 'function') navigator.vibrate(200);
}
