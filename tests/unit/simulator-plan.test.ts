// planNights lays out consecutive evenings; the long night it asks for simulates in full.
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { planNights, simulateNight } from '../../server/simulator/index';

const HOUR = 3_600_000;

describe('planNights', () => {
  it('plans consecutive evenings starting 21:30–23:30 local, 6–10 h long, one of them ≥ 10 h', () => {
    const timezone = 'America/New_York';
    const plans = planNights({ seed: 'P-001', nights: 7, firstEvening: '2026-03-05', timezone, longNight: true, psgEvery: 3 });
    expect(plans).toHaveLength(7);
    plans.forEach((p, i) => {
      const local = DateTime.fromMillis(p.startMs, { zone: timezone });
      expect(local.toISODate()).toBe(DateTime.fromISO('2026-03-05').plus({ days: i }).toISODate());
      const minutes = local.hour * 60 + local.minute;
      expect(minutes).toBeGreaterThanOrEqual(21 * 60 + 30);
      expect(minutes).toBeLessThanOrEqual(23 * 60 + 30);
      expect(p.durationMs).toBeGreaterThanOrEqual(6 * HOUR);
      expect(p.durationMs).toBeLessThanOrEqual(10.75 * HOUR);
      expect(p.timezone).toBe(timezone);
      expect(p.seed).toBe(`P-001/${i}`);
      expect(p.psg).toBe(i % 3 === 0);
      if (i > 0) expect(p.startMs).toBeGreaterThan(plans[i - 1]!.startMs + plans[i - 1]!.durationMs);
    });
    expect(plans.filter((p) => p.durationMs >= 10 * HOUR).length).toBeGreaterThanOrEqual(1);
  });

  it('is deterministic, varies with the seed, and can end on a given evening', () => {
    const opts = { seed: 7, nights: 4, lastEvening: '2026-03-20', timezone: 'Europe/Vienna' };
    expect(planNights(opts)).toEqual(planNights(opts));
    expect(planNights({ ...opts, seed: 8 })).not.toEqual(planNights(opts));
    const plans = planNights(opts);
    expect(DateTime.fromMillis(plans[3]!.startMs, { zone: 'Europe/Vienna' }).toISODate()).toBe('2026-03-20');
    expect(DateTime.fromMillis(plans[0]!.startMs, { zone: 'Europe/Vienna' }).toISODate()).toBe('2026-03-17');
    expect(plans.every((p) => !p.psg)).toBe(true);
  });

  it('refuses a bad date or count', () => {
    expect(() => planNights({ seed: 1, nights: 2, firstEvening: 'yesterday' })).toThrow(RangeError);
    expect(() => planNights({ seed: 1, nights: -1, firstEvening: '2026-03-01' })).toThrow(RangeError);
    expect(() => planNights({ seed: 1, nights: 2 })).toThrow(RangeError);
  });
});

describe('a long night', () => {
  it('simulates a planned ≥ 10 h night with PSG in full', () => {
    const plan = planNights({ seed: 'long', nights: 3, firstEvening: '2026-01-10', longNight: true })
      .find((p) => p.durationMs >= 10 * HOUR)!;
    const night = simulateNight({ ...plan, psg: true, profile: 'severe_osa' });
    const seconds = plan.durationMs / 1000;
    expect(night.stopMs - night.startMs).toBe(plan.durationMs);
    expect(night.timezone).toBe('Europe/Vienna');
    const length = (code: string): number => night.channels.find((c) => c.code === code)!.samples.length;
    expect(length('Y_DIST')).toBe(seconds * 20);
    expect(length('I')).toBe(seconds * 20);
    expect(length('NC_PSG')).toBe(seconds * 25);
    expect(length('SPO2')).toBe(seconds);
    expect(length('SLP_STGS')).toBe(Math.ceil(seconds / 30));
    expect(night.truth.filter((t) => t.kind === 'sleep_cycle').length).toBeGreaterThanOrEqual(6);
    expect(night.meta.ahi as number).toBeGreaterThan(25);
    const last = night.truth.reduce((m, t) => Math.max(m, t.onsetMs + t.durationMs), 0);
    expect(last).toBeLessThanOrEqual(night.stopMs);
  });

  it('also makes very short nights, cut to whole seconds', () => {
    const night = simulateNight({ seed: 'nap', startMs: 1_700_000_000_000, durationMs: 10 * 60_000 + 999, psg: true });
    expect(night.stopMs - night.startMs).toBe(600_000);
    expect(night.channels.find((c) => c.code === 'Y_DIST')!.samples.length).toBe(12_000);
    expect(night.channels.find((c) => c.code === 'SLP_STGS')!.samples.length).toBe(20);
  });

  it('refuses nonsense options', () => {
    expect(() => simulateNight({ seed: 1, startMs: Number.NaN })).toThrow(RangeError);
    expect(() => simulateNight({ seed: 1, startMs: 0, durationMs: 60_000 })).toThrow(RangeError);
    expect(() => simulateNight({ seed: 1, startMs: 0, profile: 'nobody' as never })).toThrow(RangeError);
  });
});

describe('the demo seed clock (issue 32.3)', () => {
  it('at any hour seeds no night ending after now, and leaves the night in progress free for a streaming device', async () => {
    const { lastEndedEvening } = await import('../../server/simulator/simulated');
    const { nightKey } = await import('../../server/recordings/night-key');
    const DEMO = ['NCT1001', 'NCT1002', 'NCT1003', 'NCT1004'];
    // Every hour of a winter day, of the spring-forward day, and 00:50 UTC (the reported case).
    const clocks = [Date.UTC(2026, 10, 28, 0, 50), ...Array.from({ length: 24 }, (_, h) => Date.UTC(2026, 0, 15, h, 10)), ...Array.from({ length: 24 }, (_, h) => Date.UTC(2026, 2, 29, h, 40))];
    for (const timezone of ['Europe/Zurich', 'America/Los_Angeles', 'Asia/Tokyo']) {
      for (const now of clocks) {
        const last = lastEndedEvening(now, timezone);
        for (const seed of DEMO) {
          for (const p of planNights({ seed, nights: 5, lastEvening: last, timezone, longNight: true })) {
            expect(p.startMs + p.durationMs, `${seed} ${new Date(now).toISOString()} ${timezone}`).toBeLessThanOrEqual(now);
            expect(nightKey(p.startMs, timezone)).toBeLessThan(nightKey(now, timezone));
          }
        }
        // The latest ended evening, not an older one: the seeded last night is "last night".
        expect(DateTime.fromISO(last, { zone: 'UTC' }).plus({ days: 1 }).toMillis() / 1000).toBe(nightKey(now, timezone));
      }
    }
  });
});
