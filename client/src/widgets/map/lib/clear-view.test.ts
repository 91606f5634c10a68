import { describe, expect, it } from 'vitest';
import { clearPadding } from './clear-view';

describe('clearPadding (a county fitted beside the panels over the map)', () => {
  it('keeps a square county clear of the 400 px dashboard and the right-hand panels at 1440 x 900', () => {
    const covers = [
      { left: 16, top: 16, right: 416, bottom: 884 }, // dashboard
      { left: 1152, top: 16, right: 1424, bottom: 290 }, // clock and Active Pin
      { left: 1152, top: 660, right: 1424, bottom: 884 }, // profile
    ];
    expect(clearPadding(1440, 900, covers, { width: 100, height: 100 })).toEqual({
      top: 24,
      right: 1440 - 1152 + 24,
      bottom: 24,
      left: 416 + 24,
    });
  });

  it('uses the part below the dashboard on a phone (390 x 844) for a wide county', () => {
    const covers = [
      { left: 8, top: 8, right: 382, bottom: 396 },
      { left: 200, top: 740, right: 382, bottom: 836 },
    ];
    expect(clearPadding(390, 844, covers, { width: 200, height: 100 })).toEqual({
      top: 396 + 24,
      right: 24,
      bottom: 844 - 740 + 24,
      left: 24,
    });
  });

  it('falls back to the whole view when nothing is covered or nothing useful is left', () => {
    expect(clearPadding(800, 600, [], { width: 10, height: 10 })).toEqual({ top: 24, right: 24, bottom: 24, left: 24 });
    expect(clearPadding(800, 600, [{ left: 0, top: 0, right: 800, bottom: 600 }], { width: 10, height: 10 })).toEqual({
      top: 24,
      right: 24,
      bottom: 24,
      left: 24,
    });
  });
});
