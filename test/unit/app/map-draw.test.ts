import { describe, expect, it } from 'vitest';
import {
  bounded,
  fromScreen,
  keepInView,
  MAX_ZOOM,
  panBy,
  pointsIn,
  pointsInLasso,
  toScreen,
  WHOLE_MAP,
  zoomAt,
  type Placed,
} from '../../../src/app/views/map/draw.ts';

const SIZE = 500;
const grid: Placed[] = [];
for (let i = 0; i <= 10; i++) for (let j = 0; j <= 10; j++) grid.push({ x: i / 10, y: j / 10 });

describe('the map view', () => {
  it('takes a point to the screen and back, zoomed or not', () => {
    for (const view of [WHOLE_MAP, { x: 0.3, y: 0.6, zoom: 4 }]) {
      const back = fromScreen(toScreen({ x: 0.37, y: 0.81 }, SIZE, view), SIZE, view);
      expect(back.x).toBeCloseTo(0.37, 12);
      expect(back.y).toBeCloseTo(0.81, 12);
    }
    // Up on the map is up on the screen.
    expect(toScreen({ x: 0.5, y: 1 }, SIZE).y).toBeLessThan(toScreen({ x: 0.5, y: 0 }, SIZE).y);
  });

  it('zooms about the pointer: the map point under it stays under it', () => {
    const at = { x: 120, y: 340 };
    const before = fromScreen(at, SIZE, WHOLE_MAP);
    const view = zoomAt(zoomAt(WHOLE_MAP, at, 3, SIZE), at, 1.7, SIZE);
    expect(view.zoom).toBeCloseTo(5.1, 12);
    const after = fromScreen(at, SIZE, view);
    expect(after.x).toBeCloseTo(before.x, 12);
    expect(after.y).toBeCloseTo(before.y, 12);
  });

  it('keeps the view on the map: no zoom out past the whole map, no pan beyond its edge', () => {
    expect(zoomAt(WHOLE_MAP, { x: 10, y: 10 }, 0.2, SIZE)).toEqual(WHOLE_MAP);
    expect(bounded({ x: 0.5, y: 0.5, zoom: 1000 }).zoom).toBe(MAX_ZOOM);
    // Dragged far right and down, the view shows the top left corner.
    const panned = panBy({ x: 0.5, y: 0.5, zoom: 2 }, 10_000, 10_000, SIZE);
    expect(panned).toEqual({ x: 0.25, y: 0.75, zoom: 2 });
  });

  it('moves to a point walked to off the canvas, and not for one on it', () => {
    const view = { x: 0.25, y: 0.25, zoom: 4 };
    expect(keepInView(view, { x: 0.26, y: 0.24 })).toBe(view);
    const moved = keepInView(view, { x: 0.9, y: 0.8 });
    expect([moved.x, moved.y]).toEqual([0.875, 0.8]);
  });
});

describe('selecting on the map', () => {
  it('a rectangle keeps the points inside it, in the view it was drawn in', () => {
    const whole = pointsIn(grid, { x0: 0, y0: 0, x1: SIZE, y1: SIZE }, SIZE);
    expect(whole).toHaveLength(grid.length);
    // Zoomed 2× on the lower left quarter, the whole canvas holds that quarter only.
    const quarter = pointsIn(grid, { x0: SIZE, y0: SIZE, x1: 0, y1: 0 }, SIZE, { x: 0.25, y: 0.25, zoom: 2 });
    expect(quarter.map((i) => grid[i]!).every((p) => p.x <= 0.5 + 1e-9 && p.y <= 0.5 + 1e-9)).toBe(true);
  });

  it('a lasso keeps what is inside its outline, notch and all', () => {
    // A "C" opening to the right: the square from 0.05 to 0.95 minus a notch from x 0.45 right, y 0.35 to 0.65.
    const outline = [
      { x: 0.05, y: 0.05 },
      { x: 0.95, y: 0.05 },
      { x: 0.95, y: 0.35 },
      { x: 0.45, y: 0.35 },
      { x: 0.45, y: 0.65 },
      { x: 0.95, y: 0.65 },
      { x: 0.95, y: 0.95 },
      { x: 0.05, y: 0.95 },
    ].map((p) => toScreen(p, SIZE));
    const inside = new Set(pointsInLasso(grid, outline, SIZE).map((i) => grid[i]!));
    const expected = grid.filter(
      (p) => p.x > 0.05 && p.x < 0.95 && p.y > 0.05 && p.y < 0.95 && !(p.x > 0.45 && p.y > 0.35 && p.y < 0.65),
    );
    expect([...inside].sort((a, b) => a.x - b.x || a.y - b.y)).toEqual(expected.sort((a, b) => a.x - b.x || a.y - b.y));
    expect(inside.has(grid.find((p) => p.x === 0.7 && p.y === 0.5)!)).toBe(false);
    expect(inside.has(grid.find((p) => p.x === 0.2 && p.y === 0.5)!)).toBe(true);
  });

  it('a lasso of fewer than three points selects nothing', () => {
    expect(pointsInLasso(grid, [toScreen({ x: 0, y: 0 }, SIZE), toScreen({ x: 1, y: 1 }, SIZE)], SIZE)).toEqual([]);
  });
});
