import { describe, expect, it } from 'vitest';
import { columnsOf, LiveSeries } from '../../src/features/live/series';
import { hms, sliderStepMs, zoomStep } from '../../src/features/live/format';
import { presenceOf, vitalAlerts } from '../../src/features/live/alerts';
import { arrange, gridColumns, gridRows, mirrored, tileSize } from '../../src/features/live/RealtimeDashboardPage';
import { polylineSegments } from '../../src/features/live/liveBoard';
import { parseVitalParameters } from '../../src/features/night/vitals';
import type { RealTimeDevice } from '../../src/features/live/api';

describe('live series', () => {
  it('places samples by index: a resend lands on the same slots, a gap stays NaN until storage fills it', () => {
    const s = new LiveSeries('BR', 1, 1_000_000, true);
    s.put(0, [12, 13, 14]);
    s.put(5, [15, -2]);
    expect(s.length).toBe(7);
    expect(s.holes()).toBe(3); // 3 and 4 never came; -2 (no subject) is missing too
    s.put(0, [12, 13, 14]);
    expect(s.length).toBe(7);
    s.putWire({ t0: 1_003_000, sampleRate: 1, scale: 1, offset: 0, storage: 'float32', missingCodes: [-1, -2], samples: new Float32Array([16, 17]) });
    expect(Array.from(s.slice(1_000_000, 1_007_000))).toEqual([12, 13, 14, 16, 17, 15, Number.NaN]);
    expect(s.latest()).toBe(15);
    expect(s.endMs).toBe(1_007_000);
  });

  it('grows past its first capacity without losing samples', () => {
    const s = new LiveSeries('Y_DIST', 20, 0, false);
    for (let i = 0; i < 5000; i += 4) s.put(i, [i, i + 1, i + 2, i + 3]);
    expect(s.length).toBe(5000);
    expect(s.holes()).toBe(0);
    expect(s.view(4997, 4998)[0]).toBe(4997);
  });

  it('reduces a range to min/max columns and reports the y range', () => {
    const s = new LiveSeries('HR', 1, 0, true);
    s.put(0, [60, 70, 80, 90]);
    const out = new Float32Array(2 * 4);
    const r = columnsOf(s, 0, 4000, 2, out);
    expect(r).toEqual({ lo: 60, hi: 90, filled: 2 });
    expect(Array.from(out)).toEqual([-0.5, 60, -0.5, 70, 0.5, 80, 0.5, 90]);
  });
  it('reduces every column as the per-column index ranges do, whatever the window (before the first sample, past the newest)', () => {
    const s = new LiveSeries('Y_DIST', 20, 1_000, false);
    let x = 7;
    const next = () => ((x = (x * 48_271) % 2_147_483_647) / 2_147_483_647) * 10 - 5;
    s.put(0, Array.from({ length: 1_300 }, next));
    s.put(1_400, Array.from({ length: 40 }, next)); // a gap of 100 samples before these
    for (const [t0, t1, columns] of [[1_000, 61_000, 353], [-5_000, 40_000, 97], [3_333.3, 80_000, 353], [70_000, 75_000, 200], [1_000, 1_500, 64]] as const) {
      const out = new Float32Array(columns * 4);
      const got = columnsOf(s, t0, t1, columns, out);
      // The reference: each column's own indexRange and view.
      const span = Math.max(1, t1 - t0);
      let lo = Infinity;
      let hi = -Infinity;
      let filled = 0;
      for (let c = 0; c < columns; c++) {
        const [from, to] = s.indexRange(t0 + (span * c) / columns, t0 + (span * (c + 1)) / columns);
        const values = Array.from(s.view(from, to)).filter((v) => !Number.isNaN(v)); // unfilled slots draw nothing
        if (!values.length) continue;
        filled++;
        expect([out[c * 4 + 1], out[c * 4 + 3]], `column ${c} of ${t0}..${t1}`).toEqual([Math.fround(Math.min(...values)), Math.fround(Math.max(...values))]);
        lo = Math.min(lo, ...values);
        hi = Math.max(hi, ...values);
      }
      expect(got).toEqual({ lo, hi, filled });
    }
  });

  it('never draws time without samples: holds a value two sample periods, then leaves a gap (not yet recorded, or lost)', () => {
    const s = new LiveSeries('BR', 1, 0, true);
    s.put(0, [12, 13, 14]);
    s.put(10, [15]);
    const out = new Float32Array(2 * 2 * 20);
    const r = columnsOf(s, 0, 20_000, 20, out);
    expect(r.filled).toBe(4);
    const y = (c: number) => out[c * 4 + 1]!;
    expect([y(0), y(1), y(2), y(3), y(4)]).toEqual([12, 13, 14, 14, 14]);
    for (const c of [5, 6, 7, 8, 9]) expect(y(c), `column ${c} lies in the gap`).toBeNaN();
    expect(y(10)).toBe(15);
    for (let c = 13; c < 20; c++) expect(y(c), `column ${c} is not recorded yet`).toBeNaN();
  });
});

