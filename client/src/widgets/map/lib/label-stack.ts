/**
 * A site's fanned pins at street zoom (issue 42): their labels under each pin covered the neighbouring
 * pins and each other, so 1 of 7 got one. Here they are stacked in a column beside the fan, one line per
 * device (the lines in the pins' top-to-bottom order, so their leaders do not cross), each line joined to
 * its pin by a leader. Pure: canvas px in, layout out (offline/labels-layer.tsx draws it).
 */
export type StackPin = { serial: string; label: string; x: number; y: number };
export type StackLine = StackPin & { top: number };
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

/** Label width as the label style draws it (11 px bold), at most `maxWidth`. */
export const labelWidth = (label: string, maxWidth: number) => Math.min(maxWidth, label.length * 6.2 + 12);

export function stackLabels(pins: readonly StackPin[], canvas: { width: number; height: number }, maxWidth: number): LabelStack {
  const lines = [...pins].sort((a, b) => a.y - b.y || a.x - b.x);
  const xs = pins.map((p) => p.x);
  const ys = pins.map((p) => p.y);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const cx = (minX + maxX) / 2;
  const cy = (minY + maxY) / 2;
  const width = Math.max(...pins.map((p) => labelWidth(p.label, maxWidth)));
  const height = pins.length * (STACK_LINE_PX + STACK_GAP_PX) - STACK_GAP_PX;
  const right = maxX + PIN_HALF_WIDTH_PX + STACK_CLEARANCE_PX;
  const left = minX - PIN_HALF_WIDTH_PX - STACK_CLEARANCE_PX - width;
  // The right side unless it leaves the canvas and the left side does not.
  const side = right + width > canvas.width - EDGE_PX && left >= EDGE_PX ? 'left' : 'right';
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
    lines: lines.map((pin, at) => ({ ...pin, top: top + at * (STACK_LINE_PX + STACK_GAP_PX) })),
  };
}
