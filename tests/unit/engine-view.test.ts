// Property tests of view(): every column equals a brute-force scan of the
// raw samples, over random data, missing runs, odd lengths and odd windows.
import { beforeAll, describe, expect, it } from 'vitest';
import { GAP_BEFORE, hz, loadEngine, ms, px, type ChannelInput, type Engine, type ViewResult } from '../../engine/index';
import { referencePhysical, referenceView, type ReferenceColumn } from '../../engine/reference';
import { rng, syntheticSignal } from '../../engine/synthetic';
import { sampleRange, viewGeometry, viewSnap } from '../../engine/time';

let engine: Engine;
beforeAll(async () => {
  engine = await loadEngine();
});

function expectColumns(view: ViewResult, expected: ReferenceColumn[], label: string): void {
  let mismatches = 0;
  const first: string[] = [];
  expected.forEach((col, c) => {
    const got = { first: view.first[c]!, min: view.min[c]!, max: view.max[c]!, last: view.last[c]!, flags: view.flags[c]! };
    const same = Object.is(got.first, col.first) && Object.is(got.min, col.min) && Object.is(got.max, col.max)
      && Object.is(got.last, col.last) && got.flags === col.flags;
    if (!same && mismatches++ < 3) first.push(`column ${c}: got ${JSON.stringify(got)} want ${JSON.stringify(col)}`);
  });
  expect(first, label).toEqual([]);
}

/** A random channel: odd lengths, missing runs from single samples to many blocks. */
function randomChannel(seed: number): { input: ChannelInput; values: Float32Array } {
  const random = rng(seed);
  const lengths = [0, 1, 2, 3, 15, 16, 17, 31, 33, 255, 257, 4097, 8191, 8193, 50_001, 131_073, 262_147];
  const n = random() < 0.7 ? lengths[Math.floor(random() * lengths.length)]! : 1 + Math.floor(random() * 200_000);
  const missingShare = [0, 0.01, 0.2, 0.6, 0.97][Math.floor(random() * 5)]!;
  const missingRun = [1, 3, 40, 700, 20_000][Math.floor(random() * 5)]!;
  const int16 = random() < 0.4;
  const samples = syntheticSignal({ samples: n, seed: seed * 7 + 1, missingShare, missingRun, int16 });
  const input: ChannelInput = {
    night: `night-${seed}`,
    code: 'HR',
    samples,
    sampleRateHz: hz([1, 10, 25, 250, 0.5][Math.floor(random() * 5)]!),
    t0Ms: ms(1_700_000_000_000 + Math.floor(random() * 1e6) + random()),
    ...(int16 ? { scale: 0.1, offset: 3 } : {}),
  };
  return { input, values: referencePhysical(input) };
}

