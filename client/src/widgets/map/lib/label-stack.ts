/**
 * A site's fanned pins at street zoom (issue 42): their labels under each pin covered the neighbouring
 * pins and each other, so 1 of 7 got one. Here they are stacked in a column beside the fan, one line per
 * device (the lines in the pins' top-to-bottom order, so their leaders do not cross), each line joined to
 * its pin by a leader. Pure: canvas px in, layout out (offline/labels-layer.tsx draws it).
 */
export type StackPin = { serial: string; label: string; x: number; y: number };
/** `text` is what the line shows: the label without the words every label of the site starts with. */
export type StackLine = StackPin & { top: number; text: string };
export type LabelStack = {
  /** The fan's centre (canvas px); everything below is relative to the canvas. */
  cx: number;
  cy: number;
  side: 'right' | 'left';
  left: number;
  top: number;
  width: number;
  height: number;
  lines: StackLine[];
};

export const STACK_LINE_PX = 18;
const STACK_GAP_PX = 2;
/** Between the fan's outermost pin and the stack: room for the leaders. */
const STACK_CLEARANCE_PX = 22;
const PIN_HALF_WIDTH_PX = 12;
const PIN_HEIGHT_PX = 32;
const EDGE_PX = 4;
const MIN_WIDTH_PX = 60;

/** Label width as the label style draws it (11 px bold), at most `maxWidth`. */
export const labelWidth = (label: string, maxWidth: number) => Math.min(maxWidth, label.length * 6.2 + 12);

/**
 * The labels without the words all of them start with ('Audubon Park Main Entrance', 'Audubon Park
 * Playground' -> 'Main Entrance', 'Playground'): the site's devices are usually named after the site, and on
 * a phone the shared words were all a narrowed line showed. Unchanged when a label would be left empty or
 * without a letter.
 */
export function withoutSharedWords(labels: readonly string[]): string[] {
  if (labels.length < 2) return [...labels];
  const words = labels.map((l) => l.trim().split(/\s+/));
  let shared = 0;
  while (words.every((w) => w.length > shared + 1 && w[shared] === words[0]![shared])) shared += 1;
  const rest = words.map((w) => w.slice(shared).join(' '));
  // 'Pier 1', 'Pier 2' stay whole: a bare number says less than the name.
  return shared === 0 || rest.some((r) => !/\p{L}/u.test(r)) ? [...labels] : rest;
}

export function stackLabels(pins: readonly StackPin[], canvas: { width: number; height: number }, maxWidth: number): LabelStack {
  const lines = [...pins].sort((a, b) => a.y - b.y || a.x - b.x);
  const xs = pins.map((p) => p.x);
  const ys = pins.map((p) => p.y);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const cx = (minX + maxX) / 2;
  const cy = (minY + maxY) / 2;
  const texts = new Map(pins.map((p, at) => [p.serial, withoutSharedWords(pins.map((q) => q.label))[at]!]));
  const wanted = Math.max(...pins.map((p) => labelWidth(texts.get(p.serial)!, maxWidth)));
  const height = pins.length * (STACK_LINE_PX + STACK_GAP_PX) - STACK_GAP_PX;
  const right = maxX + PIN_HALF_WIDTH_PX + STACK_CLEARANCE_PX;
  const leftEdge = minX - PIN_HALF_WIDTH_PX - STACK_CLEARANCE_PX;
  const roomRight = canvas.width - EDGE_PX - right;
  const roomLeft = leftEdge - EDGE_PX;
  // The right side if the labels fit there, else the left if they fit there, else the roomier side with the
  // labels narrowed to it (a phone: they end in an ellipsis, the whole name in their title).
  const side = wanted <= roomRight || (wanted > roomLeft && roomRight >= roomLeft) ? 'right' : 'left';
  const width = Math.max(MIN_WIDTH_PX, Math.min(wanted, side === 'right' ? roomRight : roomLeft));
  const left = leftEdge - width;
  const middle = cy - PIN_HEIGHT_PX / 2;
  const top = Math.max(EDGE_PX, Math.min(canvas.height - height - EDGE_PX, middle - height / 2));
  return {
    cx,
    cy,
    side,
    left: side === 'right' ? right : left,
    top,
    width,
    height,
    lines: lines.map((pin, at) => ({ ...pin, text: texts.get(pin.serial)!, top: top + at * (STACK_LINE_PX + STACK_GAP_PX) })),
  };
}
