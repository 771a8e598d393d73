// A chart screen without React: one renderer, one shared view range, one feeder, the
// keyboard. Components register blocks and their series; a range change updates the
// renderer's uniforms and the feeder directly, never through a component render.
import type { ChannelRef } from '../../engine/index';
import type { TimeRange } from '../time/range';
import type { SeriesStyle } from './core/geometry';
import { buildBands } from './core/geometry';
import type { ChartBlock, Rgba } from './gl/block';
import { ChartRenderer, type RendererOptions } from './gl/renderer';
import { ViewFeeder, type FeedSeries, type ViewSource } from './feeder';
import { createViewStore, type ViewController } from '../state/view';
import { AnnotationLayers, type AnnotationBand } from './annotationLayers';

export type { AnnotationBand } from './annotationLayers';

/** One series of a block. */
export interface BlockSeries {
  ref: ChannelRef;
  style: SeriesStyle;
  color: Rgba;
  /** Steps: the channel's sample period, ms (a stage epoch's value holds that long). */
  holdMs?: number;
}

/** What a block draws besides its series. */
export interface BlockExtras {
  /** SQB channel whose bad-signal runs shade the block when artefacts are on. */
  artefacts?: ChannelRef | null;
}

const BAND_COLORS = {
  moderate: [0.98, 0.8, 0.1, 0.28] as Rgba,
  severe: [0.9, 0.15, 0.12, 0.22] as Rgba,
  artefact: [0.45, 0.5, 0.58, 0.22] as Rgba,
  /** Time a physician's manual correction leaves out of the analysis (outside bed times, invalid spans). */
  excluded: [0.22, 0.24, 0.3, 0.3] as Rgba,
  /** A span being looked at: a double scoring's disagreement under adjudication. */
  highlighted: [0.15, 0.45, 0.95, 0.2] as Rgba,
};

const BAND_SCRATCH = new Float32Array(12 * 8);

const ANNOTATION_ALPHA = 0.28;

