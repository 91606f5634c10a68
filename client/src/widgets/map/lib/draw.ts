import { PIN_STATUS_SEVERITY, worstStatus, type PinStatus, type StatusCounts } from '../../../entities/device';
import type { MapPalette } from './palette';

/**
 * Canvas drawings shared by both map providers: the device pin (a teardrop with a glyph per status,
 * so colour is not the only cue) and the cluster bubble (a ring split by status counts around a disc in
 * the worst status's colour, with the count drawn in the browser's own font: no remote glyphs).
 */
export const PIN_SIZE = { width: 26, height: 34 } as const;

export function drawPin(
  ctx: CanvasRenderingContext2D,
  x: number,
  y: number,
  status: PinStatus,
  palette: MapPalette,
  scale = 1,
): void {
  const w = PIN_SIZE.width * scale;
  const h = PIN_SIZE.height * scale;
  const r = w / 2 - 1.5 * scale;
  const cx = x;
  const cy = y - h + w / 2;
  ctx.save();
  ctx.beginPath();
  ctx.moveTo(cx, y - 1);
  ctx.bezierCurveTo(cx - r * 0.35, cy + r * 1.3, cx - r, cy + r * 0.75, cx - r, cy);
  ctx.arc(cx, cy, r, Math.PI, 0);
  ctx.bezierCurveTo(cx + r, cy + r * 0.75, cx + r * 0.35, cy + r * 1.3, cx, y - 1);
  ctx.closePath();
  ctx.fillStyle = palette[status];
  ctx.shadowColor = 'rgba(16,32,40,0.35)';
  ctx.shadowBlur = 3 * scale;
  ctx.shadowOffsetY = 1 * scale;
  ctx.fill();
  ctx.shadowColor = 'transparent';
  ctx.lineWidth = 2 * scale;
  ctx.strokeStyle = palette.outline;
  ctx.stroke();

  ctx.fillStyle = palette.outline;
  ctx.strokeStyle = palette.outline;
  ctx.lineCap = 'round';
  const g = r * 0.42;
  switch (status) {
    case 'warning':
      ctx.lineWidth = 2.6 * scale;
      ctx.beginPath();
      ctx.moveTo(cx, cy - g * 1.2);
      ctx.lineTo(cx, cy + g * 0.25);
      ctx.stroke();
      ctx.beginPath();
      ctx.arc(cx, cy + g * 1.05, 1.5 * scale, 0, Math.PI * 2);
      ctx.fill();
      break;
    case 'paused':
      ctx.lineWidth = 2.6 * scale;
      ctx.beginPath();
      ctx.moveTo(cx - g * 0.55, cy - g);
      ctx.lineTo(cx - g * 0.55, cy + g);
      ctx.moveTo(cx + g * 0.55, cy - g);
      ctx.lineTo(cx + g * 0.55, cy + g);
      ctx.stroke();
      break;
    case 'offline':
      ctx.lineWidth = 2.4 * scale;
      ctx.beginPath();
      ctx.moveTo(cx - g * 0.8, cy - g * 0.8);
      ctx.lineTo(cx + g * 0.8, cy + g * 0.8);
      ctx.moveTo(cx + g * 0.8, cy - g * 0.8);
      ctx.lineTo(cx - g * 0.8, cy + g * 0.8);
      ctx.stroke();
      break;
    case 'registering':
      ctx.lineWidth = 2 * scale;
      ctx.beginPath();
      ctx.arc(cx, cy, g, -Math.PI / 2, Math.PI);
      ctx.stroke();
      break;
    default:
      ctx.beginPath();
      ctx.arc(cx, cy, g * 0.75, 0, Math.PI * 2);
      ctx.fill();
  }
  ctx.restore();
}

/** Bubble diameters in CSS px: [from this many pins, diameter], smallest first (the offline map's style reads it too). */
export const CLUSTER_DIAMETERS: readonly (readonly [number, number])[] = [
  [0, 42],
  [10, 48],
  [100, 54],
  [1000, 60],
];

/** Bubble diameter in CSS px by how many pins a cluster holds. */
export function clusterDiameter(total: number): number {
  let diameter = CLUSTER_DIAMETERS[0]![1];
  for (const [from, size] of CLUSTER_DIAMETERS) if (total >= from) diameter = size;
  return diameter;
}

export function abbreviateCount(total: number): string {
  if (total < 1000) return String(total);
  if (total < 10_000) return `${(Math.round(total / 100) / 10).toString()}k`;
  return `${Math.round(total / 1000)}k`;
}

/**
 * Draws a cluster centred at (cx, cy). `shares` are the ring's proportions per status (counts or
 * quantised counts: only ratios matter); every non-zero status gets a visible arc.
 */
export function drawClusterRing(
  ctx: CanvasRenderingContext2D,
  cx: number,
  cy: number,
  shares: StatusCounts,
  text: string,
  diameter: number,
  palette: MapPalette,
): void {
  drawClusterBubble(ctx, cx, cy, shares, diameter, palette);
  drawClusterCount(ctx, cx, cy, text, diameter, palette);
}

