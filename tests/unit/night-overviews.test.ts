import { describe, expect, it } from 'vitest';
import type { ChannelRef, ViewResult } from '../../engine/index';
import { loadEngine, ms, px } from '../../engine/index';
import { decodeView, decodeViews, encodeView } from '../../engine/viewWire';
import { fetchWindow, ViewFeeder } from '../../src/charts/feeder';
import fc from 'fast-check';
import type { ChartRenderer } from '../../src/charts/gl/renderer';
import { OverviewSource } from '../../src/features/night/overviews';

const H = 3_600_000;
const T0 = 1_700_000_000_000;
const night = { t0: T0, t1: T0 + 10 * H };

/** A view of `pixels` columns whose every value is `tag`. */
function setupView(pixels: number, tag: number): ViewResult {
  const buffer = new ArrayBuffer(pixels * 21);
  const f = (k: number) => new Float32Array(buffer, k * 4 * pixels, pixels).fill(tag);
  return { origin: ms(T0), pxMs: ms(1), pixels: px(pixels), x: f(0), first: f(1), min: f(2), max: f(3), last: f(4), flags: new Uint8Array(buffer, 20 * pixels, pixels), buffer };
}

/** An engine whose channels load when told, answering tagged views. */
function setup() {
  const loaded = new Set<string>();
  const waiting = new Map<string, () => void>();
  const engineAsked: string[][] = [];
  const fetched: string[][] = [];
  const view = (tag: number, pixels: number): ViewResult => setupView(pixels, tag);
  const source = new OverviewSource({
    engine: { views: async (refs: readonly ChannelRef[], _t0: number, _t1: number, pixels: number) => (engineAsked.push(refs.map((r) => r.code)), refs.map(() => view(1, pixels))) },
    loaded: (code) => loaded.has(code),
    whenLoaded: (code) => (loaded.has(code) ? Promise.resolve() : new Promise<void>((r) => waiting.set(code, () => (loaded.add(code), r())))),
    fetch: async (codes, _t0, _t1, pixels) => (fetched.push([...codes]), codes.map(() => decodeView(encodeView(view(2, pixels), { min: -3, max: 4, count: 10, validCount: 8 })))),
  });
  return { source, loaded, waiting, engineAsked, fetched };
}

