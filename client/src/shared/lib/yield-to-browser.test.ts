import { afterEach, describe, expect, it, vi } from 'vitest';
import { yieldToBrowser, yieldWhenDue } from './yield-to-browser';

/** Settles every promise chain queued so far (microtasks only: no task boundary). */
async function drainMicrotasks() {
  for (let i = 0; i < 50; i++) await Promise.resolve();
}

describe('yieldToBrowser', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('resumes in a later task, not after the current microtasks', async () => {
    let resumed = false;
    const done = yieldToBrowser().then(() => (resumed = true));
    await drainMicrotasks();
    expect(resumed).toBe(false);
    await done;
    expect(resumed).toBe(true);
  });

  it("uses the browser's scheduler.yield() where there is one", async () => {
    const yieldFn = vi.fn(() => Promise.resolve());
    vi.stubGlobal('scheduler', { yield: yieldFn });
    await yieldToBrowser();
    expect(yieldFn).toHaveBeenCalledTimes(1);
  });
});

describe('yieldWhenDue', () => {
  afterEach(() => vi.restoreAllMocks());

  it('yields only once its budget has passed since the last yield, then counts from there', async () => {
    let now = 1_000;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    const yielded = vi.fn(() => Promise.resolve());
    const pause = yieldWhenDue(30, yielded);
    now += 29;
    await pause();
    expect(yielded).not.toHaveBeenCalled();
    now += 1;
    await pause();
    expect(yielded).toHaveBeenCalledTimes(1);
    // A new task began at the yield: 29 ms more is still within it.
    now += 29;
    await pause();
    expect(yielded).toHaveBeenCalledTimes(1);
    now += 31;
    await pause();
    expect(yielded).toHaveBeenCalledTimes(2);
  });
});