const ringWidthOf = (diameter: number) => Math.max(4.5, diameter * 0.12);
const innerRadiusOf = (diameter: number) => diameter / 2 - 1 - ringWidthOf(diameter) - 1.5;

/** The cluster without its count: the white base, the ring split by status, the disc in the worst status's colour. */
export function drawClusterBubble(
  ctx: CanvasRenderingContext2D,
  cx: number,
  cy: number,
  shares: StatusCounts,
  diameter: number,
  palette: MapPalette,
): void {
  const outer = diameter / 2 - 1;
  const ringWidth = ringWidthOf(diameter);
  const total = PIN_STATUS_SEVERITY.reduce((sum, status) => sum + shares[status], 0) || 1;
  ctx.save();
  // White base with a soft shadow so the bubble reads on any background.
  ctx.beginPath();
  ctx.arc(cx, cy, outer, 0, Math.PI * 2);
  ctx.fillStyle = palette.outline;
  ctx.shadowColor = 'rgba(16,32,40,0.3)';
  ctx.shadowBlur = 4;
  ctx.shadowOffsetY = 1;
  ctx.fill();
  ctx.shadowColor = 'transparent';

  const minArc = 0.35; // radians: a single problem device among thousands still shows
  const nonZero = PIN_STATUS_SEVERITY.filter((status) => shares[status] > 0);
  const reserved = nonZero.length * minArc;
  const free = Math.max(0, Math.PI * 2 - reserved);
  const gap = nonZero.length > 1 ? 0.06 : 0;
  let angle = -Math.PI / 2;
  ctx.lineWidth = ringWidth;
  ctx.lineCap = 'butt';
  for (const status of nonZero) {
    const sweep = minArc + (free * shares[status]) / total;
    ctx.beginPath();
    ctx.arc(cx, cy, outer - ringWidth / 2 - 1, angle + gap / 2, angle + sweep - gap / 2);
    ctx.strokeStyle = palette[status];
    ctx.stroke();
    angle += sweep;
  }

  // The disc in the worst status's colour.
  ctx.beginPath();
  ctx.arc(cx, cy, innerRadiusOf(diameter), 0, Math.PI * 2);
  ctx.fillStyle = palette[worstStatus(shares)];
  ctx.fill();
  ctx.restore();
}

/** Counts of more characters than this ('1.3k', '100k') are drawn a little smaller. */
export const SHORT_COUNT_CHARS = 3;

/** clusterCountFontPx by the bubble's diameter and whether the count is long (the offline map's style steps on it). */
export const countFontPxFor = (diameter: number, long: boolean) => Math.round(innerRadiusOf(diameter) * (long ? 0.78 : 0.9));

/**
 * The count's font size in CSS px: most of the disc's radius, a little less for four characters ('1.3k').
 * The offline map's count layer sizes its text by the same rule (pins-layer).
 */
export const clusterCountFontPx = (text: string, diameter: number) => countFontPxFor(diameter, text.length > SHORT_COUNT_CHARS);

/** The count's typeface: the screen's own sans-serif, bold (the offline map's count layer asks for the same). */
export const COUNT_FONT_FAMILIES = ['system-ui', '-apple-system', 'Segoe UI', 'Roboto', 'Arial'] as const;

/** The count on the cluster's disc. */
export function drawClusterCount(
  ctx: CanvasRenderingContext2D,
  cx: number,
  cy: number,
  text: string,
  diameter: number,
  palette: MapPalette,
): void {
  ctx.save();
  ctx.fillStyle = palette.outline;
  const families = COUNT_FONT_FAMILIES.map((family) => (family.includes(' ') ? `'${family}'` : family)).join(', ');
  ctx.font = `700 ${clusterCountFontPx(text, diameter)}px ${families}, sans-serif`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(text, cx, cy + 0.5);
  ctx.restore();
}

/**
 * An offscreen canvas sized for `pixelRatio`, with its context scaled to CSS pixels. Its pixels are read
 * back (getImageData, for the map's images), so it is CPU-backed (`willReadFrequently`): a
 * GPU-accelerated canvas would draw on the GPU and then wait for a readback of each pin and cluster image.
 * Making one costs more than drawing an image on it: the cluster images reuse one per size (pins-layer).
 */
export function createCanvas(
  width: number,
  height: number,
  pixelRatio: number,
): { canvas: HTMLCanvasElement; ctx: CanvasRenderingContext2D } {
  const canvas = document.createElement('canvas');
  canvas.width = Math.ceil(width * pixelRatio);
  canvas.height = Math.ceil(height * pixelRatio);
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  if (!ctx) throw new Error('2D canvas is not available');
  ctx.setTransform(pixelRatio, 0, 0, pixelRatio, 0, 0);
  return { canvas, ctx };
}
