// Feeds engine views to the renderer. It asks the engine for the visible window plus two
// windows on each side, aligned to the column grid, and asks again in the background
// as soon as less than EDGE_WINDOWS are left on a side: a 30-s epoch step (one whole
// window) is always drawn at once from buffers already on the GPU (only uniforms change)
// while the next margin is computed in the worker. One request is in flight at a time, but
// for a range the buffers miss (a zoom, a jump), which does not wait behind margins being
// fetched in the background; the latest range wins. Each channel's view is kept with its own
// window, so a channel that arrives while others are drawn is fetched alone and nothing drawn
// is thrown away.
import type { ChannelRef, ViewResult } from '../../engine/index';
import type { ChartRenderer } from './gl/renderer';
import type { ChartBlock, Rgba } from './gl/block';
import { buildRuns, buildVertices, maxFloats, type M4Columns, type SeriesStyle } from './core/geometry';
import { span, type TimeRange } from '../time/range';

/** The part of the signal API the feeder needs (workers/protocol.ts SignalApi.views). */
export interface ViewSource {
  views(refs: readonly ChannelRef[], t0: number, t1: number, pixels: number): Promise<ViewResult[]>;
}

/** One thing drawn from one channel into one block. */
export interface FeedSeries {
  block: ChartBlock;
  /** Layer key inside the block. */
  key: string;
  ref: ChannelRef;
  /** 'runs': shade columns below 0.5 (SQB artefacts) instead of drawing a line. */
  style: SeriesStyle | 'runs';
  color: Rgba;
  visible?: boolean;
  /** Steps: how long each sample's value holds (the channel's sample period), ms; 0 or absent: unknown. */
  holdMs?: number;
}

interface Fetched extends TimeRange {
  pxMs: number;
}

/** Windows fetched on each side of the visible one. */
const MARGIN_WINDOWS = 2;
/** A side with less than this many windows left is refetched (more than one epoch step). */
const EDGE_WINDOWS = 1.25;
/**
 * How long an animation frame waits for views of a range the buffers miss before it draws
 * the old ones stretched, ms: one display frame at 60 Hz.
 */
const ARRIVAL_WAIT_MS = 16.7;
/**
 * After the views of a zoom were asked for, how long their margins wait, ms: a zoom is often
 * followed by another, whose views must not queue behind margins nobody will see.
 */
const MARGIN_DELAY_MS = 120;

/** A window the feeder asks for: its span, its columns and their width in ms. */
export interface FetchWindow {
  t0: number;
  t1: number;
  pixels: number;
  pxMs: number;
}

/**
 * The window the feeder asks for when `range` of a night (`domain`) is shown on plots
 * `width` CSS pixels wide: MARGIN_WINDOWS each side, on the column grid, inside the night.
 * Pure, so a page can ask for a full-night overview before its charts exist.
 */
export function fetchWindow(domain: TimeRange, range: TimeRange, width: number, margins = MARGIN_WINDOWS): FetchWindow {
  const w = span(range);
  const pxMs = w / Math.max(1, Math.round(width));
  const t0 = Math.max(domain.t0, domain.t0 + Math.floor((range.t0 - margins * w - domain.t0) / pxMs) * pxMs);
  const t1 = Math.min(domain.t1, range.t1 + margins * w);
  const pixels = Math.min(100_000, Math.max(1, Math.ceil((t1 - t0) / pxMs)));
  return { t0, t1: t0 + pixels * pxMs, pixels, pxMs };
}

const refKey = (r: ChannelRef) => `${r.night}\u0000${r.code}`;

export class ViewFeeder {
  private series: FeedSeries[] = [];
  private fixed: FeedSeries[] = [];
  /** The window and resolution of each channel's latest view. */
  private readonly windows = new Map<string, Fetched>();
  /** Which channel's view each layer holds now (a series new to a layer is drawn from `latest`). */
  private readonly drawn = new WeakMap<ChartBlock, Map<string, string>>();
  /** Requests in flight: at most one, or a background one (margins) and one for a range the buffers missed. */
  private inflight = 0;
  /** Whether the request in flight is a background one (margins of a range already drawn). */
  private backgroundInflight = false;
  /** Requests asked for so far (each one's number). */
  private requests = 0;
  /** When the views of a range the buffers missed were asked for, while that request is in flight. */
  private missingSince: number | null = null;
  /** Margins are not asked for before this time (performance.now()), nor a timer set twice. */
  private marginsAfter = 0;
  private marginTimer: ReturnType<typeof setTimeout> | null = null;
  private generation = 0;
  private scratch = new Float32Array(0);
  private range: TimeRange = { t0: 0, t1: 1 };
  /** Latest view of each channel, for tooltips. */
  readonly latest = new Map<string, ViewResult>();
  private listeners = new Set<() => void>();

