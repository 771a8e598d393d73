import { describe, expect, it } from 'vitest';
import { formatClock, formatNightDate, formatSpan, formatValue, zoneOffset } from '../../src/charts/core/format';
import { paintValueLabels } from '../../src/features/night/yAxis';
import { placeTicks, timeTicks } from '../../src/charts/core/ticks';

const H = 3_600_000;

describe('time ticks', () => {
  it('are whole local hours over a long span', () => {
    const t0 = Date.UTC(2026, 10, 20, 21, 30); // 22:30 in Zurich
    const ticks = timeTicks({ t0, t1: t0 + 10 * H }, zoneOffset('Europe/Zurich'));
    expect(ticks.length).toBe(10);
    expect(formatClock(ticks[0]!, 'Europe/Zurich')).toBe('23:00');
    expect(formatClock(ticks[9]!, 'Europe/Zurich')).toBe('08:00');
  });

  it("are whole local hours over a night shorter than 8 h, never an eighth of it (decision 1022)", () => {
    const t0 = Date.UTC(2025, 8, 10, 21, 28); // 23:28 in Zurich: the four-session night's overview, 7 h 19 min
    const ticks = timeTicks({ t0, t1: t0 + 7 * H + 19 * 60_000 }, zoneOffset('Europe/Zurich'));
    expect(ticks.map((t) => formatClock(t, 'Europe/Zurich'))).toEqual(['00:00', '01:00', '02:00', '03:00', '04:00', '05:00', '06:00']);
    // Three hours are hourly too; under three, an eighth of the span.
    expect(timeTicks({ t0: 0, t1: 3 * H })).toEqual([0, H, 2 * H, 3 * H]);
    // Two hours: every 15 min, the first clock step of an eighth (15 min) or more.
    expect(timeTicks({ t0: 0, t1: 2 * H })).toHaveLength(9);
  });

  it('are about an eighth of a short span apart, on the clock (decision 1022)', () => {
    const zone = 'Europe/Zurich';
    const off = zoneOffset(zone);
    const labels = (t0: number, ms: number) => timeTicks({ t0, t1: t0 + ms }, off).map((t) => formatClock(t, zone, true));
    // A 30-s epoch that starts off the clock (23:08:07): every 5 s on whole multiples, not 23:08:09, :13, :16 …
    const epoch = Date.UTC(2026, 10, 20, 22, 8, 7);
    expect(labels(epoch, 30_000)).toEqual(['23:08:10', '23:08:15', '23:08:20', '23:08:25', '23:08:30', '23:08:35']);
    // 3 min from 23:59:30: every 30 s; 20 min: every 5 min; 1 h: every 10 min.
    expect(labels(Date.UTC(2000, 11, 31, 22, 59, 30), 180_000)).toEqual(['23:59:30', '00:00:00', '00:00:30', '00:01:00', '00:01:30', '00:02:00', '00:02:30']);
    expect(labels(Date.UTC(2026, 10, 20, 22, 3), 20 * 60_000)).toEqual(['23:05:00', '23:10:00', '23:15:00', '23:20:00']);
    expect(labels(Date.UTC(2026, 10, 20, 22, 3), H)).toHaveLength(6);
    // In a zone half an hour off whole hours, 30-min ticks fall on its own clock's half hours.
    const kolkata = timeTicks({ t0: Date.UTC(2026, 0, 1, 18, 0), t1: Date.UTC(2026, 0, 1, 20, 50) }, zoneOffset('Asia/Kolkata'));
    expect(kolkata.map((t) => formatClock(t, 'Asia/Kolkata'))).toEqual(['23:30', '00:00', '00:30', '01:00', '01:30', '02:00']);
    // A span of seconds keeps its eighths.
    expect(timeTicks({ t0: 0, t1: 4_000 })).toHaveLength(9);
  });

  it('stay on whole local hours across a DST change', () => {
    const t0 = Date.UTC(2026, 9, 24, 20, 0); // the night summer time ends in Zurich
    const ticks = timeTicks({ t0, t1: t0 + 12 * H }, zoneOffset('Europe/Zurich'));
    for (const t of ticks) expect(formatClock(t, 'Europe/Zurich').endsWith(':00')).toBe(true);
    expect(ticks.length).toBe(13);
  });

  it('are none for an empty span', () => {
    expect(timeTicks({ t0: 5, t1: 5 })).toEqual([]);
  });
});