describe('view (M4 on the pyramid)', () => {
  it('equals a brute-force scan for random channels and windows', () => {
    let snapped = 0;
    for (let seed = 1; seed <= 80; seed++) {
      const { input, values } = randomChannel(seed);
      const info = engine.load(input);
      try {
        const random = rng(seed * 31);
        const span = info.t1Ms - info.t0Ms;
        for (let w = 0; w < 12; w++) {
          // Windows inside, across the ends, entirely outside, tiny and huge; starts mid-sample.
          const t0 = ms(info.t0Ms + (random() * 1.4 - 0.2) * span + random() * 3);
          const width = [span * random(), span * 2, 1000 * random(), span * 0.001, 0][w % 5]!;
          const t1 = ms(t0 + width);
          const pixels = px([1, 2, 7, 333, 1000, 2000, 2999][Math.floor(random() * 7)]!);
          const view = engine.view(input, t0, t1, pixels);
          const { a, b } = viewGeometry(info, t0, t1, pixels);
          if (viewSnap(b) > 0) snapped++;
          expectColumns(view, referenceView(values, a, b, pixels), `seed ${seed} window ${w} (${t0}, ${t1}, ${pixels} px)`);
        }
      } finally {
        engine.close(input.night);
      }
    }
    // Zoomed-out windows whose column boundaries snap to pyramid blocks were covered.
    expect(snapped).toBeGreaterThan(20);
  });

  it('gives the same columns as the raw scan', () => {
    const { input } = randomChannel(1234);
    const info = engine.load({ ...input, samples: syntheticSignal({ samples: 300_001, seed: 9, missingShare: 0.3, missingRun: 500 }) });
    try {
      const random = rng(77);
      for (let w = 0; w < 20; w++) {
        const t0 = ms(info.t0Ms + random() * (info.t1Ms - info.t0Ms));
        const t1 = ms(t0 + random() * (info.t1Ms - t0));
        const a = engine.view(input, t0, t1, px(1500));
        const b = engine.viewScan(input, t0, t1, px(1500));
        expect(Buffer.compare(new Uint8Array(a.buffer), new Uint8Array(b.buffer)), `window ${w}`).toBe(0);
      }
    } finally {
      engine.close(input.night);
    }
  });

  it('views several channels at once, equal to one by one, in one buffer', () => {
    const inputs = [11, 12, 13].map((seed) => randomChannel(seed).input).map((input, i) => ({ ...input, night: 'batch', code: `C${i}` }));
    inputs.forEach((input) => engine.load(input));
    try {
      const t0 = ms(Math.min(...inputs.map((i) => i.t0Ms)));
      const t1 = ms(t0 + 3_600_000);
      const batch = engine.views(inputs, t0, t1, px(333));
      expect(new Set(batch.map((v) => v.buffer)).size).toBe(1);
      batch.forEach((view, i) => {
        const alone = engine.view(inputs[i]!, t0, t1, px(333));
        expect(Buffer.compare(new Uint8Array(view.buffer, view.x.byteOffset, 333 * 21), new Uint8Array(alone.buffer, 0, 333 * 21))).toBe(0);
      });
      expect(engine.views([], t0, t1, px(10))).toEqual([]);
      // A recycled buffer large enough is refilled; a small one is left alone.
      const again = engine.views(inputs, ms(t0 + 1000), t1, px(333), batch[0]!.buffer);
      expect(again[0]!.buffer).toBe(batch[0]!.buffer);
      again.forEach((view, i) => expect([...view.max]).toEqual([...engine.view(inputs[i]!, ms(t0 + 1000), t1, px(333)).max]));
      const small = new ArrayBuffer(16);
      expect(engine.views(inputs, t0, t1, px(333), small)[0]!.buffer).not.toBe(small);
    } finally {
      engine.close('batch');
    }
  });

  it('rebases x to the window start in float64', () => {
    const t0 = ms(1_763_780_400_123.5);
    const input: ChannelInput = { night: 'x', code: 'BR', samples: new Float32Array(1000).fill(5), sampleRateHz: hz(10), t0Ms: t0 };
    engine.load(input);
    try {
      const view = engine.view(input, ms(t0 + 250), ms(t0 + 450), px(4));
      expect(view.origin).toBe(t0 + 250);
      expect(view.pxMs).toBe(50);
      expect([...view.x]).toEqual([25, 75, 125, 175]);
      // Samples at +300 and +400 ms fall in columns 1 and 3.
      expect([...view.first].map((v) => (Number.isNaN(v) ? null : v))).toEqual([null, 5, null, 5]);
    } finally {
      engine.close('x');
    }
  });

  it('marks gaps: empty columns are NaN and the next column flags the break', () => {
    const samples = new Float32Array([1, 2, -1, -1, 5, 6, -2, 8]);
    const input: ChannelInput = { night: 'g', code: 'HR', samples, sampleRateHz: hz(1), t0Ms: ms(0) };
    engine.load(input);
    try {
      const view = engine.view(input, ms(0), ms(8000), px(4));
      // Columns: [1, 2] [-1, -1] [5, 6] [-2, 8]
      expect([...view.first]).toEqual([1, NaN, 5, 8]);
      expect([...view.last]).toEqual([2, NaN, 6, 8]);
      expect([...view.min]).toEqual([1, NaN, 5, 8]);
      expect([...view.max]).toEqual([2, NaN, 6, 8]);
      expect([...view.flags]).toEqual([0, 0, GAP_BEFORE, GAP_BEFORE]);
    } finally {
      engine.close('g');
    }
  });

  it('reads snapped columns from the records, gaps at block edges included', () => {
    // Missing runs that start and end exactly on block edges of levels 0 to 3
    // (32, 128, 512, 2048 samples), single missing samples on either side of
    // a block edge, and a partial last block: every case the records and
    // edge bits must answer without reading raw samples.
    const n = 1_000_003;
    const samples = new Float32Array(n);
    const random = rng(21);
    for (let i = 0; i < n; i++) samples[i] = 50 + 40 * Math.sin(i / 700) + random() * 10;
    const blank = (from: number, to: number) => samples.fill(-1, from, Math.min(to, n));
    for (let at = 4096; at < n - 20_000; at += 37_000) {
      const size = [32, 128, 512, 2048, 8192][Math.floor(random() * 5)]!;
      blank(at, at + size); // a whole block
      blank(at + 10_240, at + 10_240 + size * 3); // several blocks
      blank(at + 20_479, at + 20_480); // the last sample before an edge
      blank(at + 24_576, at + 24_577); // the first sample after an edge
      blank(at + 30_000, at + 30_000 + Math.floor(random() * 3000)); // anywhere
    }
    blank(n - 2, n);
    const input: ChannelInput = { night: 'edges', code: 'HR', samples, sampleRateHz: hz(250), t0Ms: ms(1_700_000_000_000) };
    const info = engine.load(input);
    const values = referencePhysical(input);
    try {
      const levels = new Set<number>();
      for (const perColumn of [70, 100, 130, 300, 600, 1000, 2100, 4000, 9000]) {
        for (const pixels of [px(97), px(480)]) {
          const width = (perColumn * pixels * 1000) / 250;
          const t0 = ms(info.t0Ms + random() * Math.max(0, info.t1Ms - info.t0Ms - width));
          const t1 = ms(t0 + width);
          const { a, b } = viewGeometry(info, t0, t1, pixels);
          levels.add(viewSnap(b));
          expectColumns(engine.view(input, t0, t1, pixels), referenceView(values, a, b, pixels), `${perColumn} samples a column, ${pixels} px`);
        }
      }
      // Every level from 32 to 2048 samples a block was snapped to.
      expect([...levels].sort((x, y) => x - y)).toEqual([32, 128, 512, 2048]);
      // Index bytes stay within 0.30 of the sample bytes.
      expect(info.indexBytes / info.sampleBytes).toBeLessThan(0.3);
    } finally {
      engine.close('edges');
    }
  });

  it('maps ms windows to the samples whose time lies in them', () => {
    const random = rng(5);
    for (let k = 0; k < 200; k++) {
      const clock = { t0Ms: ms(random() * 1e12), sampleRateHz: hz([1, 25, 250, 0.2][k % 4]!), count: 1 + Math.floor(random() * 500) };
      const t0 = ms(clock.t0Ms + (random() - 0.2) * clock.count * 1000 / clock.sampleRateHz + 0.37);
      const t1 = ms(t0 + random() * 1e5 + 0.11);
      const { s, e } = sampleRange(clock, t0, t1);
      const inside: number[] = [];
      for (let i = 0; i < clock.count; i++) {
        const t = clock.t0Ms + (i * 1000) / clock.sampleRateHz;
        if (t >= t0 && t < t1) inside.push(i);
      }
      expect([s, e]).toEqual(inside.length ? [inside[0], inside.at(-1)! + 1] : [s, s]);
    }
  });
});
