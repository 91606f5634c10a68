import { afterEach, describe, expect, it, vi } from 'vitest';
import { warmCollatorWhenIdle } from './collator';

describe('warmCollatorWhenIdle', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('compares two strings once the page is idle, not at once', () => {
    const idle: (() => void)[] = [];
    vi.stubGlobal('requestIdleCallback', (run: () => void) => idle.push(run));
    const compare = vi.spyOn(String.prototype, 'localeCompare');
    try {
      warmCollatorWhenIdle();
      expect(compare).not.toHaveBeenCalled();
      idle.forEach((run) => run());
      expect(compare).toHaveBeenCalledTimes(1);
    } finally {
      compare.mockRestore();
    }
  });

  it('waits a second where the browser has no idle callback', () => {
    vi.useFakeTimers();
    vi.stubGlobal('requestIdleCallback', undefined);
    const compare = vi.spyOn(String.prototype, 'localeCompare');
    try {
      warmCollatorWhenIdle();
      expect(compare).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1_000);
      expect(compare).toHaveBeenCalledTimes(1);
    } finally {
      compare.mockRestore();
    }
  });
});
