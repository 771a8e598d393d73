import { describe, expect, it } from 'vitest';
import type { ChannelRef, ViewResult } from '../../engine/index';
import { loadEngine, ms, px } from '../../engine/index';
import { decodeView, encodeView } from '../../engine/viewWire';
import { ViewFeeder } from '../../src/charts/feeder';
import type { ChartRenderer } from '../../src/charts/gl/renderer';
import { OverviewSource } from '../../src/features/night/overviews';

const H = 3_600_000;
const T0 = 1_700_000_000_000;
const night = { t0: T0, t1: T0 + 10 * H };

/** An engine whose channels load when told, answering tagged views. */
function setup() {
  const loaded = new Set<string>();
  const waiting = new Map<string, () => void>();
  const engineAsked: string[][] = [];
  const fetched: string[] = [];
  const view = (tag: number, pixels: number): ViewResult => {
    const buffer = new ArrayBuffer(pixels * 21);
    const f = (k: number) => new Float32Array(buffer, k * 4 * pixels, pixels).fill(tag);
    return { origin: ms(T0), pxMs: ms(1), pixels: px(pixels), x: f(0), first: f(1), min: f(2), max: f(3), last: f(4), flags: new Uint8Array(buffer, 20 * pixels, pixels), buffer };
  };
  const source = new OverviewSource({
    engine: { views: async (refs: readonly ChannelRef[], _t0: number, _t1: number, pixels: number) => (engineAsked.push(refs.map((r) => r.code)), refs.map(() => view(1, pixels))) },
    loaded: (code) => loaded.has(code),
    whenLoaded: (code) => (loaded.has(code) ? Promise.resolve() : new Promise<void>((r) => waiting.set(code, () => (loaded.add(code), r())))),
    fetch: async (code, _t0, _t1, pixels) => (fetched.push(code), decodeView(encodeView(view(2, pixels), { min: -3, max: 4, count: 10, validCount: 8 }))),
  });
  return { source, loaded, waiting, engineAsked, fetched };
}

describe('charts drawn from the server overview first', () => {
  it("serves an overview only for the exact window it was made for, and only until the engine holds the channel", async () => {
    const { source, loaded, waiting, engineAsked, fetched } = setup();
    const w = { t0: night.t0, t1: night.t1, pixels: 1000 };
    const info = await source.request('n', 'BR', w);
    expect(info).toMatchObject({ code: 'BR', min: -3, max: 4, count: 10, validCount: 8, missingFraction: 0.2 });
    // Asked once per window.
    expect(await source.request('n', 'BR', w)).toBeNull();
    expect(fetched).toEqual(['BR']);
    const [first] = await source.views([{ night: 'n', code: 'BR' }], w.t0, w.t1, w.pixels);
    expect(first!.min[0]).toBe(2);
    expect(engineAsked).toEqual([]);
    // Another window (one column more) waits for the engine.
    const other = source.views([{ night: 'n', code: 'BR' }], w.t0, w.t1, w.pixels + 1);
    await Promise.resolve();
    expect(engineAsked).toEqual([]);
    waiting.get('BR')!();
    expect((await other)[0]!.min[0]).toBe(1);
    expect(engineAsked).toEqual([['BR']]);
    // Loaded: the same full-night window now comes from the engine too.
    expect(loaded.has('BR')).toBe(true);
    expect((await source.views([{ night: 'n', code: 'BR' }], w.t0, w.t1, w.pixels))[0]!.min[0]).toBe(1);
  });

  it("is asked for the feeder's own window at full-night zoom", () => {
    const feeder = new ViewFeeder({ views: async () => [] }, { range: night, requestFrame() {} } as unknown as ChartRenderer, () => night, () => 997);
    const w = feeder.windowFor(night);
    expect(w).toMatchObject({ t0: night.t0, pixels: 997 });
    expect(w.t1).toBeCloseTo(night.t1, 3);
  });

  it("round-trips the engine's view through the NCV1 bytes", async () => {
    const engine = await loadEngine();
    const samples = Float32Array.from({ length: 36_000 }, (_, i) => (i % 7 === 0 ? Number.NaN : Math.sin(i / 50)));
    const info = engine.load({ night: 'n', code: 'BR', samples, sampleRateHz: 1 as never, t0Ms: ms(T0), scale: 1, offset: 0, missingCodes: [] });
    const v = engine.view({ night: 'n', code: 'BR' }, ms(T0 - 500), ms(T0 + 10 * H + 123), px(777));
    const { view, channel } = decodeView(encodeView(v, info));
    expect(channel).toEqual({ min: info.min, max: info.max, count: info.count, validCount: info.validCount });
    for (const k of ['x', 'first', 'min', 'max', 'last', 'flags'] as const) expect(Array.from(view[k])).toEqual(Array.from(v[k]));
    expect([view.origin, view.pxMs, view.pixels]).toEqual([v.origin, v.pxMs, v.pixels]);
    expect(() => decodeView(new Uint8Array(10))).toThrow('not a Nocturne view buffer');
    engine.dispose();
  });
});
