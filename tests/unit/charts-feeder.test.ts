import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChannelRef, ViewResult } from '../../engine/index';
import { ViewFeeder, type ViewSource } from '../../src/charts/feeder';
import { ChartBlock } from '../../src/charts/gl/block';
import type { ChartRenderer } from '../../src/charts/gl/renderer';

const H = 3_600_000;
const night = { t0: 1_700_000_000_000, t1: 1_700_000_000_000 + 10 * H };
const WIDTH = 1000;

/** A source that answers flat views and records every request. */
function fakeSource() {
  const asked: { t0: number; t1: number; pixels: number; refs: number }[] = [];
  let pending: (() => void)[] = [];
  const source: ViewSource = {
    views(refs: readonly ChannelRef[], t0: number, t1: number, pixels: number) {
      asked.push({ t0, t1, pixels, refs: refs.length });
      const make = (): ViewResult => {
        const col = () => new Float32Array(pixels).fill(1);
        const x = Float32Array.from({ length: pixels }, (_, i) => ((i + 0.5) * (t1 - t0)) / pixels);
        return { origin: t0, pixels, pxMs: (t1 - t0) / pixels, x, first: col(), min: col(), max: col(), last: col(), flags: new Uint8Array(pixels), buffer: new ArrayBuffer(0) } as unknown as ViewResult;
      };
      return new Promise((resolve) => {
        pending.push(() => resolve(refs.map(make)));
      });
    },
  };
  /** Answers the requests in flight and lets the feeder react. */
  const answer = async () => {
    const now = pending;
    pending = [];
    for (const r of now) r();
    // The feeder reacts in promise callbacks only (no timers): a turn of the event loop runs them all.
    await new Promise((r) => setImmediate(r));
  };
  return { source, asked, answer };
}

/** The renderer surface the feeder uses, without WebGL. */
function fakeRenderer() {
  const layers: string[] = [];
  /** Layers written that change the screen (the renderer asks for a frame for each). */
  const changes: string[] = [];
  let frames = 0;
  const renderer = {
    range: night,
    setLayer: (_b: ChartBlock, key: string, _d: Float32Array, _n: number, _s: unknown, changed?: unknown) => {
      layers.push(key);
      if (changed !== null) changes.push(key);
    },
    setVisible: () => undefined,
    requestFrame: () => { frames++; },
    drawNow: () => undefined,
  };
  return { renderer: renderer as unknown as ChartRenderer, layers, changes, frames: () => frames };
}

function setup(start = night) {
  const src = fakeSource();
  const gl = fakeRenderer();
  const feeder = new ViewFeeder(src.source, gl.renderer, () => night, () => WIDTH);
  feeder.update(start);
  const block = new ChartBlock('BR');
  feeder.setSeries([
    { block, key: 'series-0', ref: { night: 'n', code: 'BR' }, style: 'line', color: [0, 0, 0, 1] },
    { block, key: 'artefacts', ref: { night: 'n', code: 'SQB' }, style: 'runs', color: [0, 0, 0, 1] },
  ]);
  return { ...src, ...gl, feeder };
}

