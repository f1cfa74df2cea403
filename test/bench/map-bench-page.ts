/**
 * The map drawing bench page: the Map page's own drawing and selection code (draw.ts) on a
 * seeded cloud of points the size of the v1.0-scale chunks of the retrieval bench, driven by
 * test/bench/map.bench.ts through window.mapBench. Served by a Vite dev server; not in the site.
 */
import {
  drawMap,
  panBy,
  pointsInLasso,
  toScreen,
  WHOLE_MAP,
  zoomAt,
  type DrawnPoint,
  type Placed,
  type View,
} from '../../src/app/views/map/draw.ts';
import { REGION_COLOURS } from '../../src/app/views/map/palette.ts';
import { mulberry32 } from '../../src/core/random.ts';

export interface FrameFigures {
  points: number;
  ratio: number;
  frames: number;
  fps: number;
  drawP50: number;
  drawP95: number;
}
export interface LassoFigures {
  points: number;
  selected: number;
  /** Lasso hit test, the selection's prefixes and counts per cluster, and the redraw, in ms. */
  ms: number[];
}

const SIZE = 720;
const canvas = document.getElementById('map') as HTMLCanvasElement;
const style = { background: '#ffffff', foreground: '#111111', accent: '#0366d6' };

/** Gaussian clusters of points in [0, 1], coloured by cluster. */
function cloud(n: number): { points: DrawnPoint[]; ids: string[]; cluster: Uint8Array } {
  const random = mulberry32(7);
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const centres = Array.from({ length: 40 }, () => ({
    x: 0.1 + 0.8 * random(),
    y: 0.1 + 0.8 * random(),
    s: 0.01 + 0.05 * random(),
  }));
  const points: DrawnPoint[] = [];
  const ids: string[] = [];
  const cluster = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const c = Math.floor(random() * centres.length);
    const { x, y, s } = centres[c]!;
    cluster[i] = c;
    points.push({
      x: Math.min(1, Math.max(0, x + s * normal())),
      y: Math.min(1, Math.max(0, y + s * normal())),
      colour: REGION_COLOURS[c % REGION_COLOURS.length]!,
      dim: false,
      selected: false,
    });
    ids.push(`chunk-${String(i).padStart(6, '0')}`);
  }
  return { points, ids, cluster };
}

function context(ratio: number): CanvasRenderingContext2D {
  canvas.width = SIZE * ratio;
  canvas.height = SIZE * ratio;
  const ctx = canvas.getContext('2d')!;
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  return ctx;
}

const percentile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

/** Pans and zooms for `frames` animation frames, drawing each; fps is frames over the wall time. */
function panAndZoom(n: number, ratio: number, frames: number): Promise<FrameFigures> {
  const { points } = cloud(n);
  const ctx = context(ratio);
  let view: View = WHOLE_MAP;
  const draws: number[] = [];
  return new Promise((resolve) => {
    let frame = 0;
    let started = 0;
    const step = (now: number) => {
      if (frame === 0) started = now;
      // Zoom in towards a point for a third of the frames, pan for a third, zoom out for the rest.
      const phase = frame / frames;
      view =
        phase < 1 / 3
          ? zoomAt(view, { x: 260, y: 300 }, 1.03, SIZE)
          : phase < 2 / 3
            ? panBy(view, 6, -4, SIZE)
            : zoomAt(view, { x: 400, y: 380 }, 1 / 1.03, SIZE);
      const t = performance.now();
      drawMap(ctx, SIZE, points, [], style, view);
      draws.push(performance.now() - t);
      frame++;
      if (frame <= frames) requestAnimationFrame(step);
      else
        resolve({
          points: n,
          ratio,
          frames,
          fps: frames / ((now - started) / 1000),
          drawP50: percentile(draws, 0.5),
          drawP95: percentile(draws, 0.95),
        });
    };
    requestAnimationFrame(step);
  });
}

/** A circle of 64 screen points around `centre` with radius `r`. */
const ring = (centre: Placed, r: number): Placed[] =>
  Array.from({ length: 64 }, (_, i) => ({
    x: centre.x + r * Math.cos((2 * Math.PI * i) / 64),
    y: centre.y + r * Math.sin((2 * Math.PI * i) / 64),
  }));

/** A lasso drawn around about `target` points, timed from the pointer's release to the redrawn selection. */
function lasso(n: number, target: number, runs: number): LassoFigures {
  const { points, ids, cluster } = cloud(n);
  const ctx = context(1);
  const centre = toScreen({ x: 0.5, y: 0.5 }, SIZE);
  let [lo, hi] = [1, SIZE];
  for (let i = 0; i < 30; i++) {
    const mid = (lo + hi) / 2;
    if (pointsInLasso(points, ring(centre, mid), SIZE).length < target) lo = mid;
    else hi = mid;
  }
  const outline = ring(centre, hi);
  const ms: number[] = [];
  let selected = 0;
  for (let r = 0; r < runs; r++) {
    for (const p of points) p.selected = false;
    const t = performance.now();
    const inside = pointsInLasso(points, outline, SIZE);
    const prefixes = new Set(inside.map((i) => ids[i]!.slice(0, 8)));
    const perCluster = new Map<number, number>();
    for (const i of inside) {
      points[i]!.selected = true;
      perCluster.set(cluster[i]!, (perCluster.get(cluster[i]!) ?? 0) + 1);
    }
    drawMap(ctx, SIZE, points, [], style, WHOLE_MAP);
    ms.push(performance.now() - t);
    selected = inside.length;
    void prefixes;
  }
  return { points: n, selected, ms };
}

declare global {
  interface Window {
    mapBench: { panAndZoom: typeof panAndZoom; lasso: typeof lasso };
  }
}
window.mapBench = { panAndZoom, lasso };
