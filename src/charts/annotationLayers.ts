// The annotation bands of a chart screen, laid out as fill layers: one layer per colour (and
// style) on each block whose channels a band is on. A new list of bands that differs from the
// one before in a few bands (an add, an edit, a delete: issue 36 point 1) changes only the
// layers those bands are in, and only those are written to the GPU again; a list that differs
// in many (a filter shown or hidden) is laid out again in one pass over the bands.
import { changedSpan } from './core/changedSpan';
import type { ChartBlock, Rgba } from './gl/block';

/** An annotation drawn as a coloured band on the blocks of its channels. */
export interface AnnotationBand {
  startMs: number;
  endMs: number;
  color: Rgba;
  /** Channel codes (IQ stands for I and Q). */
  codes: readonly string[];
  /** 'device': a device-scored event, drawn apart from users' bands (a solid strip along the top over a faint band). */
  style?: 'band' | 'device';
}

/** Device events: the strip's lower edge (clip space) and the faint band's opacity. */
const DEVICE_STRIP_FROM = 0.8;
const DEVICE_BAND_ALPHA = 0.12;
const DEVICE_STRIP_ALPHA = 0.9;

/** One layer a band is drawn in: its key, colour and vertical extent (clip space). */
interface Look {
  key: string;
  color: Rgba;
  y0: number;
  y1: number;
}

/**
 * The bands of one layer of one block, in start order, whether its buffer is out of date and,
 * when only some bands changed, the span of time they cover (ms).
 */
interface Group extends Look {
  bands: AnnotationBand[];
  dirty: boolean;
  changed: { t0: number; t1: number } | null;
}

/**
 * Writes a layer: the block, its key, the quads (x in ms from `origin`), their vertex count
 * and colour, and where its picture changed (undefined: anywhere).
 */
export type LayerSink = (block: ChartBlock, key: string, quads: Float32Array, vertices: number, color: Rgba, changed?: { t0: number; t1: number }) => void;

/** Whether two bands draw the same (an annotation's comment edited gives a new band drawn alike). */
const alike = (a: AnnotationBand, b: AnnotationBand) =>
  a.startMs === b.startMs && a.endMs === b.endMs && a.style === b.style && a.color.every((c, i) => c === b.color[i]) && a.codes.length === b.codes.length && a.codes.every((c, i) => c === b.codes[i]);

/** A changed stretch this long or longer is laid out again in full. */
const WHOLE = 512;

/** The layers a band is drawn in (worked out once per band object). */
function looksOf(a: AnnotationBand): Look[] {
  const tint = a.color.join(',');
  if (a.style !== 'device') return [{ key: `annotations-${tint}`, color: a.color, y0: -1, y1: 1 }];
  const [r, g, b] = a.color;
  return [
    { key: `annotations-device-band-${tint}`, color: [r, g, b, DEVICE_BAND_ALPHA], y0: -1, y1: 1 },
    { key: `annotations-device-strip-${tint}`, color: [r, g, b, DEVICE_STRIP_ALPHA], y0: DEVICE_STRIP_FROM, y1: 1 },
  ];
}