describe('view feeder', () => {
  it('asks for the window plus two windows each side, on the column grid, two channels in one call', async () => {
    const w = { t0: night.t0 + 5 * H, t1: night.t0 + 5 * H + 30_000 };
    const { feeder, asked, answer } = setup(w);
    await answer();
    expect(asked).toHaveLength(1);
    const last = asked.at(-1)!;
    expect(last.refs).toBe(2);
    expect(last.t0).toBeCloseTo(w.t0 - 2 * 30_000, 3);
    expect(last.pixels).toBe(5 * WIDTH);
    expect(feeder.covers(w)).toBe(true);
  });

  it('pages from the buffers already drawn: a step needs no data, only a frame', async () => {
    let w = { t0: night.t0 + 5 * H, t1: night.t0 + 5 * H + 30_000 };
    const { feeder, asked, answer, frames } = setup(w);
    await answer();
    const requests = asked.length;
    const drawn = frames();
    w = { t0: w.t0 + 6_000, t1: w.t1 + 6_000 };
    feeder.update(w);
    expect(feeder.covers(w)).toBe(true);
    expect(frames()).toBe(drawn + 1);
    expect(asked.length).toBe(requests);
  });

  it('refetches in the background near the edge of the buffers, one request at a time', async () => {
    let w = { t0: night.t0 + 5 * H, t1: night.t0 + 5 * H + 30_000 };
    const { feeder, asked, answer } = setup(w);
    await answer();
    const requests = asked.length;
    for (let i = 0; i < 4; i++) {
      w = { t0: w.t0 + 6_000, t1: w.t1 + 6_000 };
      feeder.update(w);
    }
    expect(asked.length).toBe(requests + 1);
    expect(feeder.covers(w)).toBe(true);
    await answer();
    expect(asked.at(-1)!.t0).toBeCloseTo(w.t0 - 2 * 30_000, 3);
  });

  it('steps a whole 30-s epoch either way from the buffers, and has the next epoch computed before the next step', async () => {
    let w = { t0: night.t0 + 5 * H, t1: night.t0 + 5 * H + 30_000 };
    const { feeder, asked, answer } = setup(w);
    await answer();
    for (const direction of [1, 1, 1, -1, -1, -1, -1]) {
      const requests = asked.length;
      w = { t0: w.t0 + direction * 30_000, t1: w.t1 + direction * 30_000 };
      feeder.update(w);
      // Drawn from what the GPU holds: the step waits on nothing.
      expect(feeder.covers(w)).toBe(true);
      // The margin beyond the step is asked for at once, in the background.
      expect(asked.length).toBe(requests + 1);
      await answer();
      const next = { t0: w.t0 + direction * 30_000, t1: w.t1 + direction * 30_000 };
      expect(feeder.covers(next)).toBe(true);
    }
  });

  it('draws the channels it has while others arrive, fetching only the new one', async () => {
    const w = { t0: night.t0 + 5 * H, t1: night.t0 + 5 * H + 30_000 };
    const { feeder, asked, answer, layers } = setup(w);
    const hr = new ChartBlock('HR');
    // HR arrives while BR and SQB are being computed: what was asked for is still drawn.
    feeder.setSeries([
      { block: new ChartBlock('BR'), key: 'series-0', ref: { night: 'n', code: 'BR' }, style: 'line', color: [0, 0, 0, 1] },
      { block: hr, key: 'series-0', ref: { night: 'n', code: 'HR' }, style: 'line', color: [0, 0, 0, 1] },
    ]);
    await answer();
    expect(layers).toContain('series-0');
    expect(asked.map((a) => a.refs)).toEqual([2, 1]);
    await answer();
    expect(feeder.covers(w)).toBe(true);
  });

  it('needs new data after a zoom, and says so until it arrives', async () => {
    const { feeder, answer } = setup(night);
    await answer();
    const zoomed = { t0: night.t0 + H, t1: night.t0 + H + 180_000 };
    feeder.update(zoomed);
    expect(feeder.covers(zoomed)).toBe(false);
    await answer();
    expect(feeder.covers(zoomed)).toBe(true);
  });
});

