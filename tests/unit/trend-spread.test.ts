// Issue 31 point 8: the trend's mean index with its 95 % interval (t over nights), the
// night-to-night SD and the severity call's basis, against values worked out by hand.
import { describe, expect, it } from 'vitest';
import { indexSpread, severityOf, tQuantile975 } from '../../contract/trendSpread';

describe('indexSpread', () => {
  it('five nights: mean, sample SD and the t interval as computed by hand', () => {
    // 4, 6, 8, 10, 12: mean 8; squared deviations 16+4+0+4+16 = 40; SD = sqrt(40/4) = 3.1623;
    // t(0.975, 4) = 2.776; half-width 2.776 × 3.1623 / sqrt(5) = 3.9259 → [4.07, 11.93].
    const s = indexSpread([4, 6, 8, 10, 12])!;
    expect(s).toMatchObject({ nights: 5, mean: 8, sd: 3.16, ci95: [4.07, 11.93], method: 't_over_nights', severity: 'mild', fewNights: false });
    // 4.07 is "none" and 11.93 is "mild": the interval stays within none..mild, so the call is uncertain.
    expect(s.severityUncertain).toBe(true);
  });

  it('two nights: the call rests on too few nights, the interval is wide (t with 1 df)', () => {
    // 20, 22: mean 21, SD sqrt(2) = 1.4142, half-width 12.706 × 1.4142 / sqrt(2) = 12.706 → [8.29, 33.71].
    const s = indexSpread([20, 22])!;
    expect(s).toMatchObject({ nights: 2, mean: 21, sd: 1.41, ci95: [8.29, 33.71], severity: 'moderate', fewNights: true, severityUncertain: true });
  });

  it('one night: no SD and no interval; nights without a basis (null) are left out; none at all gives null', () => {
    expect(indexSpread([null, 3.5, null])).toMatchObject({ nights: 1, mean: 3.5, sd: null, ci95: null, fewNights: true, severityUncertain: false });
    expect(indexSpread([null, null])).toBeNull();
    expect(indexSpread([])).toBeNull();
  });

  it('a steady severe patient: the interval stays in one class and is not below 0', () => {
    const s = indexSpread([40, 41, 39, 40])!;
    // SD sqrt(2/3) = 0.8165; t(3) = 3.182; half 3.182 × 0.8165 / 2 = 1.299 → [38.70, 41.30].
    expect(s).toMatchObject({ mean: 40, sd: 0.82, ci95: [38.7, 41.3], severity: 'severe', severityUncertain: false });
    expect(indexSpread([0, 0, 1])!.ci95![0]).toBe(0);
  });

  it('AASM classes and t quantiles', () => {
    expect([4.99, 5, 14.99, 15, 30].map(severityOf)).toEqual(['none', 'mild', 'mild', 'moderate', 'severe']);
    expect(tQuantile975(1)).toBe(12.706);
    expect(tQuantile975(29)).toBe(2.045);
    expect(tQuantile975(500)).toBe(1.96);
  });
});
