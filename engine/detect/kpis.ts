import type { DetectedEvent, Series } from './series';
import type { Band, SleepMetrics } from './sleep';

/** The RII divisors (spec 1 §9): one at a time. */
export type RiiDivisor = 'GSD' | 'TST' | 'TBT' | 'TBR';

/** Labels counted for the customized index (spec 2 §3). */
export const INDEX_LABELS = ['Apnea', 'Hypoapnea', 'Movement', 'Central Apnea', 'Obstructive Apnea', 'Irregularities'] as const;

/**
 * Whether a night's AHI/RII rest on a breathing signal (docs/decisions/0065-no-index-without-a-basis.md):
 * 'no_breathing_signal_in_sleep' when the night has one, and sleep staging, but the signal was
 * recorded during none of the sleep (docs/decisions/1033-an-index-per-hour-of-its-signal.md).
 */
export type AhiBasis = 'breathing_signal' | 'no_breathing_signal' | 'no_breathing_signal_in_sleep';

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
   * breathing signal; 'no_breathing_signal' (oximeter-only night): AHI and RII are null, never 0;
   * 'no_breathing_signal_in_sleep': staged sleep, but no breathing signal during any of it.
   */
  ahiBasis: AhiBasis;
  /**
   * The hours AHI (and RII over TST) is divided by: sleep with a valid breathing signal (staged
   * nights), else the monitoring time. A sensor that fell off for part of the sleep scored no
   * event then, so that part is not counted (decision 1033).
   */
  ahiHoursH: number;
  /** The hours ODI is divided by: sleep with a valid SpO2 (staged nights), else the time with a valid SpO2. */
  odiHoursH: number;
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
export function nightKpis(input: {
  events: readonly DetectedEvent[];
  sleep: SleepMetrics;
  sqb?: Series;
  br?: Series;
  divisor?: RiiDivisor;
  monitoringH?: number;
  oximetry?: boolean;
  breathing?: boolean;
  /** Sleep with a valid breathing signal, h (staged nights); absent: all of TST. */
  sleepBreathingH?: number;
  /** The hours ODI is counted over (see NightKpis.odiHoursH); absent: the same basis as AHI. */
  odiHoursH?: number;
}): NightKpis {
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
  // An index is per hour of the time its signal was recorded in (decision 1033): with staging,
  // the sleep during which the breathing signal was valid; without, the monitoring time.
  const ahiHoursH = indexBasis === 'sleep' ? Math.min(tstH, input.sleepBreathingH ?? tstH) : monitoringH;
  const odiHoursH = input.odiHoursH ?? ahiHoursH;
  const divisorH = { GSD: gsdH, TST: ahiHoursH, TBT: input.sleep.tbtH, TBR: tbrH }[divisor];
  // No breathing signal, no apnea could have been seen: AHI and RII have no basis (null), not 0;
  // nor when the signal was recorded, but during none of the staged sleep.
  const ahiBasis: AhiBasis = input.breathing === false ? 'no_breathing_signal' : indexBasis === 'sleep' && ahiHoursH <= 0 ? 'no_breathing_signal_in_sleep' : 'breathing_signal';
  const scored = ahiBasis === 'breathing_signal';
  return {
    apneas,
    hypopneas,
    desaturations,
    ahi: scored ? perHour(apneas + hypopneas, ahiHoursH) : null,
    // Without oximetry there is no desaturation to count: no ODI, not an ODI of 0.
    odi: input.oximetry === false ? null : perHour(desaturations, odiHoursH),
    // RII keeps its chosen divisor but counts AHI's events (those scored during sleep): with no
    // breathing signal in any sleep none could be scored, so RII has no basis either (null, not 0).
    rii: scored ? perHour(apneas + hypopneas, divisorH) : null,
    ahiBasis,
    ahiHoursH: toSecond(ahiHoursH),
    odiHoursH: toSecond(odiHoursH),
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
 * seconds with a valid SpO2; with `within` (sorted, disjoint spans, ms UTC: the night's sleep),
 * only the seconds that start inside one of them.
 */
export function monitoringHours(breathing: Series | undefined, spo2: Series | undefined, quality?: Series, within?: readonly Band[]): number {
  const s = breathing ?? spo2;
  if (!s) return 0;
  const perS = Math.max(1, Math.round(s.rate));
  let seconds = 0;
  let band = 0;
  for (let i0 = 0; i0 < s.values.length; i0 += perS) {
    if (within) {
      const t = s.t0 + (i0 * 1000) / s.rate;
      while (band < within.length && within[band].to <= t) band++;
      if (band === within.length) break;
      if (t < within[band].from) continue;
    }
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
