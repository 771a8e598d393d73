import { describe, expect, it } from 'vitest';
import { attentionOf, compareTriage, type TriageNight, type TriagePatient } from '../../server/analytics/triage';
import { sparkGeometry } from '../../src/features/dashboard/sparklines';
import { formatDuration, formatHours } from '../../engine/duration';

const night = (f: Partial<TriageNight>): TriageNight => ({ night: 1, recording_id: 1, analysed: true, ahi: null, odi: null, index_basis: 'sleep', lowest_spo2: null, hours: 8, ...f });
const patient = (code: string, last: TriageNight | null, flagged = false): TriagePatient => ({
  patient_id: code.length, patient_code: code, name: '', flagged, attention: last ? attentionOf(last) : null, last, nights: last ? [last] : [],
});

describe('triage order', () => {
  it('attention is the worst of AHI/REI, ODI and lowest SpO2 severities', () => {
    expect(attentionOf(night({ ahi: 4.9, odi: 2, lowest_spo2: 93 }))).toBe(0);
    expect(attentionOf(night({ ahi: 5, lowest_spo2: 93 }))).toBe(1);
    expect(attentionOf(night({ ahi: 12, odi: 31, lowest_spo2: 93 }))).toBe(3);
    expect(attentionOf(night({ ahi: 2, lowest_spo2: 84 }))).toBe(2);
    expect(attentionOf(night({ analysed: false }))).toBeNull();
  });

  it('sorts by attention, then flagged, then AHI, then lowest SpO2, patients without a night last', () => {
    const rows = [
      patient('A', null),
      patient('B', night({ ahi: 8 })),
      patient('C', night({ ahi: 40 })),
      patient('D', night({ ahi: 6 }), true),
      patient('E', night({ ahi: 8, lowest_spo2: 88 })),
      patient('F', night({ ahi: 8, lowest_spo2: 89.5 })),
    ];
    // E: SpO2 88 is level 1 like AHI 8, so E ties with B and F on level; AHI ties; SpO2 decides.
    expect([...rows].sort(compareTriage).map((p) => p.patient_code)).toEqual(['C', 'D', 'E', 'F', 'B', 'A']);
  });
});

describe('sparkline geometry', () => {
  it('joins consecutive nights with values, breaks at an unknown one, and pads the value range', () => {
    const g = sparkGeometry([{ t: 1000, v: 10 }, { t: 2000, v: 20 }, { t: 3000, v: null }, { t: 4000, v: 30 }], 1000);
    expect(g.lineVertices).toBe(2);
    expect([...g.lines]).toEqual([0, 10, 1000, 20]);
    expect(g.dotVertices).toBe(3);
    expect([...g.dots]).toEqual([0, 10, 1000, 20, 3000, 30]);
    expect(g.lo).toBeLessThan(10);
    expect(g.hi).toBeGreaterThan(30);
  });

  it('a single night still gets a range around it', () => {
    const g = sparkGeometry([{ t: 0, v: 90 }], 0);
    expect(g.lo).toBeLessThan(90);
    expect(g.hi).toBeGreaterThan(90);
  });
});

describe('one duration formatter', () => {
  it('formats h:mm:ss zero-padded, "–" when unknown', () => {
    expect(formatDuration(30_000)).toBe('0:00:30');
    expect(formatDuration(7 * 3_600_000 + 5 * 60_000)).toBe('7:05:00');
    expect(formatHours(6.47)).toBe('6:28:12');
    expect(formatHours(null)).toBe('–');
    expect(formatDuration(Number.NaN)).toBe('–');
  });
});
