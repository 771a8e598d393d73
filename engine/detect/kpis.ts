import type { DetectedEvent, Series } from './series';
import type { SleepMetrics } from './sleep';

/** The RII divisors (spec 1 §9): one at a time. */
export type RiiDivisor = 'GSD' | 'TST' | 'TBT' | 'TBR';

/** Labels counted for the customized index (spec 2 §3). */
export const INDEX_LABELS = ['Apnea', 'Hypoapnea', 'Movement', 'Central Apnea', 'Obstructive Apnea', 'Irregularities'] as const;

/** Whether a night's AHI/RII rest on a breathing signal (docs/decisions/0065-no-index-without-a-basis.md). */
export type AhiBasis = 'breathing_signal' | 'no_breathing_signal';

export interface NightKpis {
  apneas: number;
  hypopneas: number;
  desaturations: number;
  /**
   * (apneas + hypopneas) per hour of sleep; without sleep staging (TST 0), per hour of
   * monitoring time (the home-sleep-test REI, `indexBasis` 'monitoring'); null only when
   * both are 0.
   */
  ahi: number | null;
  /** desaturations per hour of the same basis as `ahi`. */
  odi: number | null;
  /** respiratory events per hour of the divisor (TST falls back to the monitoring time without staging); null when the divisor is 0. */
  rii: number | null;
  /** What AHI and ODI are divided by: sleep time (TST), or monitoring time when the night has no sleep staging (REI). */
  indexBasis: 'sleep' | 'monitoring';
  /**
   * Why AHI (and RII) have a value or not: 'breathing_signal' when apneas were scored on a
   * breathing signal; 'no_breathing_signal' (oximeter-only night): AHI and RII are null, never 0.
   */
  ahiBasis: AhiBasis;
  /** Monitoring time, h: the time with a valid breathing signal (else valid SpO2) that events are scored on. */
  monitoringH: number;
  riiDivisor: RiiDivisor;
  /** Good signal duration (SQB good), h. */
  gsdH: number;
  /** True when the night has a signal-quality channel (SQB): without one, GSD and SQ are not known (0 h is no figure). */
  quality: boolean;
  /** Total breathing time (valid BR), h. */
  tbrH: number;
  tstH: number;
  tbtH: number;
}

/** Hours of samples in a series meeting a condition. */
function hoursWhere(s: Series | undefined, ok: (v: number) => boolean): number {
  if (!s) return 0;
  let n = 0;
  for (let i = 0; i < s.values.length; i++) if (ok(s.values[i])) n++;
  return n / s.rate / 3600;
}

/**
 * A duration in hours kept to the second: the screens and reports show it as h:mm:ss, and a
 * hundredth of an hour (36 s) made a 7:33:20 night read 7:33:36.
 */
const toSecond = (hours: number) => Math.round(hours * 3600) / 3600;
const perHour = (count: number, hours: number) => (hours > 0 ? Math.round((count / hours) * 100) / 100 : null);

/**
 * The night's indices (docs/decisions/0055-clinical-analytics-formulas.md gives each formula): AHI = (apneas + hypopneas)
 * / TST h; ODI = desaturations / TST h; RII = (apneas + hypopneas) / divisor h, the divisor
 * one of GSD, TST, TBT, TBR; GSD = hours with SQB good; TBR = hours with a valid BR.
 */
export function nightKpis(input: { events: readonly DetectedEvent[]; sleep: SleepMetrics; sqb?: Series; br?: Series; divisor?: RiiDivisor; monitoringH?: number; oximetry?: boolean; breathing?: boolean }): NightKpis {
  const apneas = input.events.filter((e) => e.kind === 'apnea').length;
  const hypopneas = input.events.filter((e) => e.kind === 'hypopnea').length;
  const desaturations = input.events.filter((e) => e.kind === 'desaturation').length;
  const tstH = input.sleep.tstS / 3600;
  const gsdH = hoursWhere(input.sqb, (v) => v === 1);
  const tbrH = hoursWhere(input.br, (v) => Number.isFinite(v));
  const divisor = input.divisor ?? 'TBT';
  const monitoringH = input.monitoringH ?? 0;
  // Without sleep staging there is no TST: the indices are per hour of monitoring (REI).
  const indexBasis = tstH > 0 ? 'sleep' : 'monitoring';
  const basisH = indexBasis === 'sleep' ? tstH : monitoringH;
  const divisorH = { GSD: gsdH, TST: basisH, TBT: input.sleep.tbtH, TBR: tbrH }[divisor];
  // No breathing signal, no apnea could have been seen: AHI and RII have no basis (null), not 0.
  const scored = input.breathing !== false;
  return {
    apneas,
    hypopneas,
    desaturations,
    ahi: scored ? perHour(apneas + hypopneas, basisH) : null,
    // Without oximetry there is no desaturation to count: no ODI, not an ODI of 0.
    odi: input.oximetry === false ? null : perHour(desaturations, basisH),
    rii: scored ? perHour(apneas + hypopneas, divisorH) : null,
    ahiBasis: scored ? 'breathing_signal' : 'no_breathing_signal',
    riiDivisor: divisor,
    indexBasis,
    monitoringH: toSecond(monitoringH),
    gsdH: toSecond(gsdH),
    quality: input.sqb !== undefined,
    tbrH: toSecond(tbrH),
    tstH: toSecond(tstH),
    tbtH: toSecond(input.sleep.tbtH),
  };
}

/**
 * Monitoring time, h (the REI's divisor): seconds in which the breathing signal has valid
 * samples (and `quality`, e.g. radar SQB, is not bad), or, without a breathing signal,
 * seconds with a valid SpO2.
 */
export function monitoringHours(breathing: Series | undefined, spo2: Series | undefined, quality?: Series): number {
  const s = breathing ?? spo2;
  if (!s) return 0;
  const perS = Math.max(1, Math.round(s.rate));
  let seconds = 0;
  for (let i0 = 0; i0 < s.values.length; i0 += perS) {
    let ok = false;
    for (let i = i0; i < Math.min(s.values.length, i0 + perS) && !ok; i++) ok = Number.isFinite(s.values[i]);
    if (ok && quality && breathing) {
      const qi = Math.floor(((s.t0 + (i0 * 1000) / s.rate - quality.t0) * quality.rate) / 1000);
      if (qi >= 0 && qi < quality.values.length && quality.values[qi] === 0) ok = false;
    }
    // A sample slower than 1 Hz covers 1/rate seconds.
    if (ok) seconds += s.rate < 1 ? 1 / s.rate : 1;
  }
  return seconds / 3600;
}

/** Annotation counts per label of the customized index. */
export function customizedIndex(labels: readonly string[]): Record<(typeof INDEX_LABELS)[number], number> {
  const out = Object.fromEntries(INDEX_LABELS.map((l) => [l, 0])) as Record<(typeof INDEX_LABELS)[number], number>;
  for (const l of labels) if ((INDEX_LABELS as readonly string[]).includes(l)) out[l as (typeof INDEX_LABELS)[number]]++;
  return out;
}
