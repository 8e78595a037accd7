/**
 * The tones' AudioContext rests between sounds: a running context renders silence on its own
 * thread, about 2 % of an old counter PC's core for as long as the terminal ran after its first
 * chime (bench/memory.ts). Node has no WebAudio, so a stand-in context records what is asked of it,
 * with the states a browser's goes through.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

class FakeContext {
  static made: FakeContext[] = [];
  state: 'running' | 'suspended' = 'running';
  currentTime = 0;
  readonly asked: string[] = [];
  readonly destination = {};
  constructor() {
    FakeContext.made.push(this);
  }
  // A browser's context takes these on its own thread, in the order asked, and reads as before
  // until each is done (a few milliseconds here).
  suspend(): Promise<void> {
    this.asked.push('suspend');
    return this.later('suspended');
  }
  resume(): Promise<void> {
    this.asked.push('resume');
    return this.later('running');
  }
  private later(state: 'running' | 'suspended'): Promise<void> {
    return new Promise((done) =>
      setTimeout(() => {
        this.state = state;
        done();
      }, 5),
    );
  }
  createOscillator() {
    return {
      type: 'sine',
      frequency: { setValueAtTime: () => undefined },
      connect: (next: unknown) => next,
      start: () => this.asked.push('start'),
      stop: () => undefined,
    };
  }
  createGain() {
    return { gain: { setValueAtTime: () => undefined, exponentialRampToValueAtTime: () => undefined }, connect: (next: unknown) => next };
  }
}

describe('the tones', () => {
  beforeEach(() => {
    vi.resetModules();
    vi.useFakeTimers();
    FakeContext.made = [];
    vi.stubGlobal('AudioContext', FakeContext);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('let their context rest a second after the last sound, and wake it for the next', async () => {
    const { playConfirm, REST_AFTER_MS } = await import('../../src/renderer/src/feedback/sound');
    const { playNewOrderAlert } = await import('../../src/renderer/src/feedback/alert');
    playConfirm();
    const ctx = FakeContext.made[0]!;
    expect(ctx.asked).toEqual(['start']);
    // Just before the blip (90 ms) and the rest after it: still running.
    await vi.advanceTimersByTimeAsync(90 + REST_AFTER_MS);
    expect(ctx.asked).toEqual(['start']);
    await vi.advanceTimersByTimeAsync(40);
    expect(ctx.asked).toEqual(['start', 'suspend']);
    expect(ctx.state).toBe('suspended');
    // Idle from here: nothing more is asked of it, however long.
    await vi.advanceTimersByTimeAsync(60 * 60_000);
    expect(ctx.asked).toEqual(['start', 'suspend']);

    // The chime's three notes: woken once, rested once, a second after the last note.
    playNewOrderAlert(1);
    await vi.advanceTimersByTimeAsync(360 + 260 + 20 + REST_AFTER_MS + 10);
    expect(ctx.asked).toEqual(['start', 'suspend', 'resume', 'start', 'start', 'start', 'suspend']);
    expect(FakeContext.made).toHaveLength(1);
  });

  it('wake the context for a sound asked while its rest is still on its way', async () => {
    const { playConfirm, playRefusal, REST_AFTER_MS } = await import('../../src/renderer/src/feedback/sound');
    playConfirm();
    const ctx = FakeContext.made[0]!;
    await vi.advanceTimersByTimeAsync(110 + REST_AFTER_MS);
    // The suspend is asked and the context still says 'running' when the refusal comes.
    expect(ctx.asked.at(-1)).toBe('suspend');
    playRefusal();
    expect(ctx.asked.slice(-2)).toEqual(['resume', 'start']);
    expect(ctx.state).toBe('running');
    await vi.advanceTimersByTimeAsync(20);
    expect(ctx.state).toBe('running');
  });
});
