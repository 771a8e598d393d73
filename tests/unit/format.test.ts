import { describe, expect, it } from 'vitest';
import { formatDay, formatDateTime, formatHours, formatInstant, formatIsoDay, formatNumber, formatTime } from '../../src/format';

// 2026-01-05 22:03:09 UTC: already the 6th in Tokyo, still the 5th in Vienna.
const MS = Date.UTC(2026, 0, 5, 22, 3, 9);

describe('one formatting module', () => {
  it('writes decimals with the locale separator', () => {
    expect(formatNumber(24.456, 'en-US', 2)).toBe('24.46');
    expect(formatNumber(24.456, 'de-AT', 2)).toBe('24,46');
    expect(formatNumber(24.456, 'fr-FR', 2)).toBe('24,46');
    expect(formatNumber(Number.NaN, 'de-AT', 1)).toBe('–');
    // A value that rounds to zero has no sign (a mean of −0.03 at one digit), a negative one keeps it.
    expect(formatNumber(-0.03, 'en-US', 1)).toBe('0.0');
    expect(formatNumber(-0.3, 'en-US', 1)).toBe('-0.3');
    expect(formatNumber(-0.004, 'de-AT', 2)).toBe('0,00');
    expect(formatHours(7.5 * 3_600_000, 'fr-FR')).toBe('7,5');
  });

  it('writes days in the patient zone with local month names', () => {
    expect(formatDay(MS, 'Europe/Vienna', 'en-US')).toBe('05 Jan 2026');
    expect(formatDay(MS, 'Asia/Tokyo', 'en-US')).toBe('06 Jan 2026');
    expect(formatDay(MS, 'Europe/Vienna', 'de-AT')).toMatch(/^05 Jän\.? 2026$/);
    expect(formatDay(MS, 'Europe/Paris', 'fr-FR')).toMatch(/^05 janv\.? 2026$/);
    expect(formatIsoDay('2026-03-05', 'de-AT')).toMatch(/^05 Mär(z|\.)? 2026$/);
    // Chinese: year first, with its own marks, never "22 11 2026".
    expect(formatIsoDay('2026-11-22', 'zh-Hans-CN')).toBe('2026年11月22日');
    expect(formatDay(MS, 'Europe/Vienna', 'zh-Hans-CN')).toBe('2026年1月5日');
    expect(formatDateTime(MS, 'Europe/Vienna', 'zh-Hans-CN')).toMatch(/^2026年1月5日 \d{2}:\d{2}$/);
  });

  it('writes 24-hour times in the zone', () => {
    expect(formatTime(MS, 'Europe/Vienna', 'en-US')).toBe('23:03:09');
    expect(formatTime(MS, 'UTC', 'fr-FR', false)).toBe('22:03');
    expect(formatDateTime(MS, 'Europe/Vienna', 'de-AT')).toMatch(/^05 Jän\.? 2026, 23:03$/);
  });

  it('writes when something happened in the app day format and 24-hour time, never am/pm', () => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
    const iso = new Date(MS).toISOString();
    expect(formatInstant(iso, 'en-US')).toBe(formatDateTime(MS, zone, 'en-US'));
    expect(formatInstant(MS, 'en-US')).toBe(formatInstant(iso, 'en-US'));
    expect(formatInstant(iso, 'en-US')).toMatch(/^\d{2} [A-Z][a-z]{2} 2026, \d{2}:\d{2}$/);
    for (const lng of ['en-US', 'de-AT', 'fr-FR', 'es', 'it-IT', 'ar-SA', 'zh-Hans-CN']) expect(formatInstant(iso, lng)).not.toMatch(/AM|PM|a\.m\.|p\.m\.|午|ص|م$/);
  });

  it('keeps Gregorian dates and Latin digits in Arabic', () => {
    expect(formatNumber(24.456, 'ar-SA', 2)).toBe('24.46');
    const day = formatDay(MS, 'Asia/Riyadh', 'ar-SA');
    expect(day).toContain('2026');
    expect(day).toContain('يناير');
    expect(formatTime(MS, 'Asia/Riyadh', 'ar-SA')).toBe('01:03:09');
  });
});