const MIN_COLS_LAPTOP = 12;

describe('live readouts', () => {
  it('says a range as hours, minutes and seconds, zooms along the scale and steps by a fifth', () => {
    expect(hms(3_723_400)).toEqual({ h: 1, m: 2, s: 3 });
    expect(zoomStep(60_000, -1)).toBe(30_000);
    expect(zoomStep(10_000, -1)).toBe(10_000);
    expect(zoomStep(60_000, 1)).toBe(120_000);
    expect(sliderStepMs(60_000)).toBe(12_000);
    expect(sliderStepMs(2_000)).toBe(1_000);
  });

  it("alerts when BR or HR crosses the patient's thresholds, and reads presence from the -2 code", () => {
    const vitals = parseVitalParameters(JSON.stringify({ br: { sevFromF: 28, sevToF: 60 } }));
    expect(vitalAlerts(new Map([['BR', 29], ['HR', 70]]), vitals)).toEqual([{ code: 'BR', value: 29, severity: 'severe' }]);
    expect(vitalAlerts(new Map([['BR', 16], ['HR', 110]]), vitals)).toEqual([{ code: 'HR', value: 110, severity: 'moderate' }]);
    expect(vitalAlerts(new Map([['BR', -2], ['HR', -1]]), vitals)).toEqual([]);
    expect(presenceOf(new Map([['BR', -2]]))).toBe('absent');
    expect(presenceOf(new Map([['BR', 14]]))).toBe('present');
    expect(presenceOf(new Map())).toBe('unknown');
  });

  it('keeps saved tile positions and places new devices after them', () => {
    const dev = (id: string) => ({ device_id: id }) as RealTimeDevice;
    const laid = arrange([dev('A'), dev('B'), dev('C')], [{ i: 'B', x: 8, y: 0, w: 4, h: 4 }]);
    expect(laid).toEqual([
      { i: 'A', x: 6, y: 0, w: 6, h: 8 },
      { i: 'B', x: 8, y: 0, w: 4, h: 4 },
      { i: 'C', x: 0, y: 8, w: 6, h: 8 },
    ]);
  });

  it('sizes new tiles so up to 16 devices share one screen: 2, 3 or 4 a row, as many rows', () => {
    const dev = (id: number) => ({ device_id: `D${id}` }) as RealTimeDevice;
    for (const [n, perRow] of [[1, 2], [4, 2], [5, 3], [9, 3], [10, 4], [16, 4], [40, 4]] as const) {
      const laid = arrange(Array.from({ length: n }, (_, i) => dev(i)), null);
      const rows = new Set(laid.map((l) => l.y));
      // Every tile the same size, a row holding perRow of them side by side, no two overlapping.
      expect(new Set(laid.map((l) => `${l.w}x${l.h}`)).size).toBe(1);
      expect(laid[0]!.w * perRow).toBe(12);
      expect(rows.size).toBe(Math.ceil(n / perRow));
      expect(new Set(laid.map((l) => `${l.x},${l.y}`)).size).toBe(n);
      // With the grid's 32-px rows and 8-px gaps, up to 16 tiles fit in the 668 px a 1280×800
      // screen has below the app's header and the page title (bench:realtime checks it on the page).
      const { h } = tileSize(n);
      if (n <= 16) expect(rows.size * (h * 32 + (h - 1) * 8) + (rows.size + 1) * 8).toBeLessThanOrEqual(668);
    }
  });

  it('lays 32 beds on a 1920×1080 wall display and more on a 3840×2160 one, compact tiles growing to fill the screen', () => {
    const dev = (id: number) => ({ device_id: `D${id}` }) as RealTimeDevice;
    // Below the app's header and the page title 132 px go (1280×800 leaves 668); the dashboard
    // is the window less the collapsed sidebar and the page's padding (under 100 px).
    const used: Record<string, { w: number; share: number }> = {};
    for (const [width, height, beds] of [[1920, 1080, 32], [3840, 2160, 32], [3840, 2160, 96], [1920, 1080, 96]] as const) {
      const cols = gridColumns(width - 100);
      const rows = gridRows(height - 132);
      const laid = arrange(Array.from({ length: beds }, (_, i) => dev(i)), null, cols, rows);
      const { w, h } = laid[0]!;
      expect(new Set(laid.map((l) => `${l.w}x${l.h}`)).size).toBe(1);
      expect(laid.every((l) => l.x + l.w <= cols)).toBe(true);
      expect(new Set(laid.map((l) => `${l.x},${l.y}`)).size).toBe(beds);
      const tileRows = new Set(laid.map((l) => l.y)).size;
      const px = tileRows * (h * 32 + (h - 1) * 8) + (tileRows + 1) * 8;
      // Every bed on the screen where the compact size fits (96 beds do not on 1080 px: they scroll).
      if (beds <= 32 || width > 1920) expect(px).toBeLessThanOrEqual(height - 132);
      // Each tile at least as wide as on the laptop's 16-bed screen's narrowest (3 columns of 60 px).
      expect(w * ((width - 100) / cols)).toBeGreaterThanOrEqual(180);
      used[`${width}:${beds}`] = { w, share: px / (height - 132) };
    }
    // 1920×1080: the compact tiles (240 px) already fill it. On a 4K wall 32 beds' tiles grow until
    // one more column would push a row off the screen: they fill most of it, not its top third.
    expect(used['1920:32']!.w).toBe(4);
    expect(used['3840:32']!.w).toBeGreaterThan(used['1920:32']!.w);
    expect(used['3840:32']!.share).toBeGreaterThan(0.75);
    expect(used['3840:96']!.share).toBeGreaterThan(0.75);
    expect(used['1920:96']!.w).toBe(4);
    // 36 beds on 1920×1080 (32 of a ward and the demo's 4): compact tiles would need 24 rows of
    // the screen's 23, so they are narrow, ten a row, every bed on the screen.
    const wall36 = arrange(Array.from({ length: 36 }, (_, i) => dev(i)), null, gridColumns(1820), gridRows(1080 - 132));
    const tall = new Set(wall36.map((l) => l.y)).size;
    expect(wall36[0]!.w).toBe(3);
    expect(tall * (wall36[0]!.h * 32 + (wall36[0]!.h - 1) * 8) + (tall + 1) * 8).toBeLessThanOrEqual(1080 - 132);
    // Without the screen's height (not yet measured) a tile stays compact.
    expect(tileSize(32, gridColumns(3740))).toEqual({ w: 4, h: 4 });
  });

  it('grows compact tiles only while every bed still fits the rows the screen has, then stretches every tile to the screen\'s height', () => {
    for (let beds = 1; beds <= 120; beds++) {
      for (const cols of [12, 20, 30, 45, 62]) {
        const unknown = tileSize(beds, cols);
        for (const rows of [0, 10, 16, 20, 30, 50, 80]) {
          const { w, h } = tileSize(beds, cols, rows);
          const tileRows = Math.ceil(beds / Math.floor(cols / w));
          const rowsAt = (tw: number) => Math.ceil(beds / Math.floor(cols / tw)) * Math.max(4, tw);
          // Never smaller than without the screen's height, but narrow (3 columns) where the
          // compact tiles would leave a row below the screen and the narrow ones all fit.
          if (w < unknown.w) {
            expect([w, unknown.w, beds > 16]).toEqual([3, 4, true]);
            expect(rowsAt(4)).toBeGreaterThan(rows);
            expect(rowsAt(3)).toBeLessThanOrEqual(rows);
          } else if (beds > 16 && w === 4 && rows > 0 && rowsAt(4) > rows) {
            // Compact and off the screen only where narrow tiles would not fit either (they scroll).
            expect(rowsAt(3)).toBeGreaterThan(rows);
          }
          expect(h).toBeGreaterThanOrEqual(unknown.h);
          if (beds > 16) {
            expect(w).toBeGreaterThanOrEqual(Math.min(3, Math.floor(cols / 4)));
            expect(w).toBeLessThanOrEqual(Math.max(4, Math.floor(cols / 4)));
            expect(h).toBeGreaterThanOrEqual(Math.max(4, w));
            // Grown past compact only if all the beds fit; one column more would not have fitted (or is over a quarter of the width).
            if (w > 4) expect(tileRows * Math.max(4, w)).toBeLessThanOrEqual(rows);
            const more = w + 1;
            if (more <= Math.floor(cols / 4) && w >= 4) expect(Math.ceil(beds / Math.floor(cols / more)) * more).toBeGreaterThan(rows);
          } else {
            expect(w).toBe(unknown.w);
          }
          // Taller only to fill the screen: the rows of tiles fit it, and one row more a tile would not.
          if (h > unknown.h) {
            expect(tileRows * h).toBeLessThanOrEqual(rows);
            expect(tileRows * (h + 1)).toBeGreaterThan(rows);
          }
        }
      }
    }
    // A 1280×800 laptop (16 rows below the title): up to 16 beds on the screen, as without its height.
    for (let beds = 1; beds <= 16; beds++) {
      const { w, h } = tileSize(beds, MIN_COLS_LAPTOP, 16);
      expect(Math.ceil(beds / Math.floor(MIN_COLS_LAPTOP / w)) * h).toBeLessThanOrEqual(16);
    }
  });

  it('turns a strip\'s min/max polyline into segment pairs, leaving a gap\'s segments out', () => {
    const points = new Float32Array([-1, 1, -1, 2, 0, Number.NaN, 0, Number.NaN, 1, 3, 1, 4]);
    const out = new Float32Array(5 * 4);
    const vertices = polylineSegments(points, 6, out);
    expect(vertices).toBe(4);
    expect(Array.from(out.subarray(0, vertices * 2))).toEqual([-1, 1, -1, 2, 1, 3, 1, 4]);
  });
});

describe('the real-time dashboard in a right-to-left language', () => {
  it('mirrors each tile across the grid, and mirroring twice gives the saved layout back', () => {
    const layout = [
      { i: 'A', x: 0, y: 0, w: 9, h: 8 },
      { i: 'B', x: 9, y: 0, w: 9, h: 8 },
      { i: 'C', x: 2, y: 8, w: 4, h: 4 },
    ];
    expect(mirrored(layout, 18).map((l) => l.x)).toEqual([9, 0, 12]);
    expect(mirrored(mirrored(layout, 18), 18)).toEqual(layout);
  });
});
