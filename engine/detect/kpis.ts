import type { DetectedEvent, Series } from './series';
import type { SleepMetrics } from './sleep';

/** The RII divisors (spec 1 §9): one at a time. */
export type RiiDivisor = 'GSD' | 'TST' | 'TBT' | 'TBR';

/** Labels counted for the customized index (spec 2 §3). */
export const INDEX_LABELS = ['Apnea', 'Hypoapnea', 'Movement', 'Central Apnea', 'Obstructive Apnea', 'Irregularities'] as const;

export interface NightKpis {
  apneas: number;
  hypopneas: number;
  desaturations: number;
  /** (apneas + hypopneas) per hour of sleep; null without sleep. */
  ahi: number | null;
  /** desaturations per hour of sleep; null without sleep. */
  odi: number | null;
  /** respiratory events per hour of the divisor; null when the divisor is 0. */
  rii: number | null;
  riiDivisor: RiiDivisor;
  /** Good signal duration (SQB good), h. */
  gsdH: number;
  /** Total breathing time (valid BR), h. */
  tbrH: number;
  tstH: number;
  tbtH: number;
}

/** Hours of samples in a series meeting a condition. */
export function hoursWhere(s: Series | undefined, ok: (v: number) => boolean): number {
  if (!s) return 0;
  let n = 0;
  for (let i = 0; i < s.values.length; i++) if (ok(s.values[i])) n++;
  return n / s.rate / 3600;
}

const perHour = (count: number, hours: number) => (hours > 0 ? Math.round((count / hours) * 100) / 100 : null);

/**
 * The night's indices (README "Decisions" gives each formula): AHI = (apneas + hypopneas)
 * / TST h; ODI = desaturations / TST h; RII = (apneas + hypopneas) / divisor h, the divisor
 * one of GSD, TST, TBT, TBR; GSD = hours with SQB good; TBR = hours with a valid BR.
 */
export function nightKpis(input: { events: readonly DetectedEvent[]; sleep: SleepMetrics; sqb?: Series; br?: Series; divisor?: RiiDivisor }): NightKpis {
  const apneas = input.events.filter((e) => e.kind === 'apnea').length;
  const hypopneas = input.events.filter((e) => e.kind === 'hypopnea').length;
  const desaturations = input.events.filter((e) => e.kind === 'desaturation').length;
  const tstH = input.sleep.tstS / 3600;
  const gsdH = hoursWhere(input.sqb, (v) => v === 1);
  const tbrH = hoursWhere(input.br, (v) => Number.isFinite(v));
  const divisor = input.divisor ?? 'TBT';
  const divisorH = { GSD: gsdH, TST: tstH, TBT: input.sleep.tbtH, TBR: tbrH }[divisor];
  return {
    apneas,
    hypopneas,
    desaturations,
    ahi: perHour(apneas + hypopneas, tstH),
    odi: perHour(desaturations, tstH),
    rii: perHour(apneas + hypopneas, divisorH),
    riiDivisor: divisor,
    gsdH: Math.round(gsdH * 100) / 100,
    tbrH: Math.round(tbrH * 100) / 100,
    tstH: Math.round(tstH * 100) / 100,
    tbtH: Math.round(input.sleep.tbtH * 100) / 100,
  };
}

/** Annotation counts per label of the customized index. */
export function customizedIndex(labels: readonly string[]): Record<(typeof INDEX_LABELS)[number], number> {
  const out = Object.fromEntries(INDEX_LABELS.map((l) => [l, 0])) as Record<(typeof INDEX_LABELS)[number], number>;
  for (const l of labels) if ((INDEX_LABELS as readonly string[]).includes(l)) out[l as (typeof INDEX_LABELS)[number]]++;
  return out;
}
