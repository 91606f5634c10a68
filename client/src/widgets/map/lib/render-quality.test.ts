import { afterEach, describe, expect, it, vi } from 'vitest';
import { frameGate, HOLD_POLL_MS, holdFrames, layerReveal, REVEAL_POLL_MS, revealWhenDrawn, warmUpWebGl } from './render-quality';

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

describe('holdFrames', () => {
  it('draws while the source is idle; while it is busy, one frame when it is done, whatever was asked meanwhile', async () => {
    const clock = manualClock();
    const drawn: number[] = [];
    let busy = false;
    const held = holdFrames(
      () => drawn.push(clock.now()),
      () => busy,
      1_500,
      clock,
    );
    held.request();
    held.request();
    await Promise.resolve();
    expect(drawn).toEqual([0]);
    // New data asks for a frame, and its listeners then mark the source's tiles for reloading: decided after.
    held.request();
    busy = true;
    await Promise.resolve();
    expect(drawn).toEqual([0]);
    // Its tiles arrive one after another, each asking for a frame.
    for (let i = 0; i < 4; i++) {
      clock.advance(100);
      held.request();
      await Promise.resolve();
    }
    expect(drawn).toEqual([0]);
    expect(held.holding).toBe(true);
    clock.advance(30);
    busy = false;
    // The next poll sees the source done: one frame for all of it.
    clock.advance(HOLD_POLL_MS);
    expect(drawn).toEqual([0, 450]);
    expect(held.holding).toBe(false);
    clock.advance(1_000);
    expect(drawn).toHaveLength(2);
  });

  it('draws at once when asked to (the map moves or is hidden), and a frame held past the longest wait', async () => {
    const clock = manualClock();
    let frames = 0;
    const held = holdFrames(
      () => frames++,
      () => true,
      1_500,
      clock,
    );
    held.request(true);
    expect(frames).toBe(1);
    // A source that stays busy (a stream of live changes) still gets a frame every 1.5 s.
    held.request();
    await Promise.resolve();
    clock.advance(1_499);
    expect(frames).toBe(1);
    clock.advance(HOLD_POLL_MS);
    expect(frames).toBe(2);
    held.request();
    held.stop();
    await Promise.resolve();
    clock.advance(5_000);
    expect(frames).toBe(2);
  });
});

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

