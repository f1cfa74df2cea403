/**
 * The map file: one JSON line per point ({"id","layer","x","y","region"}), then one per region
 * ({"region","label","count"}). `map` in the CLI writes it; a project site may publish it and an
 * embed read it instead of computing the layout.
 */
import type { BenchmarkMap, MapLayer, MapPoint, MapRegion } from './layout.ts';

const LAYERS: readonly MapLayer[] = ['task', 'candidate', 'doc'];
/** A map file larger than this is refused (a v1.0-scale chunk map is about 15 MB). */
export const MAP_FILE_MAX_BYTES = 64 * 1024 * 1024;

export function mapFileText(map: BenchmarkMap): string {
  const points = map.points.map((p) => JSON.stringify({ id: p.id, layer: p.layer, x: p.x, y: p.y, region: p.region }));
  const regions = map.regions.map((r) => JSON.stringify({ region: r.region, label: r.label, count: r.count }));
  return `${[...points, ...regions].join('\n')}\n`;
}

export class MapFileError extends Error {}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const isUnit = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1;

/** Parses a map file; throws MapFileError naming the line and what it expected. */
export function parseMapFile(text: string, name = 'map file'): BenchmarkMap {
  if (text.length > MAP_FILE_MAX_BYTES) throw new MapFileError(`${name} is larger than ${MAP_FILE_MAX_BYTES} bytes`);
  const points: MapPoint[] = [];
  const regions: MapRegion[] = [];
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    const where = `${name}, line ${i + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new MapFileError(`${where}: not JSON`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new MapFileError(`${where}: expected an object`);
    const v = value as Record<string, unknown>;
    if ('id' in v) {
      if (regions.length) throw new MapFileError(`${where}: a point after the regions (points come first)`);
      if (typeof v.id !== 'string' || !v.id) throw new MapFileError(`${where}: "id" must be a non-empty string`);
      if (!LAYERS.includes(v.layer as MapLayer))
        throw new MapFileError(`${where}: "layer" must be one of ${LAYERS.join(', ')}`);
      if (!isUnit(v.x) || !isUnit(v.y)) throw new MapFileError(`${where}: "x" and "y" must be numbers in [0, 1]`);
      if (!isInt(v.region)) throw new MapFileError(`${where}: "region" must be a whole number ≥ 0`);
      points.push({ id: v.id, layer: v.layer as MapLayer, x: v.x, y: v.y, region: v.region });
    } else if ('label' in v) {
      if (!isInt(v.region) || typeof v.label !== 'string' || !isInt(v.count))
        throw new MapFileError(`${where}: a region needs "region" (whole number), "label" (text) and "count"`);
      regions.push({ region: v.region, label: v.label, count: v.count });
    } else throw new MapFileError(`${where}: expected a point (with "id") or a region (with "label")`);
  });
  const known = new Set(regions.map((r) => r.region));
  const stray = points.find((p) => !known.has(p.region));
  if (stray) throw new MapFileError(`${name}: point ${stray.id} names region ${stray.region}, which no line defines`);
  return { points, regions };
}
