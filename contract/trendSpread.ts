/**
 * A trend's index over the chosen nights with its uncertainty (issue 31 point 8), one function
 * for the trend view and the trend PDF: the mean over nights with its 95 % confidence interval
 * (Student's t over the nights: mean ± t(0.975, n−1)·SD/√n), the night-to-night spread (sample
 * SD) and the severity call the mean makes, with how many nights it rests on. One night
 * misclassifies about 17 % of home-monitored patients in published multi-night studies: a call
 * on fewer than {@link FEW_NIGHTS} nights, or whose interval spans more than one severity class,
 * is flagged. docs/decisions/0069-trend-interval.md.
 */

/** Below this many nights a severity call is flagged as resting on too few nights. */
export const FEW_NIGHTS = 3;

/** AASM severity classes of AHI/REI/ODI, events per hour: lower bounds. */
const SEVERITY_BOUNDS = { mild: 5, moderate: 15, severe: 30 } as const;

export type Severity = 'none' | 'mild' | 'moderate' | 'severe';

/** Two-sided 95 % Student t quantiles t(0.975, df) for df 1…30. */
const T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042] as const;

/** t(0.975, df): the table to 30, then 40/60/120 steps, then the normal 1.96. */
export function tQuantile975(df: number): number {
  if (df < 1) return Number.NaN;
  if (df <= 30) return T975[df - 1]!;
  if (df <= 40) return 2.021;
  if (df <= 60) return 2.0;
  if (df <= 120) return 1.98;
  return 1.96;
}

/** The severity class of an index value, events per hour. */
export function severityOf(value: number): Severity {
  if (value >= SEVERITY_BOUNDS.severe) return 'severe';
  if (value >= SEVERITY_BOUNDS.moderate) return 'moderate';
  if (value >= SEVERITY_BOUNDS.mild) return 'mild';
  return 'none';
}

export interface IndexSpread {
  /** Nights with a value. */
  nights: number;
  mean: number;
  /** Night-to-night standard deviation (sample, n − 1); null with one night. */
  sd: number | null;
  /** 95 % confidence interval of the mean (t over nights, not below 0); null with one night. */
  ci95: [number, number] | null;
  method: 't_over_nights';
  /** The severity class of the mean. */
  severity: Severity;
  /** True when the call rests on fewer than FEW_NIGHTS nights. */
  fewNights: boolean;
  /** True when the interval reaches into another severity class than the mean's. */
  severityUncertain: boolean;
}

const round2 = (v: number) => Math.round(v * 100) / 100;

/** The spread of a night index over nights (null values are nights without a basis and are left out); null without any value. */
export function indexSpread(values: readonly (number | null)[]): IndexSpread | null {
  const xs = values.filter((v): v is number => v !== null && Number.isFinite(v));
  const n = xs.length;
  if (n === 0) return null;
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  const sd = n > 1 ? Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1)) : null;
  const half = sd === null ? null : (tQuantile975(n - 1) * sd) / Math.sqrt(n);
  const ci95: [number, number] | null = half === null ? null : [round2(Math.max(0, mean - half)), round2(mean + half)];
  const severity = severityOf(mean);
  return {
    nights: n,
    mean: round2(mean),
    sd: sd === null ? null : round2(sd),
    ci95,
    method: 't_over_nights',
    severity,
    fewNights: n < FEW_NIGHTS,
    severityUncertain: ci95 !== null && (severityOf(ci95[0]) !== severity || severityOf(ci95[1]) !== severity),
  };
}