describe('revealWhenDrawn', () => {
  /** Fences the test answers by hand: `signal(i)` says the GPU has drawn up to the i-th fence. */
  function setup(options: { fences?: boolean } = {}) {
    const clock = manualClock();
    const shown: string[] = [];
    const fences: { signalled: boolean; released: boolean }[] = [];
    const reveal = revealWhenDrawn({
      clock,
      waitMs: 10_000,
      show: (how) => shown.push(how),
      fence: () => {
        if (options.fences === false) return null;
        const fence = { signalled: false, released: false };
        fences.push(fence);
        return { drawn: () => fence.signalled, release: () => void (fence.released = true) };
      },
    });
    return { clock, shown, fences, reveal, signal: (i: number) => void (fences[i]!.signalled = true) };
  }

  it('shows the map once a complete frame has been drawn by the GPU, not before', () => {
    const { clock, shown, fences, reveal, signal } = setup();
    // Frames drawn while sources still load make no fence and show nothing.
    reveal.frameDrawn(false);
    clock.advance(1000);
    expect(fences).toHaveLength(0);
    expect(shown).toEqual([]);
    reveal.frameDrawn(true);
    clock.advance(200);
    expect(shown).toEqual([]);
    expect(reveal.hidden).toBe(true);
    signal(0);
    clock.advance(REVEAL_POLL_MS);
    expect(shown).toEqual(['done']);
    expect(reveal.hidden).toBe(false);
    // Once shown, later frames and the fallback change nothing.
    reveal.frameDrawn(true);
    clock.advance(20_000);
    expect(shown).toEqual(['done']);
    expect(fences).toHaveLength(1);
  });

  it('waits for the latest frame: a later frame supersedes an earlier complete one, an incomplete one cancels it', () => {
    const { clock, shown, fences, reveal, signal } = setup();
    reveal.frameDrawn(true);
    reveal.frameDrawn(true); // the full-resolution frame at the first idle
    expect(fences[0]!.released).toBe(true);
    signal(0);
    clock.advance(100);
    expect(shown).toEqual([]);
    // A source started loading again (a layer joined): its frame is incomplete, nothing is shown until the next complete one.
    reveal.frameDrawn(false);
    expect(fences[1]!.released).toBe(true);
    signal(1);
    clock.advance(100);
    expect(shown).toEqual([]);
    reveal.frameDrawn(true);
    signal(2);
    clock.advance(REVEAL_POLL_MS);
    expect(shown).toEqual(['done']);
    expect(fences[2]!.released).toBe(true);
  });

  it('asks for more frames (the next groups of layers) after the GPU has drawn each, then shows the last', () => {
    const clock = manualClock();
    const shown: string[] = [];
    const fences: { signalled: boolean }[] = [];
    let groupsLeft = 2;
    const frames: string[] = [];
    const reveal = revealWhenDrawn({
      clock,
      waitMs: 10_000,
      show: (how) => shown.push(how),
      fence: () => {
        const fence = { signalled: false };
        fences.push(fence);
        return { drawn: () => fence.signalled, release: () => undefined };
      },
      more: () => {
        if (groupsLeft === 0) return false;
        groupsLeft -= 1;
        frames.push('next group asked for');
        return true;
      },
    });
    reveal.frameDrawn(true);
    clock.advance(100);
    // The next group's frame is not asked for while the GPU still draws this one.
    expect(frames).toEqual([]);
    fences[0]!.signalled = true;
    clock.advance(REVEAL_POLL_MS);
    expect(frames).toEqual(['next group asked for']);
    expect(shown).toEqual([]);
    reveal.frameDrawn(true);
    fences[1]!.signalled = true;
    clock.advance(REVEAL_POLL_MS);
    expect(frames).toHaveLength(2);
    reveal.frameDrawn(true);
    fences[2]!.signalled = true;
    clock.advance(REVEAL_POLL_MS);
    expect(shown).toEqual(['done']);
  });

  it('without fences shows the first complete frame at the next poll', () => {
    const { clock, shown, reveal } = setup({ fences: false });
    reveal.frameDrawn(true);
    clock.advance(REVEAL_POLL_MS);
    expect(shown).toEqual(['done']);
  });

  it('shows whatever there is after the wait (a source that never loads, a GPU that never answers)', () => {
    const { clock, shown, fences, reveal } = setup();
    reveal.frameDrawn(true);
    clock.advance(9_999);
    expect(shown).toEqual([]);
    clock.advance(1);
    expect(shown).toEqual(['timed out']);
    expect(fences[0]!.released).toBe(true);
    clock.advance(20_000);
    expect(shown).toEqual(['timed out']);
  });

  it('stop (the map removed) shows nothing and leaves no timer', () => {
    const { clock, shown, reveal, signal } = setup();
    reveal.frameDrawn(true);
    reveal.stop();
    signal(0);
    clock.advance(20_000);
    expect(shown).toEqual([]);
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

  it('a frame is complete while only layers of groups not joined yet are loading (the pins, parsed in the worker)', () => {
    const reveal = layerReveal(stages);
    const busy =
      (...ids: string[]) =>
      () =>
        ids;
    // Not armed (the map's layers not in): only a loaded map counts.
    expect(reveal.complete(false, busy('pins'))).toBe(false);
    expect(reveal.complete(true, busy())).toBe(true);
    reveal.arm();
    // Water's frame while the pins load: complete. While the water itself loads, or an unnamed layer (the first group): not.
    expect(reveal.complete(false, busy('pins'))).toBe(true);
    expect(reveal.complete(false, busy('pins', 'water'))).toBe(false);
    expect(reveal.complete(false, busy('operator-roads'))).toBe(false);
    // Not loaded for a reason no layer names (an image, the style): not complete.
    expect(reveal.complete(false, busy())).toBe(false);
    reveal.advance();
    expect(reveal.complete(false, busy('pins'))).toBe(true);
    expect(reveal.complete(false, busy('borders-county'))).toBe(false);
    // The pins' group joined: its frame waits for them.
    reveal.advance();
    expect(reveal.complete(false, busy('pins'))).toBe(false);
    expect(reveal.complete(true, busy())).toBe(true);
    // Revealed: only a loaded map counts again.
    reveal.advance();
    expect(reveal.complete(false, busy('pins'))).toBe(false);
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

describe('warmUpWebGl', () => {
  afterEach(() => vi.unstubAllGlobals());
  const canvasWith = (getContext: (type: string) => unknown) => ({ width: 300, height: 150, getContext: vi.fn(getContext) });

  it('makes a 1x1 WebGL context and gives it back at once', () => {
    const loseContext = vi.fn();
    const canvas = canvasWith((type) =>
      type === 'webgl2' ? { getExtension: (name: string) => (name === 'WEBGL_lose_context' ? { loseContext } : null) } : null,
    );
    vi.stubGlobal('document', { createElement: () => canvas });
    warmUpWebGl();
    expect(canvas.getContext).toHaveBeenCalledWith('webgl2');
    expect([canvas.width, canvas.height]).toEqual([1, 1]);
    expect(loseContext).toHaveBeenCalledTimes(1);
  });

  it('does nothing, and throws nothing, where the browser has no WebGL or refuses it', () => {
    const none = canvasWith(() => null);
    vi.stubGlobal('document', { createElement: () => none });
    expect(() => warmUpWebGl()).not.toThrow();
    expect(none.getContext.mock.calls.map(([type]) => type)).toEqual(['webgl2', 'webgl']);
    vi.stubGlobal('document', {
      createElement: () =>
        canvasWith(() => {
          throw new Error('WebGL blocked');
        }),
    });
    expect(() => warmUpWebGl()).not.toThrow();
  });
});