describe('charts drawn from the server overview first', () => {
  it("serves an overview only for the exact window it was made for, before and after the engine holds the channel", async () => {
    const { source, loaded, waiting, engineAsked, fetched } = setup();
    const w = { t0: night.t0, t1: night.t1, pixels: 1000 };
    const infos = await source.request('n', ['BR'], w);
    expect(infos.BR).toMatchObject({ code: 'BR', min: -3, max: 4, count: 10, validCount: 8, missingFraction: 0.2 });
    // Asked once per window.
    expect(await source.request('n', ['BR'], w)).toEqual({});
    expect(fetched).toEqual([['BR']]);
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
    // Loaded: the overview's own window is still drawn from it (the server's view of the same
    // samples, without a round trip behind the worker's loads); every other window from the engine.
    expect(loaded.has('BR')).toBe(true);
    const asked = engineAsked.length;
    expect((await source.views([{ night: 'n', code: 'BR' }], w.t0, w.t1, w.pixels))[0]!.min[0]).toBe(2);
    expect(engineAsked.length).toBe(asked);
    expect((await source.views([{ night: 'n', code: 'BR' }], w.t0, w.t1, w.pixels + 2))[0]!.min[0]).toBe(1);
    expect(engineAsked.length).toBe(asked + 1);
  });

  it('takes overviews that arrived before the screen asked (a prefetch) as answered: drawn at once, not asked again', async () => {
    const { source, loaded, engineAsked, fetched } = setup();
    const w = { t0: night.t0, t1: night.t1, pixels: 700 };
    const early = ['BR', 'HR'].map((_, i) => decodeView(encodeView(setupView(700, 3 + i), { min: -1, max: 9, count: 20, validCount: 20 })));
    loaded.add('HR');
    const infos = source.seed('n', ['BR', 'HR'], w, early);
    // HR reached the engine first: only BR is provisional.
    expect(Object.keys(infos)).toEqual(['BR']);
    expect(infos.BR).toMatchObject({ code: 'BR', min: -1, max: 9, missingFraction: 0 });
    expect(await source.request('n', ['BR'], w)).toEqual({});
    expect(fetched).toEqual([]);
    const [br] = await source.views([{ night: 'n', code: 'BR' }], w.t0, w.t1, w.pixels);
    expect(br!.min[0]).toBe(3);
    expect(engineAsked).toEqual([]);
  });

  it('asks for every channel of a screen in one request, leaving out those asked for already or in the engine', async () => {
    const { source, loaded, fetched } = setup();
    const w = { t0: night.t0, t1: night.t1, pixels: 500 };
    loaded.add('SPO2');
    expect(Object.keys(await source.request('n', ['BR', 'HR', 'SPO2'], w))).toEqual(['BR', 'HR']);
    expect(Object.keys(await source.request('n', ['BR', 'HR', 'PR'], w))).toEqual(['PR']);
    // A new width asks again.
    expect(Object.keys(await source.request('n', ['BR', 'HR'], { ...w, pixels: 501 }))).toEqual(['BR', 'HR']);
    expect(fetched).toEqual([['BR', 'HR'], ['PR'], ['BR', 'HR']]);
    // Each channel's overview serves the window it was last asked for.
    expect((await source.views([{ night: 'n', code: 'HR' }], w.t0, w.t1, 501))[0]!.min[0]).toBe(2);
    expect((await source.views([{ night: 'n', code: 'PR' }], w.t0, w.t1, 500))[0]!.min[0]).toBe(2);
  });

  it('draws from the raw samples when the overview request fails', async () => {
    const { loaded, waiting, engineAsked } = setup();
    const failing = new OverviewSource({
      engine: { views: async (refs: readonly ChannelRef[]) => (engineAsked.push(refs.map((r) => r.code)), refs.map(() => decodeView(encodeView({ origin: ms(T0), pxMs: ms(1), pixels: px(1), x: new Float32Array([1]), first: new Float32Array([1]), min: new Float32Array([1]), max: new Float32Array([1]), last: new Float32Array([1]), flags: new Uint8Array(1), buffer: new ArrayBuffer(0) }, { min: 1, max: 1, count: 1, validCount: 1 })).view)) },
      loaded: (code) => loaded.has(code),
      whenLoaded: (code) => new Promise<void>((r) => waiting.set(code, () => (loaded.add(code), r()))),
      fetch: async () => {
        throw new Error('offline');
      },
    });
    const w = { t0: night.t0, t1: night.t1, pixels: 1 };
    expect(await failing.request('n', ['BR'], w)).toEqual({});
    const pending = failing.views([{ night: 'n', code: 'BR' }], w.t0, w.t1, w.pixels);
    waiting.get('BR')!();
    expect((await pending)[0]!.min[0]).toBe(1);
    expect(engineAsked).toEqual([['BR']]);
  });

  it("is asked for the feeder's own window at full-night zoom", () => {
    const feeder = new ViewFeeder({ views: async () => [] }, { range: night, requestFrame() {} } as unknown as ChartRenderer, () => night, () => 997);
    const w = feeder.windowFor(night);
    expect(w).toMatchObject({ t0: night.t0, pixels: 997 });
    expect(w.t1).toBeCloseTo(night.t1, 3);
  });

  it("computes before the charts exist the very window the feeder asks for (the reload's prefetch)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4000 }), fc.integer({ min: 1_000, max: 16 * H }), fc.integer({ min: 0, max: 2 * H }), (width, length, from) => {
        const domain = { t0: T0, t1: T0 + length };
        const range = { t0: T0 + Math.min(from, length / 2), t1: T0 + length };
        const feeder = new ViewFeeder({ views: async () => [] }, { range: domain, requestFrame() {} } as unknown as ChartRenderer, () => domain, () => width);
        const { t0, t1, pixels } = fetchWindow(domain, range, width);
        expect(feeder.windowFor(range)).toEqual({ t0, t1, pixels });
      }),
      { numRuns: 500 },
    );
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
    // Several views one after the other (one request's answer), each decoded whole.
    const two = encodeView(v, info);
    const both = new Uint8Array(two.byteLength * 2);
    both.set(two, 0);
    both.set(two, two.byteLength);
    const decoded = decodeViews(both);
    expect(decoded.length).toBe(2);
    expect(Array.from(decoded[1]!.view.max)).toEqual(Array.from(v.max));
    expect(() => decodeViews(both.subarray(0, both.byteLength - 1))).toThrow(/header says/);
    expect(() => decodeView(both)).toThrow('holds 2 views');
    engine.dispose();
  });
});
