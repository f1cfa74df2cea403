/**
 * Drawing the map on a 2D canvas, and finding what is under the pointer. Positions are in
 * [0, 1]; a View says which part of that square fills the canvas (pan and zoom).
 */

export interface Placed {
  x: number;
  y: number;
}

export interface DrawnPoint extends Placed {
  colour: string;
  /** Outside the list's filters: drawn faint. */
  dim: boolean;
  selected: boolean;
  /** Radius in CSS pixels before zoom (size by gold-set or pool size); 3.5 when absent. */
  radius?: number;
}

export interface RegionLabel extends Placed {
  text: string;
  /** Width of the region's middle part, in map units: the label shows once the zoom makes it this wide. */
  extent: number;
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

/** The map point at the canvas's centre, and the zoom (1: the whole map). */
export interface View {
  x: number;
  y: number;
  zoom: number;
}

export const WHOLE_MAP: View = { x: 0.5, y: 0.5, zoom: 1 };
export const MAX_ZOOM = 64;

/** What is being drawn over the points while the pointer drags. */
export type Gesture = { rect: Rect } | { lasso: readonly Placed[] };

/** Space around the points, in CSS pixels, so that a point at the edge is whole and can be hovered. */
const PAD = 14;
/** Above this many points, points are written as pixels: arcs would take a frame each. */
export const PIXEL_POINTS = 20_000;

const span = (size: number) => size - 2 * PAD;

export const toScreen = (p: Placed, size: number, view: View = WHOLE_MAP): Placed => ({
  x: PAD + ((p.x - view.x) * view.zoom + 0.5) * span(size),
  y: PAD + (0.5 - (p.y - view.y) * view.zoom) * span(size),
});

export const fromScreen = (s: Placed, size: number, view: View = WHOLE_MAP): Placed => ({
  x: view.x + ((s.x - PAD) / span(size) - 0.5) / view.zoom,
  y: view.y + (0.5 - (s.y - PAD) / span(size)) / view.zoom,
});

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** The view kept within the map: zoom in [1, MAX_ZOOM], the centre where the map still fills the canvas. */
export function bounded(view: View): View {
  const zoom = clamp(view.zoom, 1, MAX_ZOOM);
  const half = 0.5 / zoom;
  return { zoom, x: clamp(view.x, half, 1 - half), y: clamp(view.y, half, 1 - half) };
}

/** Zoom by `factor` keeping the map point under the screen position `at` where it is. */
export function zoomAt(view: View, at: Placed, factor: number, size: number): View {
  const anchor = fromScreen(at, size, view);
  const zoom = clamp(view.zoom * factor, 1, MAX_ZOOM);
  const u = (at.x - PAD) / span(size) - 0.5;
  const v = 0.5 - (at.y - PAD) / span(size);
  return bounded({ zoom, x: anchor.x - u / zoom, y: anchor.y - v / zoom });
}

/** Move the view by a drag of (dx, dy) screen pixels. */
export const panBy = (view: View, dx: number, dy: number, size: number): View =>
  bounded({ ...view, x: view.x - dx / span(size) / view.zoom, y: view.y + dy / span(size) / view.zoom });

/** The view that shows a point, moved only if the point is off the canvas. */
export function keepInView(view: View, p: Placed): View {
  const half = 0.5 / view.zoom;
  if (Math.abs(p.x - view.x) < half * 0.9 && Math.abs(p.y - view.y) < half * 0.9) return view;
  return bounded({ ...view, x: p.x, y: p.y });
}

/** The index of the point nearest to a screen position within `within` pixels, or -1. */
export function pointAt(
  points: readonly Placed[],
  at: Placed,
  size: number,
  view: View = WHOLE_MAP,
  within = 8,
): number {
  let best = -1;
  let bestD = within * within;
  points.forEach((p, i) => {
    const s = toScreen(p, size, view);
    const d = (s.x - at.x) ** 2 + (s.y - at.y) ** 2;
    if (d <= bestD) {
      best = i;
      bestD = d;
    }
  });
  return best;
}

/** The indices of the points inside a rectangle given in screen pixels (corners in any order). */
export function pointsIn(points: readonly Placed[], rect: Rect, size: number, view: View = WHOLE_MAP): number[] {
  const corner = [
    fromScreen({ x: rect.x0, y: rect.y0 }, size, view),
    fromScreen({ x: rect.x1, y: rect.y1 }, size, view),
  ];
  const [x0, x1] = [Math.min(corner[0]!.x, corner[1]!.x), Math.max(corner[0]!.x, corner[1]!.x)];
  const [y0, y1] = [Math.min(corner[0]!.y, corner[1]!.y), Math.max(corner[0]!.y, corner[1]!.y)];
  const inside: number[] = [];
  points.forEach((p, i) => {
    if (p.x >= x0 && p.x <= x1 && p.y >= y0 && p.y <= y1) inside.push(i);
  });
  return inside;
}

/**
 * The indices of the points inside a lasso (a closed polygon of screen positions), by the
 * even-odd rule. The polygon is taken to map units once, and its bounding box skips most points.
 */
export function pointsInLasso(
  points: readonly Placed[],
  lasso: readonly Placed[],
  size: number,
  view: View = WHOLE_MAP,
): number[] {
  if (lasso.length < 3) return [];
  const poly = lasso.map((s) => fromScreen(s, size, view));
  const xs = new Float64Array(poly.map((p) => p.x));
  const ys = new Float64Array(poly.map((p) => p.y));
  let [minX, maxX, minY, maxY] = [Infinity, -Infinity, Infinity, -Infinity];
  for (let i = 0; i < xs.length; i++) {
    minX = Math.min(minX, xs[i]!);
    maxX = Math.max(maxX, xs[i]!);
    minY = Math.min(minY, ys[i]!);
    maxY = Math.max(maxY, ys[i]!);
  }
  const inside: number[] = [];
  const n = xs.length;
  for (let k = 0; k < points.length; k++) {
    const { x, y } = points[k]!;
    if (x < minX || x > maxX || y < minY || y > maxY) continue;
    let odd = false;
    for (let i = 0, j = n - 1; i < n; j = i++) {
      const yi = ys[i]!;
      const yj = ys[j]!;
      if (yi > y !== yj > y && x < ((xs[j]! - xs[i]!) * (y - yi)) / (yj - yi) + xs[i]!) odd = !odd;
    }
    if (odd) inside.push(k);
  }
  return inside;
}

function drawArcs(
  ctx: CanvasRenderingContext2D,
  size: number,
  points: readonly DrawnPoint[],
  style: MapStyle,
  view: View,
): void {
  const anySelected = points.some((p) => p.selected);
  // Points grow a little as the map is zoomed, so that a dense region opens up but stays legible.
  const grow = Math.sqrt(view.zoom);
  // Faint points first, so that the ones the filters keep are drawn over them.
  const order = points.map((_, i) => i).sort((a, b) => Number(!points[a]!.dim) - Number(!points[b]!.dim));
  for (const i of order) {
    const p = points[i]!;
    const s = toScreen(p, size, view);
    const r = ((p.radius ?? 3.5) + (p.selected ? 1 : 0)) * grow;
    if (s.x < -r || s.y < -r || s.x > size + r || s.y > size + r) continue;
    ctx.globalAlpha = p.dim || (anySelected && !p.selected) ? 0.18 : 1;
    ctx.beginPath();
    ctx.arc(s.x, s.y, r, 0, 2 * Math.PI);
    ctx.fillStyle = p.colour;
    ctx.fill();
    ctx.lineWidth = p.selected ? 1.5 : 0.75;
    ctx.strokeStyle = p.selected ? style.foreground : style.background;
    ctx.stroke();
  }
  ctx.globalAlpha = 1;
}

const solid = new Map<string, number>();
const faint = new Map<string, number>();
/** A #rrggbb colour as one little-endian RGBA word, opaque or faint. */
function rgbaWord(hex: string, isFaint: boolean): number {
  const cache = isFaint ? faint : solid;
  let word = cache.get(hex);
  if (word === undefined) {
    const v = Number.parseInt(hex.slice(1, 7), 16) || 0;
    const alpha = isFaint ? 64 : 255;
    word = ((alpha << 24) | ((v & 0xff) << 16) | (v & 0xff00) | ((v >> 16) & 0xff)) >>> 0;
    cache.set(hex, word);
  }
  return word;
}

/** The pixel buffer of the last frame, kept so that a pan does not allocate one per frame. */
let buffer: { image: ImageData; pixels: Uint32Array } | undefined;

/** The points as typed arrays, faint ones first, built once per list of points (a pan reuses them). */
interface Packed {
  xs: Float64Array;
  ys: Float64Array;
  words: Uint32Array;
}
const packed = new WeakMap<readonly DrawnPoint[], Packed>();
function pack(points: readonly DrawnPoint[]): Packed {
  let p = packed.get(points);
  if (p) return p;
  const anySelected = points.some((q) => q.selected);
  const isFaint = (q: DrawnPoint) => q.dim || (anySelected && !q.selected);
  const order = [...points.filter(isFaint), ...points.filter((q) => !isFaint(q))];
  p = {
    xs: Float64Array.from(order, (q) => q.x),
    ys: Float64Array.from(order, (q) => q.y),
    words: Uint32Array.from(order, (q) => rgbaWord(q.colour, isFaint(q))),
  };
  packed.set(points, p);
  return p;
}

/** Many points: squares written into one pixel buffer, in device pixels, faint ones first. */
function drawPixels(ctx: CanvasRenderingContext2D, size: number, points: readonly DrawnPoint[], view: View): void {
  const { width, height } = ctx.canvas;
  if (buffer?.image.width !== width || buffer.image.height !== height) {
    const image = ctx.createImageData(width, height);
    buffer = { image, pixels: new Uint32Array(image.data.buffer) };
  }
  const { image, pixels } = buffer;
  pixels.fill(0);
  const { xs, ys, words } = pack(points);
  const ratio = width / size;
  const side = Math.max(1, Math.round(ratio * Math.min(4, 1.5 + Math.log2(view.zoom))));
  const scale = span(size) * view.zoom * ratio;
  const offX = (PAD + 0.5 * span(size)) * ratio - view.x * scale;
  const offY = (PAD + 0.5 * span(size)) * ratio + view.y * scale;
  const maxX = width - side;
  const maxY = height - side;
  for (let i = 0; i < xs.length; i++) {
    const px = Math.round(xs[i]! * scale + offX);
    const py = Math.round(offY - ys[i]! * scale);
    if (px < 0 || py < 0 || px >= maxX || py >= maxY) continue;
    const word = words[i]!;
    for (let dy = 0, row = py * width + px; dy < side; dy++, row += width)
      for (let dx = 0; dx < side; dx++) pixels[row + dx] = word;
  }
  ctx.putImageData(image, 0, 0);
}

function drawLabels(
  ctx: CanvasRenderingContext2D,
  size: number,
  labels: readonly RegionLabel[],
  style: MapStyle,
  view: View,
): void {
  ctx.font = '600 12px system-ui, sans-serif';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  const taken: Rect[] = [];
  // Larger regions come first; a label shows where its region is as wide as the label, and where it
  // overlaps no label already drawn, so that zooming in brings the smaller regions' labels in.
  for (const label of labels) {
    const s = toScreen(label, size, view);
    const w = ctx.measureText(label.text).width + 8;
    if (label.extent * view.zoom * span(size) < w * 0.75 && view.zoom < MAX_ZOOM) continue;
    if (s.x < 0 || s.y < 0 || s.x > size || s.y > size) continue;
    const box = { x0: s.x - w / 2, y0: s.y - 9, x1: s.x + w / 2, y1: s.y + 9 };
    if (taken.some((t) => box.x0 < t.x1 && box.x1 > t.x0 && box.y0 < t.y1 && box.y1 > t.y0)) continue;
    taken.push(box);
    ctx.lineWidth = 4;
    ctx.strokeStyle = style.background;
    ctx.strokeText(label.text, s.x, s.y);
    ctx.fillStyle = style.foreground;
    ctx.fillText(label.text, s.x, s.y);
  }
}

function drawGesture(ctx: CanvasRenderingContext2D, gesture: Gesture, style: MapStyle): void {
  ctx.strokeStyle = style.accent;
  ctx.lineWidth = 1.5;
  ctx.setLineDash([4, 3]);
  if ('rect' in gesture) {
    const { x0, y0, x1, y1 } = gesture.rect;
    ctx.strokeRect(x0, y0, x1 - x0, y1 - y0);
  } else if (gesture.lasso.length > 1) {
    ctx.beginPath();
    gesture.lasso.forEach((p, i) => (i === 0 ? ctx.moveTo(p.x, p.y) : ctx.lineTo(p.x, p.y)));
    ctx.closePath();
    ctx.stroke();
  }
  ctx.setLineDash([]);
}

export function drawMap(
  ctx: CanvasRenderingContext2D,
  size: number,
  points: readonly DrawnPoint[],
  labels: readonly RegionLabel[],
  style: MapStyle,
  view: View = WHOLE_MAP,
  gesture?: Gesture,
): void {
  ctx.clearRect(0, 0, size, size);
  if (points.length > PIXEL_POINTS) drawPixels(ctx, size, points, view);
  else drawArcs(ctx, size, points, style, view);
  drawLabels(ctx, size, labels, style, view);
  if (gesture) drawGesture(ctx, gesture, style);
}
