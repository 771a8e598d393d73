import { describe, expect, it } from 'vitest';
import { calendarDays } from '../../server/devices/allocations';

const HOUR = 3_600_000;

describe('calendarDays (free dates and allocations share local midnight)', () => {
  it('starts each day at local midnight and gives the autumn DST day 25 hours (Europe/Vienna, 2026-10-25)', () => {
    const days = calendarDays('Europe/Vienna', 3, Date.UTC(2026, 9, 24, 10));
    expect(days.map((d) => d.date)).toEqual(['2026-10-24', '2026-10-25', '2026-10-26']);
    expect(days.map((d) => (d.to - d.from) / HOUR)).toEqual([24, 25, 24]);
    expect(days[0]!.from).toBe(Date.UTC(2026, 9, 23, 22)); // 00:00 CEST
    expect(days[2]!.from).toBe(Date.UTC(2026, 9, 25, 23)); // 00:00 CET
    for (let i = 1; i < days.length; i++) expect(days[i]!.from).toBe(days[i - 1]!.to);
  });

  it('gives the spring DST day 23 hours (America/New_York, 2027-03-14)', () => {
    const days = calendarDays('America/New_York', 2, Date.UTC(2027, 2, 14, 4, 30)); // 23:30 on the 13th locally
    expect(days.map((d) => d.date)).toEqual(['2027-03-13', '2027-03-14']);
    expect(days.map((d) => (d.to - d.from) / HOUR)).toEqual([24, 23]);
  });

  it('uses the local day, not the UTC day, late in the evening west of Greenwich', () => {
    const [today] = calendarDays('America/Los_Angeles', 1, Date.UTC(2026, 10, 24, 3)); // 19:00 on the 23rd locally
    expect(today!.date).toBe('2026-11-23');
  });
});
