import { describe, expect, it } from 'vitest';
import { formatClock, formatNightDate, formatSpan, formatValue, zoneOffset } from '../../src/charts/core/format';
import { paintValueLabels } from '../../src/features/night/yAxis';
import { timeTicks } from '../../src/charts/core/ticks';

const H = 3_600_000;

describe('time ticks', () => {
  it('are whole local hours over a long span', () => {
    const t0 = Date.UTC(2026, 10, 20, 21, 30); // 22:30 in Zurich
    const ticks = timeTicks({ t0, t1: t0 + 10 * H }, zoneOffset('Europe/Zurich'));
    expect(ticks.length).toBe(10);
    expect(formatClock(ticks[0]!, 'Europe/Zurich')).toBe('23:00');
    expect(formatClock(ticks[9]!, 'Europe/Zurich')).toBe('08:00');
  });

  it('are an eighth of the span when it is short', () => {
    const ticks = timeTicks({ t0: 0, t1: 30_000 });
    expect(ticks).toHaveLength(9);
    expect(ticks[1]).toBe(3_750);
    expect(ticks[8]).toBe(30_000);
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
