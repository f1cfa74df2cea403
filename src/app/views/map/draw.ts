/** Drawing the map on a 2D canvas, and finding what is under the pointer. Positions are in [0, 1]. */

export interface Placed {
  x: number;
  y: number;
}

export interface DrawnPoint extends Placed {
  colour: string;
  /** Outside the list's filters: drawn faint. */
  dim: boolean;
  selected: boolean;
}

export interface RegionLabel extends Placed {
  text: string;
}

export interface MapStyle {
  background: string;
  foreground: string;
  accent: string;
}

export interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Space around the points, in CSS pixels, so that a point at the edge is whole and can be hovered. */
const PAD = 14;

export const toScreen = (p: Placed, size: number): Placed => ({
  x: PAD + p.x * (size - 2 * PAD),
  y: PAD + (1 - p.y) * (size - 2 * PAD),
});

export const fromScreen = (p: Placed, size: number): Placed => ({
  x: (p.x - PAD) / (size - 2 * PAD),
  y: 1 - (p.y - PAD) / (size - 2 * PAD),
});

/** The index of the point nearest to a screen position within `within` pixels, or -1. */
export function pointAt(points: readonly Placed[], at: Placed, size: number, within = 8): number {
  let best = -1;
  let bestD = within * within;
  points.forEach((p, i) => {
    const s = toScreen(p, size);
    const d = (s.x - at.x) ** 2 + (s.y - at.y) ** 2;
    if (d <= bestD) {
      best = i;
      bestD = d;
    }
  });
  return best;
}

/** The indices of the points inside a rectangle given in screen pixels (corners in any order). */
export function pointsIn(points: readonly Placed[], rect: Rect, size: number): number[] {
  const [x0, x1] = [Math.min(rect.x0, rect.x1), Math.max(rect.x0, rect.x1)];
  const [y0, y1] = [Math.min(rect.y0, rect.y1), Math.max(rect.y0, rect.y1)];
  const inside: number[] = [];
  points.forEach((p, i) => {
    const s = toScreen(p, size);
    if (s.x >= x0 && s.x <= x1 && s.y >= y0 && s.y <= y1) inside.push(i);
  });
  return inside;
}

export function drawMap(
  ctx: CanvasRenderingContext2D,
  size: number,
  points: readonly DrawnPoint[],
  labels: readonly RegionLabel[],
  style: MapStyle,
  dragging?: Rect,
): void {
  ctx.clearRect(0, 0, size, size);
  const anySelected = points.some((p) => p.selected);
  // Faint points first, so that the ones the filters keep are drawn over them.
  const order = points.map((_, i) => i).sort((a, b) => Number(!points[a]!.dim) - Number(!points[b]!.dim));
  for (const i of order) {
    const p = points[i]!;
    const s = toScreen(p, size);
    ctx.globalAlpha = p.dim || (anySelected && !p.selected) ? 0.18 : 1;
    ctx.beginPath();
    ctx.arc(s.x, s.y, p.selected ? 4.5 : 3.5, 0, 2 * Math.PI);
    ctx.fillStyle = p.colour;
    ctx.fill();
    ctx.lineWidth = p.selected ? 1.5 : 0.75;
    ctx.strokeStyle = p.selected ? style.foreground : style.background;
    ctx.stroke();
  }
  ctx.globalAlpha = 1;
  // Labels that overlap a label already drawn (larger regions come first) are left out.
  ctx.font = '600 12px system-ui, sans-serif';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  const taken: Rect[] = [];
  for (const label of labels) {
    const s = toScreen(label, size);
    const w = ctx.measureText(label.text).width + 8;
    const box = { x0: s.x - w / 2, y0: s.y - 9, x1: s.x + w / 2, y1: s.y + 9 };
    if (taken.some((t) => box.x0 < t.x1 && box.x1 > t.x0 && box.y0 < t.y1 && box.y1 > t.y0)) continue;
    taken.push(box);
    ctx.lineWidth = 4;
    ctx.strokeStyle = style.background;
    ctx.strokeText(label.text, s.x, s.y);
    ctx.fillStyle = style.foreground;
    ctx.fillText(label.text, s.x, s.y);
  }
  if (dragging) {
    ctx.strokeStyle = style.accent;
    ctx.lineWidth = 1;
    ctx.setLineDash([4, 3]);
    ctx.strokeRect(dragging.x0, dragging.y0, dragging.x1 - dragging.x0, dragging.y1 - dragging.y0);
    ctx.setLineDash([]);
  }
}
