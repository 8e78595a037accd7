/**
 * Short tones made with WebAudio, so no sound files ship and nothing loads from disk:
 * a bright blip when a tap is taken, a low buzz when it is refused. Browsers only let audio
 * start after a gesture; every call here follows a tap or a scan, so the context can resume.
 * Between sounds the context rests (suspended): a running AudioContext renders silence on an audio
 * thread of its own all the while, about 2 % of a core on an old counter PC for as long as the
 * terminal ran after its first sound (bench/memory.ts, the page idle after a busy hour).
 */

let context: AudioContext | null = null;

/** The context rests this long after the last sound asked for has ended. */
export const REST_AFTER_MS = 1_000;
/** Set when this module asked the context to rest: a suspend still on its way reads 'running'. */
let resting = false;
let restTimer: ReturnType<typeof setTimeout> | null = null;

function audio(): AudioContext | null {
  if (typeof AudioContext === 'undefined') return null;
  context ??= new AudioContext();
  if (resting || context.state === 'suspended') {
    resting = false;
    // After a suspend still on its way, too: the context takes them in the order asked.
    void context.resume().catch(() => undefined);
  }
  return context;
}

/** Lets the context rest REST_AFTER_MS after a sound of `soundMs` asked for now, unless another comes first. */
function restAfter(ctx: AudioContext, soundMs: number): void {
  if (restTimer !== null) clearTimeout(restTimer);
  restTimer = setTimeout(() => {
    restTimer = null;
    resting = true;
    void ctx.suspend().catch(() => undefined);
  }, soundMs + REST_AFTER_MS);
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
  restAfter(ctx, durationMs + 20);
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
