// Turns M4 view columns into vertex data for WebGL lines. Pure and allocation-light:
// callers pass a scratch array that grows when needed.
// Vertex layout: (x ms from the view's origin, y physical value) as float32 pairs.

/** The columns of one engine view (engine/types.ts ViewResult without its buffer). */
export interface M4Columns {
  pixels: number;
  pxMs: number;
  x: Float32Array;
  first: Float32Array;
  min: Float32Array;
  max: Float32Array;
  last: Float32Array;
  flags: Uint8Array;
}

/** How a series is drawn: polyline, steps (coded channels: stages, SA, TB) or dots (sparse spot values). */
export type SeriesStyle = 'line' | 'step' | 'points';

/** Column flag from the engine: missing samples lie before this column (engine/constants.ts GAP_BEFORE). */
export const GAP_BEFORE = 1;

/** Floats a view of `pixels` columns may need: 3 segments (6 vertices, 12 floats) per column at most, and a step's last hold. */
export function maxFloats(pixels: number): number {
  return pixels * 12 + 4;
}

/**
 * LINES vertices of a view: per valid column its min→max stroke, and a link from the
 * previous valid column's last value unless missing samples lie between (a gap).
 * Steps link horizontally then vertically, and the last value of a run (before a gap, at the
 * end of the data in the view) holds for `holdMs` (the channel's sample period: a stage
 * epoch's 30 s), up to the view's end: a night's last epoch, or one scored epoch between
 * unscored ones, is drawn for its whole length, not as a point. Points emit one vertex per
 * valid column (its min and, when different, its max). Returns the number of vertices written.
 */
export function buildVertices(v: M4Columns, style: SeriesStyle, out: Float32Array, holdMs = 0): number {
  let n = 0;
  let hasPrev = false;
  let px = 0;
  let py = 0;
  const put = (x: number, y: number) => {
    out[n * 2] = x;
    out[n * 2 + 1] = y;
    n++;
  };
  const end = v.pixels * v.pxMs;
  const hold = style === 'step' && holdMs > 0;
  const holdLast = () => {
    const to = Math.min(px + holdMs, end);
    if (to > px) { put(px, py); put(to, py); }
  };
  for (let i = 0; i < v.pixels; i++) {
    const first = v.first[i]!;
    if (first !== first) continue; // NaN: no valid sample in this column
    const x = v.x[i]!;
    const lo = v.min[i]!;
    const hi = v.max[i]!;
    if (style === 'points') {
      put(x, lo);
      if (hi !== lo) put(x, hi);
      continue;
    }
    const linked = hasPrev && (v.flags[i]! & GAP_BEFORE) === 0;
    if (hold && hasPrev && !linked) holdLast();
    if (linked) {
      if (style === 'step') {
        put(px, py); put(x, py);
        if (first !== py) { put(x, py); put(x, first); }
      } else {
        put(px, py); put(x, first);
      }
    }
    if (hi !== lo) { put(x, lo); put(x, hi); }
    hasPrev = true;
    px = x;
    py = v.last[i]!;
  }
  if (hold && hasPrev) holdLast();
  return n;
}

/**
 * TRIANGLES covering runs of columns whose value is below `threshold` (SQB: 0 = bad
 * signal), x in ms from the view's origin, y from -1 to 1 (the whole plot height).
 * Returns the number of vertices written.
 */
export function buildRuns(v: M4Columns, threshold: number, out: Float32Array): number {
  let n = 0;
  const half = v.pxMs / 2;
  const quad = (a: number, b: number) => {
    const pts = [a, -1, b, -1, b, 1, a, -1, b, 1, a, 1];
    for (let k = 0; k < 12; k++) out[n * 2 + k] = pts[k]!;
    n += 6;
  };
  let inRun = false;
  let start = 0;
  let end = 0;
  for (let i = 0; i < v.pixels; i++) {
    const lo = v.min[i]!;
    if (lo === lo && lo < threshold) {
      if (!inRun) start = v.x[i]! - half;
      inRun = true;
      end = v.x[i]! + half;
    } else if (inRun) {
      quad(start, end);
      inRun = false;
    }
  }
  if (inRun) quad(start, end);
  return n;
}

/** TRIANGLES of horizontal bands [from, to] in value space across the whole width (x in clip space). */
export function buildBands(ranges: readonly (readonly [number, number])[], out: Float32Array): number {
  let n = 0;
  for (const [from, to] of ranges) {
    const pts = [-1, from, 1, from, 1, to, -1, from, 1, to, -1, to];
    for (let k = 0; k < 12; k++) out[n * 2 + k] = pts[k]!;
    n += 6;
  }
  return n;
}