  constructor(
    private readonly source: ViewSource,
    private readonly renderer: ChartRenderer,
    private readonly domain: () => TimeRange,
    /** Width of the plots in CSS pixels (all blocks share it). */
    private readonly width: () => number,
  ) {}

  /**
   * Replaces what is drawn. Series whose channel already has a view are drawn from it at
   * once; only channels without one are fetched. Blocks with a fixed range (the overview)
   * are fetched once for it.
   */
  setSeries(series: FeedSeries[]): void {
    this.series = series.filter((s) => !s.block.fixedRange);
    this.fixed = series.filter((s) => s.block.fixedRange);
    for (const s of this.series) {
      const view = this.latest.get(refKey(s.ref));
      if (view && this.drawn.get(s.block)?.get(s.key) !== refKey(s.ref)) this.draw(s, view);
    }
    this.autoscale();
    this.generation++;
    this.schedule();
    void this.fetchFixed();
  }

  /** Series of fixed-range blocks: one view of their whole range, refetched only when they change. */
  private async fetchFixed(): Promise<void> {
    const generation = this.generation;
    const columns = Math.round(this.width());
    if (columns < 1) return;
    for (const s of this.fixed) {
      const r = s.block.fixedRange!;
      try {
        const [view] = await this.source.views([s.ref], r.t0, r.t1, columns);
        if (generation !== this.generation || !view) return;
        this.draw(s, view);
      } catch (error) {
        console.warn('Chart data could not be computed', error);
      }
    }
  }

  /** Puts a view into a series' layer; `same`: it shows the columns already on screen again (new margins only). */
  private draw(s: FeedSeries, view: ViewResult, same = false): void {
    const need = maxFloats(view.pixels);
    if (this.scratch.length < need) this.scratch = new Float32Array(need);
    const runs = s.style === 'runs';
    const cols = view as M4Columns;
    const n = runs ? buildRuns(cols, 0.5, this.scratch) : buildVertices(cols, s.style as SeriesStyle, this.scratch, s.holdMs);
    this.renderer.setLayer(s.block, s.key, this.scratch, n, {
      origin: view.origin,
      kind: runs ? 'fill' : (s.style as SeriesStyle),
      color: s.color,
      clipY: runs,
      visible: s.visible ?? true,
    }, same ? null : undefined);
    let layers = this.drawn.get(s.block);
    if (!layers) this.drawn.set(s.block, (layers = new Map()));
    layers.set(s.key, refKey(s.ref));
  }

  /** Shows or hides every layer with this key (threshold and artefact toggles). */
  setVisible(key: string, visible: boolean): void {
    for (const s of [...this.series, ...this.fixed]) {
      if (s.key === key) {
        s.visible = visible;
        this.renderer.setVisible(s.block, s.key, visible);
      }
    }
  }

  /** A new shared range: draw now with what the GPU has, fetch what is missing. */
  update(range: TimeRange): void {
    this.range = range;
    this.renderer.range = range;
    this.autoscale();
    this.renderer.requestFrame();
    if (this.stale(range).length > 0) this.schedule();
  }

  /** The plot width changed: the columns must be recomputed. */
  resized(): void {
    this.windows.clear();
    this.generation++;
    this.schedule();
    void this.fetchFixed();
  }

  /**
   * Whether the views of a range the buffers miss were asked for less than a frame ago and
   * have not arrived: the renderer's animation frame waits for them (RendererOptions.arriving).
   */
  arriving(): boolean {
    return this.missingSince !== null && performance.now() - this.missingSince < ARRIVAL_WAIT_MS;
  }

  /** Whether the buffers hold `range` at its own resolution (the frame is final). */
  covers(range: TimeRange = this.range): boolean {
    const pxMs = this.pxMs(range);
    return this.refs().every((ref) => holds(this.windows.get(refKey(ref)), range, pxMs));
  }