describe('tick labels placed on an axis', () => {
  const night = { t0: 0, t1: 7.5 * H };
  // Eight steps of the span (the axis of a short span's ticks), placed on axes of every width.
  const ticks = Array.from({ length: 9 }, (_, k) => (k * night.t1) / 8);
  const extent = (p: { leftPct: number; align: string }, width: number, label: number) => {
    const x = (p.leftPct / 100) * width;
    return p.align === 'start' ? [x, x + label] : p.align === 'end' ? [x - label, x] : [x - label / 2, x + label / 2];
  };

  it('never touch: the end labels aligned inwards, and a neighbour they would reach dropped', () => {
    // A 7.5-h night's eight steps on a 545-px navigator, 52-px labels (hh:mm:ss) 10 px apart:
    // centred labels fit (68 px apart), but the first label, aligned to start at 0, reached the second.
    for (const width of [300, 545, 700, 1000, 1600]) {
      const placed = placeTicks(ticks, night, width, 52, 10);
      expect(placed[0]!.align).toBe('start');
      expect(placed.at(-1)!.align).toBe('end');
      for (let i = 1; i < placed.length; i++) expect(extent(placed[i - 1]!, width, 52)[1]! + 10).toBeLessThanOrEqual(extent(placed[i]!, width, 52)[0]!);
      for (const p of placed) {
        const [a, b] = extent(p, width, 52);
        expect(a).toBeGreaterThanOrEqual(0);
        expect(b).toBeLessThanOrEqual(width + 1e-9);
      }
    }
  });

  it('keep every tick where there is room, and thin them evenly where there is not', () => {
    expect(placeTicks(ticks, night, 1600, 52, 10)).toHaveLength(9);
    expect(placeTicks(ticks, night, 545, 52, 10).map((p) => p.t)).toEqual(ticks.filter((_, i) => i !== 1 && i !== 7));
    expect(placeTicks(ticks, night, 300, 52, 10).map((p) => p.t)).toEqual([ticks[0], ticks[4], ticks[8]]);
  });
});

describe('time formatting', () => {
  it('reads spans as HH:MM:SS', () => {
    expect(formatSpan(30_000)).toBe('00:00:30');
    expect(formatSpan(10 * H)).toBe('10:00:00');
    expect(formatSpan(61_400)).toBe('00:01:01');
  });

  it('shows night keys as dd MMM yyyy', () => {
    expect(formatNightDate(Date.UTC(2026, 2, 9) / 1000)).toBe('09 Mar 2026');
  });

  it('shows local clock times in the night’s zone', () => {
    expect(formatClock(Date.UTC(2026, 2, 9, 21, 30, 5), 'Europe/Zurich', true)).toBe('22:30:05');
    expect(formatClock(Date.UTC(2026, 2, 9, 21, 30, 5), 'Not/AZone')).toBe('21:30');
  });

  it('prints statistics with one decimal or a dash', () => {
    expect(formatValue(14.26)).toBe('14.3');
    expect(formatValue(Number.NaN)).toBe('–');
    // In the UI language's writing, Latin digits everywhere (issue 16).
    expect(formatValue(14.26, 1, 'de-AT')).toBe('14,3');
    expect(formatValue(14.26, 2, 'fr-FR')).toBe('14,26');
    expect(formatValue(14.26, 1, 'ar-SA')).toMatch(/^14.3$/);
    expect(formatValue(Number.NaN, 1, 'de-AT')).toBe('–');
  });

  it('writes the y-axis value labels in the UI language', () => {
    const labels = { children: [] as { textContent: string; style: Record<string, string> }[], dataset: {} as Record<string, string> };
    const el = {
      ...labels,
      get children() {
        return labels.children;
      },
      append: (c: { textContent: string; style: Record<string, string> }) => labels.children.push(c),
      get lastElementChild() {
        return { remove: () => labels.children.pop() };
      },
    };
    const doc = globalThis as unknown as { document?: unknown };
    const had = doc.document;
    doc.document = { createElement: () => ({ textContent: '', style: {} }) };
    try {
      paintValueLabels(el as unknown as HTMLElement, 0, 10, 'de-AT');
      expect(labels.children.map((c) => c.textContent)).toEqual(['1', '5', '9']);
      paintValueLabels(el as unknown as HTMLElement, 0, 1, 'de-AT');
      expect(labels.children.map((c) => c.textContent)).toEqual(['0,1', '0,5', '0,9']);
      // A middle just below zero rounds to 0, never "-0" (a chest trace of -3.9…3.8).
      paintValueLabels(el as unknown as HTMLElement, -4.3, 4.2, 'en-US');
      expect(labels.children.map((c) => c.textContent)).toEqual(['-3.4', '0', '3.4']);
    } finally {
      doc.document = had;
    }
  });
});
