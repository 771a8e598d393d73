// Trend view rules (spec 2 §4, §5, §9): offered durations, preset and custom spans,
// offered channels, y scales and the day zoom.
import { describe, expect, it } from 'vitest';
import {
  accountAgeDays, callTimes, customSpanError, datesOf, noNightIn, offeredChannels, offeredDurations, pageWindow, presetSpan, spanUpToNight,
  trendSince, valueRuns, yScale, zoomTo,
} from '../../src/features/trend/model';

const key = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 1000;

describe('nights older than the dates chosen', () => {
  it("start the trend at the patient's first night when it is older than the account", () => {
    expect(trendSince('2026-10-01', [key('2025-09-10'), key('2026-10-20')])).toBe('2025-09-10');
    expect(trendSince('2026-10-01', [key('2026-10-20')])).toBe('2026-10-01');
    expect(trendSince('2026-10-01', [])).toBe('2026-10-01');
  });

  it('tell a span without a night, and offer the two weeks up to the last one, a valid custom span', () => {
    const today = '2026-11-29';
    expect(noNightIn(presetSpan('last3', today), [key('2025-09-10')])).toBe(true);
    expect(noNightIn(presetSpan('last3', today), [key('2025-09-10'), key('2026-11-27')])).toBe(false);
    const since = trendSince('2026-10-01', [key('2025-09-10')]);
    const span = spanUpToNight(key('2025-09-10'), since, today);
    // The night alone since nothing is older: two days, the night first, as a custom span must be.
    expect(span).toEqual({ from: '2025-09-10', to: '2025-09-11' });
    expect(customSpanError(span, since, today)).toBeNull();
    expect(noNightIn(span, [key('2025-09-10')])).toBe(false);
    const weeks = spanUpToNight(key('2025-09-10'), '2025-01-01', today);
    expect(weeks).toEqual({ from: '2025-08-28', to: '2025-09-10' });
    // A last night of yesterday or today ends the span yesterday (a span may not reach today).
    expect(spanUpToNight(key(today), '2025-01-01', today).to).toBe('2026-11-28');
  });
});

describe('trend durations', () => {
  it('offers durations by the age of the patient account', () => {
    expect(offeredDurations(0)).toEqual(['custom']);
    expect(offeredDurations(2)).toEqual(['custom']);
    expect(offeredDurations(3)).toEqual(['last3', 'custom']);
    expect(offeredDurations(9)).toEqual(['last3', 'custom']);
    expect(offeredDurations(10)).toEqual(['last3', 'last10', 'custom']);
    expect(offeredDurations(29)).toEqual(['last3', 'last10', 'custom']);
    expect(offeredDurations(30)).toEqual(['last3', 'last10', 'lastMonth', 'custom']);
    expect(accountAgeDays('2026-10-01T15:00:00Z', '2026-10-31')).toBe(30);
    expect(accountAgeDays('2026-11-30T10:00:00Z', '2026-11-22')).toBe(0);
  });

  it('ends the presets yesterday', () => {
    expect(presetSpan('last3', '2026-11-22')).toEqual({ from: '2026-11-19', to: '2026-11-21' });
    expect(presetSpan('last10', '2026-11-22')).toEqual({ from: '2026-11-12', to: '2026-11-21' });
    expect(presetSpan('lastMonth', '2026-03-01')).toEqual({ from: '2026-01-29', to: '2026-02-28' });
    expect(datesOf(presetSpan('last3', '2026-01-01'))).toEqual(['2025-12-29', '2025-12-30', '2025-12-31']);
  });

  it('checks a custom span against the account and yesterday', () => {
    const created = '2026-10-01T08:00:00Z';
    expect(customSpanError({ from: '2026-09-30', to: '2026-10-05' }, created, '2026-11-22')).toBe('fromBeforeAccount');
    expect(customSpanError({ from: '2026-10-01', to: '2026-11-22' }, created, '2026-11-22')).toBe('toAfterYesterday');
    expect(customSpanError({ from: '2026-10-05', to: '2026-10-05' }, created, '2026-11-22')).toBe('toNotAfterFrom');
    expect(customSpanError({ from: '2026-10-06', to: '2026-10-05' }, created, '2026-11-22')).toBe('toNotAfterFrom');
    expect(customSpanError({ from: '2026-10-01', to: '2026-11-21' }, created, '2026-11-22')).toBeNull();
  });

  it('asks the server from 09:00 of the first night to 09:00 after the last', () => {
    const { start, stop } = callTimes({ from: '2026-03-09', to: '2026-03-10' }, 'Europe/Zurich');
    expect(start).toBe(Date.UTC(2026, 2, 9, 8) / 1000);
    expect(stop).toBe(Date.UTC(2026, 2, 11, 8) / 1000);
  });
});

