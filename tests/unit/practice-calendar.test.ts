import { describe, expect, it } from 'vitest';
import type { CalendarEvent } from '../../src/features/practice/api';
import { addMonths, buildMonth, countKinds, monthOf, monthRange } from '../../src/features/practice/calendar';

const event = (kind: CalendarEvent['kind'], date: string, code: string): CalendarEvent => ({ kind, date, patient_id: Number(code.slice(-1)), patient_code: code, patient_name: '', timezone: 'Europe/Zurich' });

describe('practice calendar month', () => {
  it('asks for the first to the last day of a month, leap years included', () => {
    expect(monthRange(2026, 1)).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(monthRange(2028, 1)).toEqual({ from: '2028-02-01', to: '2028-02-29' });
    expect(monthRange(2026, 11)).toEqual({ from: '2026-12-01', to: '2026-12-31' });
  });

  it('lays the month out Monday first, with each day’s entries in order', () => {
    // November 2026 starts on a Sunday: six padding days before the 1st.
    const weeks = buildMonth(2026, 10, [event('return', '2026-11-03', 'NCT1002'), event('checkup', '2026-11-03', 'NCT1003'), event('booking', '2026-11-03', 'NCT1001'), event('checkup', '2026-11-03', 'NCT1001'), event('checkup', '2026-11-30', 'NCT1004')], '2026-11-23');
    expect(weeks).toHaveLength(6);
    expect(weeks.every((w) => w.length === 7)).toBe(true);
    expect(weeks[0]!.slice(0, 6).every((d) => d.date === null && d.events.length === 0)).toBe(true);
    expect(weeks[0]![6]!.date).toBe('2026-11-01');
    const third = weeks[1]!.find((d) => d.date === '2026-11-03')!;
    expect(third.events.map((e) => `${e.kind}:${e.patient_code}`)).toEqual(['checkup:NCT1001', 'checkup:NCT1003', 'booking:NCT1001', 'return:NCT1002']);
    expect(weeks.flat().filter((d) => d.today).map((d) => d.date)).toEqual(['2026-11-23']);
    expect(weeks[5]![0]!.date).toBe('2026-11-30');
    expect(weeks[5]![0]!.events).toHaveLength(1);
    expect(weeks.flat().filter((d) => d.date).length).toBe(30);
  });

  it('drops entries outside the month and counts kinds', () => {
    const events = [event('checkup', '2026-10-31', 'NCT1001'), event('return', '2026-11-05', 'NCT1002'), event('return', '2026-11-06', 'NCT1003')];
    expect(buildMonth(2026, 10, events, '2026-01-01').flat().flatMap((d) => d.events)).toHaveLength(2);
    expect(countKinds(events)).toEqual({ checkup: 1, booking: 0, return: 2 });
  });

  it('moves across years', () => {
    expect(monthOf('2026-01-15')).toEqual({ year: 2026, month: 0 });
    expect(addMonths(2026, 0, -1)).toEqual({ year: 2025, month: 11 });
    expect(addMonths(2026, 11, 1)).toEqual({ year: 2027, month: 0 });
  });
});

describe('membership', () => {
  it('leaves the automated scoring items out of a paid membership, as the spec says', async () => {
    const { MEMBERSHIP_FEATURES, membershipIncludes } = await import('../../src/state/membership');
    for (const f of Object.keys(MEMBERSHIP_FEATURES) as Array<keyof typeof MEMBERSHIP_FEATURES>) {
      expect(membershipIncludes('non-paid', f), f).toBe(true);
      expect(membershipIncludes('paid', f), f).toBe(false);
    }
  });
});
