// The triage table's sparklines: every cell a block of ONE ChartRenderer (one WebGL
// context for the whole table; browsers cap contexts at about 16). Framework-free; the
// table's cells register their boxes here.
import type { ChartBlock, Rgba } from '../../charts/gl/block';
import { ChartRenderer } from '../../charts/gl/renderer';

/** One night's value of a sparkline; `t` ms (the night's date), `v` null when unknown. */
export interface SparkPoint {
  t: number;
  v: number | null;
}

export interface SparkGeometry {
  /** LINES pairs (x ms from `origin`, y) joining consecutive nights with values. */
  lines: Float32Array;
  lineVertices: number;
  /** One POINT per night with a value. */
  dots: Float32Array;
  dotVertices: number;
  /** The value range, padded so no point sits on the edge. */
  lo: number;
  hi: number;
}

/** Share of the value span added above and below. */
const Y_PAD = 0.15;

/** The vertices of a sparkline; pure. */
export function sparkGeometry(points: readonly SparkPoint[], origin: number): SparkGeometry {
  const known = points.filter((p): p is { t: number; v: number } => p.v !== null && Number.isFinite(p.v));
  const dots = new Float32Array(known.length * 2);
  known.forEach((p, i) => dots.set([p.t - origin, p.v], i * 2));
  const segs: number[] = [];
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1]!;
    const b = points[i]!;
    if (a.v === null || b.v === null) continue;
    segs.push(a.t - origin, a.v, b.t - origin, b.v);
  }
  const values = known.map((p) => p.v);
  let lo = values.length ? Math.min(...values) : 0;
  let hi = values.length ? Math.max(...values) : 1;
  const span = hi - lo || Math.max(1, Math.abs(hi) * 0.1);
  lo -= span * Y_PAD;
  hi += span * Y_PAD;
  return { lines: new Float32Array(segs), lineVertices: segs.length / 2, dots, dotVertices: known.length, lo, hi };
}

/** The sparklines of one table, drawn into one canvas. */
export class SparklineBoard {
  private readonly renderer: ChartRenderer;
  private readonly blocks = new Map<string, ChartBlock>();

  constructor(canvas: HTMLCanvasElement) {
    this.renderer = new ChartRenderer(canvas);
  }

  /** Draws `points` into `el`'s box, over the days [t0, t1]. */
  set(id: string, el: HTMLElement, points: readonly SparkPoint[], range: { t0: number; t1: number }, color: Rgba): void {
    let block = this.blocks.get(id);
    if (!block) {
      block = this.renderer.addBlock(id);
      this.blocks.set(id, block);
    }
    block.el = el;
    block.fixedRange = range;
    const g = sparkGeometry(points, range.t0);
    block.yMin = g.lo;
    block.yMax = g.hi;
    this.renderer.setLayer(block, 'line', g.lines, g.lineVertices, { origin: range.t0, kind: 'line', color, clipY: false });
    this.renderer.setLayer(block, 'dots', g.dots, g.dotVertices, { origin: range.t0, kind: 'points', color, clipY: false });
  }

  drop(id: string): void {
    const block = this.blocks.get(id);
    if (!block) return;
    this.blocks.delete(id);
    this.renderer.removeBlock(block);
  }

  destroy(): void {
    this.blocks.clear();
    this.renderer.destroy();
  }
}
