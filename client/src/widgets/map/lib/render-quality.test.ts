import { describe, expect, it } from 'vitest';
import { frameGate, layerReveal } from './render-quality';

/** A clock the test moves by hand: timers run when their time is reached. */
function manualClock() {
  let now = 0;
  let next = 1;
  const timers = new Map<number, { at: number; run: () => void }>();
  return {
    now: () => now,
    setTimeout(run: () => void, ms: number) {
      timers.set(next, { at: now + ms, run });
      return next++;
    },
    clearTimeout(timer: unknown) {
      timers.delete(timer as number);
    },
    advance(ms: number) {
      const until = now + ms;
      for (;;) {
        const due = [...timers].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].run();
      }
      now = until;
    },
  };
}

describe('frameGate', () => {
  it('draws the first frame asked for at once, then at most one per gap, at the gap’s end', () => {
    const clock = manualClock();
    const drawn: number[] = [];
    const gate = frameGate(() => drawn.push(clock.now()), 250, clock);
    gate.request();
    expect(drawn).toEqual([0]);
    // Five tiles arrive 60 ms apart: one frame at 250 ms, one at 500 ms.
    for (let i = 0; i < 5; i++) {
      clock.advance(60);
      gate.request();
    }
    clock.advance(1_000);
    expect(drawn).toEqual([0, 250, 500]);
    // Asked for long after the last frame: drawn at once.
    gate.request();
    expect(drawn).toEqual([0, 250, 500, 1_300]);
  });

  it('open draws a waiting frame now and every later one when asked for; close spaces them again', () => {
    const clock = manualClock();
    let frames = 0;
    const gate = frameGate(() => frames++, 250, clock);
    gate.request();
    clock.advance(10);
    gate.request();
    expect(frames).toBe(1);
    gate.open();
    expect(frames).toBe(2);
    gate.request();
    gate.request();
    expect(frames).toBe(4);
    clock.advance(1_000);
    expect(frames).toBe(4);
    gate.close();
    gate.request();
    gate.request();
    expect(frames).toBe(5);
    clock.advance(250);
    expect(frames).toBe(6);
  });

  it('stop drops the waiting frame', () => {
    const clock = manualClock();
    let frames = 0;
    const gate = frameGate(() => frames++, 250, clock);
    gate.request();
    gate.request();
    gate.stop();
    clock.advance(1_000);
    expect(frames).toBe(1);
  });
});

describe('layerReveal', () => {
  const stages = [(id: string) => id === 'water', (id: string) => id.startsWith('borders'), (id: string) => id === 'pins'];
  const layers = ['operator-roads', 'water', 'borders-state', 'borders-county', 'pins'];
  const shown = (reveal: ReturnType<typeof layerReveal>) => layers.filter((id) => reveal.shows(id));

  it('draws everything until armed, then one more group each time it advances, then everything', () => {
    const reveal = layerReveal(stages);
    expect(shown(reveal)).toEqual(layers);
    expect(reveal.revealing).toBe(false);
    // Advancing before the map's layers are in changes nothing.
    expect(reveal.advance()).toBe(false);
    expect(shown(reveal)).toEqual(layers);

    reveal.arm();
    expect(reveal.revealing).toBe(true);
    // A layer no stage names (an operator's basemap) joins with the first group.
    expect(shown(reveal)).toEqual(['operator-roads', 'water']);
    expect(reveal.advance()).toBe(true);
    expect(shown(reveal)).toEqual(['operator-roads', 'water', 'borders-state', 'borders-county']);
    expect(reveal.advance()).toBe(true);
    expect(shown(reveal)).toEqual(layers);
    // The last group has been drawn: no more frames needed, and it stays done.
    expect(reveal.advance()).toBe(false);
    expect(reveal.revealing).toBe(false);
    reveal.arm();
    expect(reveal.revealing).toBe(false);
    expect(shown(reveal)).toEqual(layers);
  });

  it('finish lets every group in at once', () => {
    const reveal = layerReveal(stages);
    reveal.arm();
    reveal.finish();
    expect(reveal.revealing).toBe(false);
    expect(shown(reveal)).toEqual(layers);
    expect(reveal.advance()).toBe(false);
  });
});