/** #rrggbb as premultiplied-free RGBA with the band's alpha. */
export function bandColor(hex: string): Rgba {
  const n = Number.parseInt(hex.replace('#', ''), 16);
  return [((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255, ANNOTATION_ALPHA];
}

/** Two triangles per span, the plot's full height, x in ms from `origin`. */
function spanQuads(spans: ReadonlyArray<{ startMs: number; endMs: number }>, origin: number): Float32Array {
  const quads: number[] = [];
  for (const s of spans) {
    const x0 = s.startMs - origin;
    const x1 = s.endMs - origin;
    quads.push(x0, -1, x1, -1, x1, 1, x0, -1, x1, 1, x0, 1);
  }
  return Float32Array.from(quads);
}

export class ChartScreen {
  readonly view: ViewController;
  readonly renderer: ChartRenderer;
  readonly feeder: ViewFeeder;
  private readonly entries = new Map<ChartBlock, { series: BlockSeries[]; extras: BlockExtras }>();
  private plotWidth = 0;
  private flags = { thresholds: false, artefacts: false };
  private readonly annotations: AnnotationLayers;
  private excluded: ReadonlyArray<{ startMs: number; endMs: number }> = [];
  private highlighted: ReadonlyArray<{ startMs: number; endMs: number }> = [];
  private readonly unsubscribe: () => void;
  private destroyed = false;

  /** `makeRenderer`: the WebGL renderer unless a test passes one that records what it is asked. */
  constructor(canvas: HTMLCanvasElement, source: ViewSource, domain: TimeRange, options: RendererOptions = {}, makeRenderer = (c: HTMLCanvasElement, o: RendererOptions) => new ChartRenderer(c, o)) {
    this.view = createViewStore(domain);
    this.renderer = makeRenderer(canvas, { lowLatency: true, ...options, isComplete: () => this.feeder.covers(), arriving: () => this.feeder.arriving() });
    this.feeder = new ViewFeeder(source, this.renderer, () => this.view.store.state.domain, () => this.plotWidth);
    this.annotations = new AnnotationLayers(
      (block, key, quads, vertices, color, changed) => this.renderer.setLayer(block, key, quads, vertices, { origin: this.view.store.state.domain.t0, kind: 'fill', color, clipY: true }, changed),
      () => this.view.store.state.domain.t0,
    );
    // A range the buffers hold is drawn in the task that changed it (a pan, a scrub, a page step,
    // a zoom back): it reaches the screen with the next composite, not an animation frame later.
    this.unsubscribe = this.view.onRange((range) => {
      this.feeder.update(range);
      this.renderer.drawNow();
    });
    this.feeder.update(this.view.store.state.range);
  }

  /** Width of the plot areas in CSS pixels; columns follow it. */
  setPlotWidth(width: number): void {
    const w = Math.round(width);
    if (w === this.plotWidth || w < 1) return;
    this.plotWidth = w;
    this.feeder.resized();
    for (const l of this.widthListeners) l();
  }

  private readonly widthListeners = new Set<() => void>();

  /** Hears about each change of the plot width (after the feeder heard of it). */
  onWidth(listener: () => void): () => void {
    this.widthListeners.add(listener);
    return () => this.widthListeners.delete(listener);
  }

  get width(): number {
    return this.plotWidth;
  }

  /** Registers or replaces what a block draws. */
  setBlock(block: ChartBlock, series: BlockSeries[], extras: BlockExtras = {}): void {
    this.entries.set(block, { series, extras });
    this.refeed();
    this.annotations.setBlock(block, series.map((x) => x.ref.code));
    this.drawExcluded(block);
    this.drawHighlighted(block);
  }

  /** Spans to point at on every block (a disagreement under adjudication); none clears them. */
  setHighlighted(spans: ReadonlyArray<{ startMs: number; endMs: number }>): void {
    this.highlighted = spans;
    for (const block of this.entries.keys()) this.drawHighlighted(block);
  }

  private drawHighlighted(block: ChartBlock): void {
    const origin = this.view.store.state.domain.t0;
    const quads = spanQuads(this.highlighted, origin);
    this.renderer.setLayer(block, 'highlight', quads, quads.length / 2, { origin, kind: 'fill', color: BAND_COLORS.highlighted, clipY: true });
  }

  /** Spans left out of the night's analysis (manual corrections, outside a PSG night's lights markers): shaded on every block. */
  setExcluded(spans: ReadonlyArray<{ startMs: number; endMs: number }>): void {
    this.excluded = spans;
    for (const block of this.entries.keys()) this.drawExcluded(block);
  }

  private drawExcluded(block: ChartBlock): void {
    const origin = this.view.store.state.domain.t0;
    const quads = spanQuads(this.excluded, origin);
    this.renderer.setLayer(block, 'corrections', quads, quads.length / 2, { origin, kind: 'fill', color: BAND_COLORS.excluded, clipY: true });
  }

  /** The annotations to draw, as bands on the blocks of their channels (only what changed is written again). */
  setAnnotations(bands: readonly AnnotationBand[]): void {
    this.annotations.setBands(bands);
  }

  /**
   * Value axis of a block: `auto` follows the visible window (eased, never clipping),
   * otherwise the block keeps the yMin/yMax its owner set.
   */
  setAutoY(block: ChartBlock, auto: boolean): void {
    if (block.yAuto !== auto) block.yTarget = null;
    block.yAuto = auto;
    if (auto) this.feeder.autoscale();
    this.renderer.requestFrame();
  }

  /** Forgets a block (its component unmounted). */
  dropBlock(block: ChartBlock): void {
    this.entries.delete(block);
    this.annotations.dropBlock(block);
    this.renderer.removeBlock(block);
    if (!this.destroyed) this.refeed();
  }

  /** Threshold bands of a block (value ranges); shown when thresholds are on. */
  setBands(block: ChartBlock, moderate: readonly (readonly [number, number])[], severe: readonly (readonly [number, number])[]): void {
    for (const [key, ranges, color] of [['bands-moderate', moderate, BAND_COLORS.moderate], ['bands-severe', severe, BAND_COLORS.severe]] as const) {
      const n = buildBands(ranges, BAND_SCRATCH);
      this.renderer.setLayer(block, key, BAND_SCRATCH, n, { origin: null, kind: 'fill', color, clipY: false, visible: this.flags.thresholds });
    }
  }

  /** Thresholds and artefacts toggles: layer visibility only, no refetch. */
  setFlags(flags: { thresholds: boolean; artefacts: boolean }): void {
    this.flags = flags;
    for (const block of this.entries.keys()) {
      this.renderer.setVisible(block, 'bands-moderate', flags.thresholds);
      this.renderer.setVisible(block, 'bands-severe', flags.thresholds);
    }
    this.feeder.setVisible('artefacts', flags.artefacts);
  }

  private refeed(): void {
    const list: FeedSeries[] = [];
    for (const [block, { series, extras }] of this.entries) {
      if (extras.artefacts) {
        list.push({ block, key: 'artefacts', ref: extras.artefacts, style: 'runs', color: BAND_COLORS.artefact, visible: this.flags.artefacts });
      }
      series.forEach((s, i) => list.push({ block, key: `series-${i}`, ref: s.ref, style: s.style, color: s.color, holdMs: s.holdMs }));
    }
    this.feeder.setSeries(list);
  }

  /** Releases the WebGL context. */
  destroy(): void {
    this.destroyed = true;
    this.unsubscribe();
    this.renderer.destroy();
  }
}
