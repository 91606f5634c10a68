/**
 * Where on the map a fitted area can be seen: the panels that float over the map (the dashboard, the
 * clock and Active Pin, the profile panel) cover parts of it, and a county fitted to the whole map lay
 * under the 400 px dashboard (issue 42). The page marks the containers of such panels with
 * `data-map-cover`; their visible children are the covered boxes.
 */
export type Box = { left: number; top: number; right: number; bottom: number };
export type Padding = { top: number; right: number; bottom: number; left: number };

/** The attribute a page puts on a container of panels that float over the map. */
export const MAP_COVER_ATTRIBUTE = 'data-map-cover';
/** Space kept between the fitted area and a panel or the map's edge. */
export const FIT_MARGIN_PX = 24;
/** A clear part smaller than this either way is no use: the map's whole view is used instead. */
const MIN_CLEAR_PX = 120;

const overlaps = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/**
 * The padding that fits `content` (its size in px at any one zoom: only its shape counts) into the part of
 * a `width` x `height` view no cover overlaps, as large as it can be drawn there. Every rectangle whose
 * edges are the view's or a cover's is tried (a handful of panels: a few hundred candidates), and the one
 * that holds the content at the largest scale wins. Written here rather than taken from a library: it is
 * a few lines over the few boxes a page has.
 */
export function clearPadding(
  width: number,
  height: number,
  covers: readonly Box[],
  content: { width: number; height: number },
  margin = FIT_MARGIN_PX,
): Padding {
  const whole: Padding = { top: margin, right: margin, bottom: margin, left: margin };
  const inView = covers
    .map((c) => ({
      left: Math.max(0, c.left),
      top: Math.max(0, c.top),
      right: Math.min(width, c.right),
      bottom: Math.min(height, c.bottom),
    }))
    .filter((c) => c.right > c.left && c.bottom > c.top);
  if (!inView.length) return whole;
  const xs = [...new Set([0, width, ...inView.flatMap((c) => [c.left, c.right])])].sort((a, b) => a - b);
  const ys = [...new Set([0, height, ...inView.flatMap((c) => [c.top, c.bottom])])].sort((a, b) => a - b);
  const shape = { width: Math.max(1, content.width), height: Math.max(1, content.height) };
  let best: { box: Box; scale: number; area: number } | null = null;
  for (const left of xs)
    for (const right of xs) {
      if (right - left < MIN_CLEAR_PX) continue;
      for (const top of ys)
        for (const bottom of ys) {
          if (bottom - top < MIN_CLEAR_PX) continue;
          const box = { left, top, right, bottom };
          if (inView.some((c) => overlaps(box, c))) continue;
          const scale = Math.min((right - left - 2 * margin) / shape.width, (bottom - top - 2 * margin) / shape.height);
          const area = (right - left) * (bottom - top);
          // Of equal scales the larger part: the area has room around it.
          if (!best || scale > best.scale + 1e-9 || (Math.abs(scale - best.scale) <= 1e-9 && area > best.area))
            best = { box, scale, area };
        }
    }
  if (!best) return whole;
  return {
    top: best.box.top + margin,
    right: width - best.box.right + margin,
    bottom: height - best.box.bottom + margin,
    left: best.box.left + margin,
  };
}

/** The boxes that the page's floating panels cover, relative to the map's container. */
export function coveredBoxes(container: HTMLElement): Box[] {
  const origin = container.getBoundingClientRect();
  const boxes: Box[] = [];
  for (const holder of document.querySelectorAll<HTMLElement>(`[${MAP_COVER_ATTRIBUTE}]`)) {
    for (const panel of holder.children) {
      const r = panel.getBoundingClientRect();
      if (r.width < 1 || r.height < 1) continue;
      boxes.push({
        left: r.left - origin.left,
        top: r.top - origin.top,
        right: r.right - origin.left,
        bottom: r.bottom - origin.top,
      });
    }
  }
  return boxes;
}
