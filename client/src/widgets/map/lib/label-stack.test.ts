import { describe, expect, it } from 'vitest';
import { STACK_LINE_PX, stackLabels, withoutSharedWords, type StackPin } from './label-stack';

/** Seven pins fanned on a circle of 56 px, as a site of seven devices is at zoom 15. */
const fan = (cx: number, cy: number, n = 7): StackPin[] =>
  Array.from({ length: n }, (_, at) => {
    const angle = (2 * Math.PI * at) / n - Math.PI / 2;
    return {
      serial: `S${at + 1}`,
      label: `Beach entrance ${at + 1}`,
      x: cx + 56 * Math.cos(angle),
      y: cy + 56 * Math.sin(angle),
    };
  });

const apart = (a: { left: number; right: number; top: number; bottom: number }, b: typeof a) =>
  a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;

describe('stackLabels (every device of a fanned site labelled)', () => {
  it('gives each of seven fanned pins a line beside the fan, none overlapping a pin or another line', () => {
    const pins = fan(400, 300);
    const stack = stackLabels(pins, { width: 1440, height: 900 }, 160);
    expect(stack.side).toBe('right');
    expect(stack.lines.map((l) => l.serial).sort()).toEqual(pins.map((p) => p.serial).sort());
    const boxes = stack.lines.map((l) => ({
      left: stack.left,
      right: stack.left + stack.width,
      top: l.top,
      bottom: l.top + STACK_LINE_PX,
    }));
    for (const [i, a] of boxes.entries()) for (const b of boxes.slice(i + 1)) expect(apart(a, b)).toBe(true);
    for (const pin of pins)
      for (const box of boxes)
        expect(apart(box, { left: pin.x - 12, right: pin.x + 12, top: pin.y - 32, bottom: pin.y })).toBe(true);
    // Lines in the pins' top-to-bottom order: leaders do not cross.
    const ys = stack.lines.map((l) => l.y);
    expect(ys).toEqual([...ys].sort((a, b) => a - b));
  });

  it('goes to the left near the right edge and stays inside the canvas', () => {
    const stack = stackLabels(fan(360, 20), { width: 390, height: 844 }, 160);
    expect(stack.side).toBe('left');
    expect(stack.left).toBeGreaterThanOrEqual(0);
    expect(stack.top).toBeGreaterThanOrEqual(0);
  });

  it('narrows the labels to the roomier side when neither side holds them whole (a 390 px phone)', () => {
    const stack = stackLabels(fan(195, 400, 8), { width: 390, height: 844 }, 160);
    expect(stack.left).toBeGreaterThanOrEqual(4);
    expect(stack.left + stack.width).toBeLessThanOrEqual(386);
    expect(stack.width).toBeLessThan(160);
    for (const pin of fan(195, 400, 8))
      expect(stack.side === 'right' ? stack.left >= pin.x + 12 : stack.left + stack.width <= pin.x - 12).toBe(true);
  });
});

describe('withoutSharedWords', () => {
  it('drops the words every label starts with, never a whole label', () => {
    expect(withoutSharedWords(['Audubon Park Main Entrance', 'Audubon Park Playground'])).toEqual([
      'Main Entrance',
      'Playground',
    ]);
    expect(withoutSharedWords(['Pier 1', 'Pier 2'])).toEqual(['Pier 1', 'Pier 2']);
    expect(withoutSharedWords(['Beach', 'Beach Hut'])).toEqual(['Beach', 'Beach Hut']);
    expect(withoutSharedWords(['North gate', 'South gate'])).toEqual(['North gate', 'South gate']);
    expect(withoutSharedWords(['Alone'])).toEqual(['Alone']);
  });
});