  /** Whether a channel's view (by its ref) is held for `range`: the engine's data, not a stretched older view. */
  holds(ref: ChannelRef, range: TimeRange = this.range): boolean {
    return holds(this.windows.get(refKey(ref)), range, this.pxMs(range));
  }

  /** Hears about each arrival of data (tooltips, tests). */
  onData(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private pxMs(range: TimeRange): number {
    return span(range) / Math.max(1, Math.round(this.width()));
  }

  /** The channels drawn over the shared range, once each. */
  private refs(): ChannelRef[] {
    const refs = new Map<string, ChannelRef>();
    for (const s of this.series) refs.set(refKey(s.ref), s.ref);
    return [...refs.values()];
  }

  /** Channels whose view misses `range` or nears the edge of its margin. */
  private stale(range: TimeRange): ChannelRef[] {
    const pxMs = this.pxMs(range);
    const d = this.domain();
    const margin = span(range) * EDGE_WINDOWS;
    return this.refs().filter((ref) => {
      const f = this.windows.get(refKey(ref));
      if (!holds(f, range, pxMs)) return true;
      // A fetched edge within a column of the night's edge is the night's edge.
      return (range.t0 - f!.t0 < margin && f!.t0 > d.t0 + f!.pxMs) || (f!.t1 - range.t1 < margin && f!.t1 < d.t1 - f!.pxMs);
    });
  }

  /** The window the feeder asks the engine for when `range` is shown (a full-night overview is made for it). */
  windowFor(range: TimeRange): { t0: number; t1: number; pixels: number } {
    const { t0, t1, pixels } = this.target(range);
    return { t0, t1, pixels };
  }

  /** The window to fetch for `range` at the plots' width. */
  private target(range: TimeRange): FetchWindow {
    return fetchWindow(this.domain(), range, this.width());
  }

  private schedule(): void {
    // Only a range the buffers miss overtakes a request in flight, and only a background one.
    if (this.inflight > 0 && !(this.inflight === 1 && this.backgroundInflight)) return;
    if (this.series.length === 0 || this.width() < 1) return;
    const stale = this.stale(this.range);
    if (stale.length === 0) return;
    // Whether channels drawn before miss the range (a zoom, a jump); the channels fetched with
    // them below hold it (they are not stale), so this is true of that whole list as well.
    const missing = this.missing(stale);
    if (this.inflight > 0 && !missing) return;
    const wait = this.marginsAfter - performance.now();
    if (wait > 0 && !missing) {
      this.marginTimer ??= setTimeout(() => {
        this.marginTimer = null;
        this.schedule();
      }, wait);
      return;
    }
    // Channels that only arrived are fetched alone; a moved range refetches every channel together.
    const list = stale.some((ref) => this.windows.has(refKey(ref))) ? this.refs() : stale;
    this.inflight++;
    if (!missing) this.backgroundInflight = true;
    void this.fetch(list, missing, ++this.requests).finally(() => {
      this.inflight--;
      if (missing) this.missingSince = null;
      else this.backgroundInflight = false;
      // The range moved on, or channels arrived while computing: fetch again.
      this.schedule();
    });
  }

  /** Whether some of these channels were drawn before and their views miss the range (a zoom, a jump). */
  private missing(list: readonly ChannelRef[]): boolean {
    const pxMs = this.pxMs(this.range);
    return list.some((ref) => {
      const f = this.windows.get(refKey(ref));
      return f !== undefined && !holds(f, this.range, pxMs);
    });
  }

  /** Whether some of these channels' views are at another scale than the range's (a zoom). */
  private rescaled(list: readonly ChannelRef[]): boolean {
    const pxMs = this.pxMs(this.range);
    return list.some((ref) => {
      const f = this.windows.get(refKey(ref));
      return f !== undefined && Math.abs(f.pxMs - pxMs) > pxMs * 0.01;
    });
  }

  /**
   * `missing`: channels drawn before whose views miss the range (a zoom, a jump): the visible
   * window alone first, a fifth of the columns to compute, carry and upload; its margins follow
   * (after a zoom, MARGIN_DELAY_MS later). A channel new to the screen gets its margins at once.
   * `request`: this request's number (only a background request is ever overtaken).
   */
  private async fetch(list: ChannelRef[], missing: boolean, request: number): Promise<void> {
    // Margins wait after a zoom only: a jump at the same scale is often followed by a pan.
    if (missing && this.rescaled(list)) this.marginsAfter = performance.now() + MARGIN_DELAY_MS;
    const target = fetchWindow(this.domain(), this.range, this.width(), missing ? 0 : MARGIN_WINDOWS);
    const window = { t0: target.t0, t1: target.t1, pxMs: target.pxMs };
    let views: ViewResult[];
    if (missing) this.missingSince = performance.now();
    try {
      views = await this.source.views(list, target.t0, target.t1, target.pixels);
    } catch (error) {
      console.warn('Chart data could not be computed', error);
      // Not asked again for this window (an endless retry loop otherwise).
      for (const ref of list) this.windows.set(refKey(ref), window);
      return;
    }
    // Margins overtaken by a zoom or a jump (a newer request): the screen has moved on, and
    // drawing them would only delay the newer views behind an upload nobody sees.
    if (request < this.requests) return;
    const byRef = new Map<string, ViewResult>();
    list.forEach((ref, i) => byRef.set(refKey(ref), views[i]!));
    // Channels whose old view and new one both hold the range at its columns: what is on
    // screen stays as it is (a margin fetched in the background), so no frame is asked for.
    const rangePxMs = this.pxMs(this.range);
    const same = new Set<string>();
    for (const [key, view] of byRef) {
      const old = this.windows.get(key);
      if (old && Math.abs(old.pxMs - window.pxMs) <= window.pxMs * 1e-9 && holds(old, this.range, rangePxMs) && holds(window, this.range, rangePxMs)) same.add(key);
      this.latest.set(key, view);
      this.windows.set(key, window);
    }
    // Whatever changed meanwhile, a view is true for its window: draw it into every series of its channel.
    for (const s of this.series) {
      const key = refKey(s.ref);
      const view = byRef.get(key);
      if (view) this.draw(s, view, same.has(key) && this.drawn.get(s.block)?.get(s.key) === key);
    }
    this.autoscale();
    for (const l of this.listeners) l();
    // Views that complete the range are drawn as they arrive, not an animation frame later.
    this.renderer.drawNow();
  }

  /**
   * Value targets of auto-scaled blocks: the engine's min and max of every column of the
   * visible window (one column of slack each side, so an edge sample is never clipped),
   * padded by 6 %. O(visible columns) per block; no engine call.
   */
  autoscale(): void {
    const bounds = new Map<ChartBlock, [number, number]>();
    const { t0, t1 } = this.range;
    for (const s of this.series) {
      if (!s.block.yAuto || s.style === 'runs') continue;
      const view = this.latest.get(refKey(s.ref));
      if (!view) continue;
      const b = bounds.get(s.block) ?? [Infinity, -Infinity];
      const from = Math.max(0, Math.floor((t0 - view.origin) / view.pxMs) - 1);
      const to = Math.min(view.pixels - 1, Math.ceil((t1 - view.origin) / view.pxMs) + 1);
      for (let i = from; i <= to; i++) {
        const lo = view.min[i]!;
        const hi = view.max[i]!;
        if (lo === lo && lo < b[0]) b[0] = lo;
        if (hi === hi && hi > b[1]) b[1] = hi;
      }
      bounds.set(s.block, b);
    }
    for (const [block, [lo, hi]] of bounds) {
      if (!(lo <= hi)) continue;
      const pad = hi - lo < 1e-9 ? Math.max(1, Math.abs(hi) * 0.05) : (hi - lo) * 0.06;
      const target: [number, number] = [lo - pad, hi + pad];
      const old = block.yTarget;
      if (old && old[0] === target[0] && old[1] === target[1]) continue;
      block.yTarget = target;
      this.renderer.requestFrame();
    }
  }

  /** The latest view of a channel (tooltips). */
  viewOf(ref: ChannelRef): ViewResult | undefined {
    return this.latest.get(refKey(ref));
  }
}

/** Whether a view's window holds `range` at the resolution `pxMs`. */
function holds(f: Fetched | undefined, range: TimeRange, pxMs: number): boolean {
  return f !== undefined && f.t0 <= range.t0 + 1e-3 && f.t1 >= range.t1 - 1e-3 && Math.abs(f.pxMs - pxMs) <= pxMs * 0.01;
}