describe('view feeder, zooms and jumps', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('asks for the visible window alone after a zoom, then its margins in the background a moment later', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const { feeder, asked, answer } = setup(night);
    await answer();
    const zoomed = { t0: night.t0 + H, t1: night.t0 + H + 180_000 };
    feeder.update(zoomed);
    const urgent = asked.at(-1)!;
    // The renderer's animation frame waits for them rather than stretch the old columns.
    expect(feeder.arriving()).toBe(true);
    expect(urgent.pixels).toBeLessThanOrEqual(WIDTH + 1);
    expect(urgent.t0).toBeLessThanOrEqual(zoomed.t0);
    expect(urgent.t0).toBeGreaterThan(zoomed.t0 - 180);
    await answer();
    expect(feeder.covers(zoomed)).toBe(true);
    expect(feeder.arriving()).toBe(false);
    // The margins, two windows each side, wait: another zoom's views would queue behind them.
    const requests = asked.length;
    vi.advanceTimersByTime(50);
    expect(asked.length).toBe(requests);
    // Another zoom meanwhile is asked for at once.
    const closer = { t0: zoomed.t0, t1: zoomed.t0 + 60_000 };
    feeder.update(closer);
    expect(asked.length).toBe(requests + 1);
    await answer();
    vi.advanceTimersByTime(200);
    expect(asked.length).toBe(requests + 2);
    expect(asked.at(-1)!.pixels).toBe(5 * WIDTH);
    await answer();
    const stepped = { t0: closer.t0 + 60_000, t1: closer.t1 + 60_000 };
    expect(feeder.covers(stepped)).toBe(true);
  });

  it('asks for the margins of a jump at the same scale as soon as its visible window arrived (a pan follows)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const w = { t0: night.t0 + 2 * H, t1: night.t0 + 2 * H + 60_000 };
    const { feeder, asked, answer } = setup(w);
    await answer();
    const jumped = { t0: w.t0 + 3 * H, t1: w.t1 + 3 * H };
    feeder.update(jumped);
    expect(asked.at(-1)!.pixels).toBeLessThanOrEqual(WIDTH + 1);
    const requests = asked.length;
    await answer();
    expect(asked.length).toBe(requests + 1);
    expect(asked.at(-1)!.pixels).toBe(5 * WIDTH);
  });

  it('does not keep a zoom waiting behind margins being fetched in the background, and drops those margins', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    let w = { t0: night.t0 + 5 * H, t1: night.t0 + 5 * H + 30_000 };
    const { feeder, asked, answer, layers } = setup(w);
    await answer();
    // Paging near the buffers' edge: their margins are asked for in the background.
    for (let i = 0; i < 4; i++) {
      w = { t0: w.t0 + 6_000, t1: w.t1 + 6_000 };
      feeder.update(w);
    }
    const requests = asked.length;
    expect(asked.at(-1)!.pixels).toBe(5 * WIDTH);
    // A zoom while they are on their way is asked for at once, its visible window alone.
    const zoomed = { t0: w.t0, t1: w.t0 + 60_000 };
    feeder.update(zoomed);
    expect(asked.length).toBe(requests + 1);
    expect(asked.at(-1)!.pixels).toBeLessThanOrEqual(WIDTH + 1);
    expect(feeder.arriving()).toBe(true);
    // Nothing more while both are in flight (a second zoom waits for the first's views).
    feeder.update({ t0: w.t0, t1: w.t0 + 120_000 });
    expect(asked.length).toBe(requests + 1);
    feeder.update(zoomed);
    // Both answered, the margins first: only the zoom's views are drawn (two layers), and they hold the range.
    const drawn = layers.length;
    await answer();
    expect(layers.length - drawn).toBe(2);
    expect(feeder.covers(zoomed)).toBe(true);
    expect(feeder.arriving()).toBe(false);
  });

  it('asks for a channel new to the screen with its margins at once', async () => {
    const w = { t0: night.t0 + 5 * H, t1: night.t0 + 5 * H + 30_000 };
    const { asked } = setup(w);
    expect(asked[0]!.pixels).toBe(5 * WIDTH);
  });
});

describe('view feeder, drawing as views arrive', () => {
  it('draws at once when the views complete the range, and not while they do not', async () => {
    const src = fakeSource();
    const gl = fakeRenderer();
    let drawn = 0;
    (gl.renderer as unknown as { drawNow(): void }).drawNow = () => { drawn++; };
    const feeder = new ViewFeeder(src.source, gl.renderer, () => night, () => WIDTH);
    feeder.update(night);
    feeder.setSeries([{ block: new ChartBlock('BR'), key: 'series-0', ref: { night: 'n', code: 'BR' }, style: 'line', color: [0, 0, 0, 1] }]);
    expect(drawn).toBe(0);
    await src.answer();
    expect(feeder.covers()).toBe(true);
    expect(drawn).toBe(1);
  });
});

describe('view feeder, margins fetched in the background', () => {
  it('asks for no frame when new margins arrive around the columns already on screen', async () => {
    let w = { t0: night.t0 + 5 * H, t1: night.t0 + 5 * H + 30_000 };
    const { feeder, asked, answer, layers, changes } = setup(w);
    await answer();
    w = { t0: w.t0 + 30_000, t1: w.t1 + 30_000 };
    feeder.update(w);
    const requests = asked.length;
    const written = layers.length;
    const changed = changes.length;
    await answer();
    // The margins arrived and were written; the range was held all along: nothing new on screen.
    expect(asked.length).toBe(requests);
    expect(layers.length).toBeGreaterThan(written);
    expect(changes.length).toBe(changed);
    // A zoom's views do change the screen.
    feeder.update({ t0: w.t0, t1: w.t0 + 60_000 });
    await answer();
    expect(changes.length).toBeGreaterThan(changed);
  });
});
