import { describe, expect, it } from 'vitest';
import {
  annotationErrors, categoryErrors, counts, digitsOnly, displayable, epochAt, escapeText, freeColors, isReadOnly, isVisible, neighbour, outOfRange, PALETTE, parseDuration, splitSeconds, vendorName,
} from '../../src/features/annotations/model';

describe('annotation rules (spec 2 §5)', () => {
  it('durations are [[hh:]mm:]ss within range', () => {
    expect(parseDuration('10')).toBe(10);
    expect(parseDuration('01:30')).toBe(90);
    expect(parseDuration('1:02:03')).toBe(3723);
    expect(parseDuration('24:00:00')).toBeNull();
    expect(parseDuration('00:60')).toBeNull();
    expect(parseDuration('1:2:3:4')).toBeNull();
    expect(parseDuration('ten')).toBeNull();
    expect(splitSeconds(3723)).toEqual({ h: '01', m: '02', s: '03' });
  });

  it('time fields take digits only and highlight out-of-range values', () => {
    expect(digitsOnly('1a2b3')).toBe('12');
    expect(digitsOnly('-5')).toBe('5');
    expect(outOfRange('24', 'h')).toBe(true);
    expect(outOfRange('23', 'h')).toBe(false);
    expect(outOfRange('60', 's')).toBe(true);
  });

  it('escapes backslashes and apostrophes', () => {
    expect(escapeText("O'Neill \\ x")).toBe("O\\'Neill \\\\ x");
  });

  it('the display filter drops annotations without label, kpi or a valid duration, or with unknown channels', () => {
    const known = new Set(['BR', 'SPO2', 'I', 'Q']);
    expect(displayable({ label: 1, kpi: 'BR,SPO2', duration: '0:0:10' }, known)).toBe(true);
    expect(displayable({ label: 0, kpi: 'BR', duration: '0:0:10' }, known)).toBe(false);
    expect(displayable({ label: 1, kpi: '', duration: '0:0:10' }, known)).toBe(false);
    expect(displayable({ label: 1, kpi: 'BR', duration: '0:61:0' }, known)).toBe(false);
    expect(displayable({ label: 1, kpi: 'BR,XYZ', duration: '0:0:10' }, known)).toBe(false);
  });

  it('form errors carry the spec messages', () => {
    expect(annotationErrors([], null, null)).toEqual(['annotations.errors.kpi', 'annotations.errors.duration', 'annotations.errors.category']);
    expect(annotationErrors(['BR'], 10, 1)).toEqual([]);
    expect(categoryErrors('', null)).toEqual(['annotations.errors.color', 'annotations.errors.title']);
    expect(categoryErrors('x'.repeat(21), '#DA7171')).toEqual(['annotations.errors.titleLength']);
  });

  it('offers 13 colours, minus those other categories use', () => {
    expect(PALETTE).toHaveLength(13);
    const cats = [{ label_id: 1, color_code: '#DA7171' }, { label_id: 7, color_code: '#f7dc6f' }];
    expect(freeColors(cats)).not.toContain('#DA7171');
    expect(freeColors(cats)).not.toContain('#F7DC6F');
    expect(freeColors(cats, 7)).toContain('#F7DC6F');
    expect(freeColors(cats)).toHaveLength(11);
  });

  it('device-scored events are read-only, shown by their own toggle, named by vendor', () => {
    const all = { system: true, custom: true, desaturation: true, device: true };
    expect(isReadOnly({ type: 'device' })).toBe(true);
    expect(isReadOnly({ type: 'system' })).toBe(false);
    expect(isReadOnly({ type: 'custom', read_only: true })).toBe(true);
    expect(isVisible({ type: 'device' }, { ...all, device: false })).toBe(false);
    expect(isVisible({ type: 'device' }, { ...all, system: false })).toBe(true);
    expect(isVisible({ type: 'system' }, { ...all, device: false })).toBe(true);
    expect(vendorName('resmed')).toBe('ResMed');
    expect(vendorName('edf+')).toBe('EDF+');
    expect(vendorName('philips')).toBe('philips');
  });

  it('counts, neighbours and epochs', () => {
    expect(counts([{ type: 'system' }, { type: 'system-edit' }, { type: 'custom' }, { type: 'desaturation' }, { type: 'device' }, { type: 'device' }])).toEqual({ system: 2, custom: 1, desaturation: 1, device: 2 });
    const list = [{ start_ms: 1000 }, { start_ms: 60_000 }, { start_ms: 120_000 }];
    expect(neighbour(list, 60_000, 1)).toEqual({ start_ms: 120_000 });
    expect(neighbour(list, 60_000, -1)).toEqual({ start_ms: 1000 });
    expect(neighbour(list, 120_000, 1)).toBeNull();
    expect(epochAt(95_000, 10_000)).toEqual({ start: 70_000, end: 100_000 });
  });
});

describe('popup times', async () => {
  const { clockSeconds, instantOfClock, zoneLabel } = await import('../../src/features/annotations/time');
  const start = Date.UTC(2026, 2, 9, 21, 30); // 22:30 in Zurich
  it('labels the zone as the spec does and maps clock times into the night', () => {
    expect(zoneLabel(start, 'Europe/Zurich')).toBe('GMT +1');
    expect(zoneLabel(start, 'Asia/Kolkata')).toBe('GMT +5.5');
    expect(clockSeconds(start, 'Europe/Zurich')).toBe(22 * 3600 + 30 * 60);
    expect(instantOfClock(23 * 3600, start, 'Europe/Zurich')).toBe(Date.UTC(2026, 2, 9, 22, 0));
    expect(instantOfClock(2 * 3600, start, 'Europe/Zurich')).toBe(Date.UTC(2026, 2, 10, 1, 0));
  });
});