/** The first index of `bands` (in start order) whose start is after `t`. */
function after(bands: readonly AnnotationBand[], t: number): number {
  let lo = 0;
  let hi = bands.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (bands[mid].startMs <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class AnnotationLayers {
  private bands: readonly AnnotationBand[] = [];
  private readonly looks = new WeakMap<AnnotationBand, Look[]>();
  /** Each block's channel codes (with IQ, and I and Q for a block of either). */
  private readonly codes = new Map<ChartBlock, ReadonlySet<string>>();
  /** The blocks of each channel code. */
  private byCode = new Map<string, ChartBlock[]>();
  private readonly groups = new Map<ChartBlock, Map<string, Group>>();
  private scratch = new Float32Array(12 * 256);

  constructor(private readonly sink: LayerSink, private readonly origin: () => number) {}

  /** A block's channels (set again when its series change); its layers are laid out again. */
  setBlock(block: ChartBlock, seriesCodes: readonly string[]): void {
    const codes = new Set(seriesCodes);
    if (codes.has('I') || codes.has('Q')) codes.add('IQ');
    if (codes.has('IQ')) for (const c of ['I', 'Q']) codes.add(c);
    this.codes.set(block, codes);
    this.indexCodes();
    this.layOut([block]);
  }

  dropBlock(block: ChartBlock): void {
    this.codes.delete(block);
    this.groups.delete(block);
    this.indexCodes();
  }

  private indexCodes(): void {
    this.byCode = new Map();
    for (const [block, codes] of this.codes) {
      for (const c of codes) {
        const blocks = this.byCode.get(c);
        if (blocks) blocks.push(block);
        else this.byCode.set(c, [block]);
      }
    }
  }

  /** The bands to draw: only the layers of the bands that changed are written again when few did. */
  setBands(bands: readonly AnnotationBand[]): void {
    const prev = this.bands;
    this.bands = bands;
    const { from, prevEnd, nextEnd } = changedSpan(prev, bands);
    if (prevEnd - from + (nextEnd - from) >= WHOLE) {
      this.layOut([...this.codes.keys()]);
      return;
    }
    // The same bands again (as new objects): the layers hold the new ones, nothing is drawn anew.
    if (prevEnd - from === nextEnd - from && prev.slice(from, prevEnd).every((a, i) => alike(a, bands[from + i]))) {
      for (let i = from; i < prevEnd; i++) this.swap(prev[i], bands[i]);
      return;
    }
    for (let i = from; i < prevEnd; i++) this.place(prev[i], -1);
    for (let i = from; i < nextEnd; i++) this.place(bands[i], 1);
    for (const block of this.codes.keys()) this.flush(block);
  }

  private looksOf(a: AnnotationBand): Look[] {
    let looks = this.looks.get(a);
    if (!looks) this.looks.set(a, (looks = looksOf(a)));
    return looks;
  }

  /** Calls `f` once for each block the band is drawn on. */
  private eachBlock(a: AnnotationBand, f: (block: ChartBlock) => void): void {
    if (a.codes.length === 1) {
      for (const block of this.byCode.get(a.codes[0]) ?? []) f(block);
      return;
    }
    const seen = new Set<ChartBlock>();
    for (const c of a.codes) {
      for (const block of this.byCode.get(c) ?? []) {
        if (seen.has(block)) continue;
        seen.add(block);
        f(block);
      }
    }
  }

  /** Where a band is in a layer's bands (by reference, among those of its start); -1 when absent. */
  private static indexIn(bands: readonly AnnotationBand[], a: AnnotationBand): number {
    let i = after(bands, a.startMs) - 1;
    while (i >= 0 && bands[i] !== a && bands[i].startMs === a.startMs) i--;
    return i >= 0 && bands[i] === a ? i : -1;
  }

  /** Puts `next` where `was` is in its layers (the two are drawn alike). */
  private swap(was: AnnotationBand, next: AnnotationBand): void {
    this.eachBlock(was, (block) => {
      for (const look of this.looksOf(was)) {
        const g = this.groups.get(block)?.get(look.key);
        const i = g ? AnnotationLayers.indexIn(g.bands, was) : -1;
        if (g && i >= 0) g.bands[i] = next;
      }
    });
  }

  /** Adds (1) or takes away (-1) one band in the layers it is drawn in. */
  private place(a: AnnotationBand, by: 1 | -1): void {
    this.eachBlock(a, (block) => {
      let groups = this.groups.get(block);
      if (!groups) this.groups.set(block, (groups = new Map()));
      for (const look of this.looksOf(a)) {
        let g = groups.get(look.key);
        if (!g) groups.set(look.key, (g = { ...look, bands: [], dirty: false, changed: null }));
        // Where the layer's picture changed since it was last written (unknown stays unknown).
        if (!g.dirty) g.changed = { t0: a.startMs, t1: a.endMs };
        else if (g.changed) g.changed = { t0: Math.min(g.changed.t0, a.startMs), t1: Math.max(g.changed.t1, a.endMs) };
        if (by === 1) g.bands.splice(after(g.bands, a.startMs), 0, a);
        else {
          const i = AnnotationLayers.indexIn(g.bands, a);
          if (i >= 0) g.bands.splice(i, 1);
        }
        g.dirty = true;
      }
    });
  }

  /** Lays the blocks' layers out again from every band, writing those whose bands changed. */
  private layOut(blocks: readonly ChartBlock[]): void {
    const fresh = new Map<ChartBlock, Map<string, Group>>(blocks.map((b) => [b, new Map()]));
    for (const a of this.bands) {
      this.eachBlock(a, (block) => {
        const groups = fresh.get(block);
        if (!groups) return;
        for (const look of this.looksOf(a)) {
          let g = groups.get(look.key);
          if (!g) groups.set(look.key, (g = { ...look, bands: [], dirty: false, changed: null }));
          g.bands.push(a);
        }
      });
    }
    for (const [block, groups] of fresh) {
      const before = this.groups.get(block) ?? new Map<string, Group>();
      for (const [key, g] of before) if (!groups.has(key)) groups.set(key, { ...g, bands: [], dirty: true, changed: null });
      for (const [key, g] of groups) {
        const old = before.get(key);
        g.dirty = g.dirty || !old || old.dirty || old.bands.length !== g.bands.length || old.bands.some((b, i) => b !== g.bands[i]);
      }
      this.groups.set(block, groups);
      this.flush(block);
    }
  }

  /** Writes the block's changed layers: two triangles a band, the plot's height between y0 and y1. */
  private flush(block: ChartBlock): void {
    const groups = this.groups.get(block);
    if (!groups) return;
    const origin = this.origin();
    for (const g of groups.values()) {
      if (!g.dirty) continue;
      const changed = g.changed ?? undefined;
      g.dirty = false;
      g.changed = null;
      const floats = g.bands.length * 12;
      if (this.scratch.length < floats) this.scratch = new Float32Array(Math.max(floats, this.scratch.length * 2));
      const q = this.scratch;
      let i = 0;
      for (const a of g.bands) {
        const x0 = a.startMs - origin;
        const x1 = a.endMs - origin;
        q[i] = x0; q[i + 1] = g.y0; q[i + 2] = x1; q[i + 3] = g.y0; q[i + 4] = x1; q[i + 5] = g.y1;
        q[i + 6] = x0; q[i + 7] = g.y0; q[i + 8] = x1; q[i + 9] = g.y1; q[i + 10] = x0; q[i + 11] = g.y1;
        i += 12;
      }
      this.sink(block, g.key, q, floats / 2, g.color, changed);
    }
  }
}
