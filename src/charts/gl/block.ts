// A chart block as the renderer sees it: a DOM box to draw into, a time range, a value
// range and layers of persistent GPU buffers. Framework-free; React components own one.
import type { TimeRange } from '../../time/range';
import type { SeriesStyle } from '../core/geometry';

/** RGBA, 0..1. */
export type Rgba = readonly [number, number, number, number];

/** One GPU buffer of vertices and how to draw it. */
export interface Layer {
  /** The GPU buffer (null before WebGL is made, or when the context could not make one). */
  buffer: WebGLBuffer | null;
  /** The vertices kept for a 2D draw while WebGL is not made yet; null once in the buffer. */
  data: Float32Array | null;
  /** Floats the buffer can hold. */
  capacity: number;
  vertices: number;
  /** float64 ms the buffer's x values are relative to; null: x is already in clip space (bands). */
  origin: number | null;
  /** lines and steps are LINES; points are POINTS; fills are TRIANGLES. */
  kind: SeriesStyle | 'fill';
  color: Rgba;
  /** Fills drawn in a fixed -1..1 value space (artefact runs) instead of the block's value range. */
  clipY: boolean;
  visible: boolean;
}

/** Where and what one block draws. */
export class ChartBlock {
  /** The plot area; the renderer reads its box each frame. */
  el: HTMLElement | null = null;
  /**
   * An element around the plot that hides what overflows it (a live tile): the block draws
   * only inside its padding box, as the page shows the tile's own content. Null: no bound.
   */
  clip: HTMLElement | null = null;
  /** The x-range drawn; null follows the renderer's shared range. */
  fixedRange: TimeRange | null = null;
  yMin = 0;
  yMax = 1;
  /** Follow the visible data: the feeder sets `yTarget`, the renderer eases toward it. */
  yAuto = false;
  /** The value range the visible samples need (already padded); null: none known yet. */
  yTarget: readonly [number, number] | null = null;
  /** Hears the value range drawn, once per frame it changes (axis labels, outside React). */
  onY: ((lo: number, hi: number) => void) | null = null;
  /** The last range handed to `onY`. */
  yShown: readonly [number, number] | null = null;
  /**
   * The colour the block's box is cleared to before its layers draw; null leaves the box
   * transparent (the page shows through, and so do DOM overlays under the canvas).
   */
  background: Rgba | null = null;
  /** Layers in drawing order (bands and artefacts first, then series). */
  readonly layers = new Map<string, Layer>();
  /** Counts every change of what its layers draw (a layer written, shown or hidden): a 2D frame redraws only blocks whose count, box or ranges changed. */
  revision = 0;
  constructor(readonly id: string) {}
}