describe('trend channels and charts', () => {
  it('offers the trend channels with data, without AHI and ODI for paid memberships', () => {
    const signals = new Set(['BR', 'HR', 'SPO2', 'MOV', 'I', 'Q', 'SLP_STGS']);
    expect(offeredChannels(signals, true, false)).toEqual(['RII', 'BR', 'HR', 'SQ', 'SE', 'SPO2', 'AHI', 'MOV', 'ODI']);
    expect(offeredChannels(signals, true, true)).toEqual(['RII', 'BR', 'HR', 'SQ', 'SE', 'SPO2', 'MOV']);
    expect(offeredChannels(new Set(), false, false)).toEqual([]);
  });

  it('scales y to round ticks around the data, 0 to 100 for percentages', () => {
    const s = yScale([{ date: 'a', min: 11.2, max: 19.7, mean: 14, lowerPercentile: 12, medianPercentile: 14, upperPercentile: 17 }]);
    expect(s.lo).toBeLessThanOrEqual(11.2);
    expect(s.hi).toBeGreaterThanOrEqual(19.7);
    expect(s.ticks[0]).toBe(s.lo);
    expect(s.ticks.at(-1)).toBe(s.hi);
    expect(s.ticks.length).toBeGreaterThanOrEqual(3);
    expect(yScale([{ date: 'a', value: 87 }], true)).toMatchObject({ lo: 0, hi: 100 });
    expect(yScale([{ date: 'a', value: 5 }]).ticks.length).toBeGreaterThan(1);
    // One night's index of 0.37 /h: the scale starts at 0, an index is never negative.
    expect(yScale([{ date: 'a', value: 0.37 }])).toMatchObject({ lo: 0, ticks: [0, 0.5, 1, 1.5], digits: 1 });
    // Ticks 0.25 apart read 10.25, not 10.3; 2.5 apart 7.5, not 8.
    expect(yScale([{ date: 'a', value: 9.9 }, { date: 'b', value: 10.9 }])).toMatchObject({ ticks: [9.75, 10, 10.25, 10.5, 10.75, 11], digits: 2 });
    expect(yScale([{ date: 'a', value: 0 }, { date: 'b', value: 9 }]).digits).toBe(1);
    expect(yScale([{ date: 'a', value: 0 }]).lo).toBe(0);
    expect(yScale([{ date: 'a', value: -2 }]).lo).toBeLessThan(-2);
  });

  it('zooms to dragged days and pages by the zoomed width', () => {
    expect(zoomTo(7, 3, 10)).toEqual({ first: 3, last: 7 });
    expect(zoomTo(-2, 40, 10)).toEqual({ first: 0, last: 9 });
    expect(pageWindow({ first: 3, last: 5 }, 1, 10)).toEqual({ first: 6, last: 8 });
    expect(pageWindow({ first: 6, last: 8 }, 1, 10)).toEqual({ first: 7, last: 9 });
    expect(pageWindow({ first: 1, last: 3 }, -1, 10)).toEqual({ first: 0, last: 2 });
  });
});

describe("an index's line", () => {
  it('joins consecutive nights only: a day without a night or without an index breaks it, a lone night is a dot', () => {
    const values: Record<string, number | null> = { d1: 4, d2: 5, d3: null, d5: 7, d6: 8, d7: 9, d9: 3 };
    const days = ['d1', 'd2', 'd3', 'd4', 'd5', 'd6', 'd7', 'd8', 'd9'];
    expect(valueRuns(days, (d) => values[d] ?? null)).toEqual([[0, 1], [4, 5, 6]]);
    expect(valueRuns(['a', 'b', 'c'], () => 1)).toEqual([[0, 1, 2]]);
    expect(valueRuns(['a', 'b'], () => null)).toEqual([]);
  });
});
