/**
 * The events a scorer following the AASM rules should find in a simulated night, taken
 * from what the generator wrote (not from any detector's output): each event's run of
 * whole clearly reduced breaths on the scored channel, and its desaturation as written in SPO2 (`written`, see written.ts). An event whose written breaths or
 * desaturation fall below the criteria is no truth event, and neither is one hidden by a
 * radar gap. Used by `npm run validate` and tests.
 */
import type { DesaturationTruth, RespiratoryTruth, TruthEvent, WrittenBreathsMs } from './types';

export interface ScoringTruthOptions {
  /** The breathing channel scored: the radar (Y_DIST) or the nasal flow (NC_PSG). */
  channel: 'radar' | 'flow';
  /** Whether the night is scored with its SpO2 (false: flow-only hypopneas). */
  oximetry: boolean;
  /** The desaturation rule, % points. */
  desaturationRule?: 3 | 4;
}

/** AASM levels (residual amplitude, fraction of baseline), minimum length, flow-only level. */
export const AASM = { apneaResidual: 0.1, hypopneaResidual: 0.7, flowOnlyResidual: 0.5, minDurationS: 10 } as const;

export interface ScoredTruthEvent {
  onsetMs: number;
  durationMs: number;
  kind: 'apnea' | 'hypopnea';
  /** The generator's event. */
  source: RespiratoryTruth;
}

/**
 * The truth events under the AASM rules, on the written signal: an event lasts its run of
 * whole clearly reduced breaths (AASM's measurement for apneas and hypopneas alike) and
 * counts when that is ≥ 10 s; it is an apnea when its smallest breath is ≤ 10 % of normal,
 * else a hypopnea with its written desaturation ≥ the rule (with oximetry), or with its
 * smallest breath ≤ 50 % (flow-only, without). For the radar, an event more than half
 * covered by bad signal (movement, radar dropout: SQB 0) cannot be scored and is left out.
 */
export function scoringTruth(truth: readonly TruthEvent[], options: ScoringTruthOptions): ScoredTruthEvent[] {
  const rule = options.desaturationRule ?? 3;
  const desats = new Map<number, DesaturationTruth>();
  for (const t of truth) if (t.kind === 'desaturation') desats.set(t.id, t);
  const gaps = options.channel === 'radar' ? truth.filter((t) => t.kind === 'movement' || (t.kind === 'dropout' && t.channels.includes('BR')) || t.kind === 'out_of_bed') : [];
  const out: ScoredTruthEvent[] = [];
  for (const t of truth) {
    if (t.kind !== 'obstructive_apnea' && t.kind !== 'central_apnea' && t.kind !== 'hypopnea') continue;
    const w: WrittenBreathsMs | null = t.written[options.channel];
    if (!w || w.durationMs < AASM.minDurationS * 1000) continue;
    let kind: ScoredTruthEvent['kind'] | null = null;
    if (w.residual <= AASM.apneaResidual) kind = 'apnea';
    else if (options.oximetry ? (desats.get(t.desaturationId)?.written?.drop ?? 0) >= rule : w.residual <= AASM.flowOnlyResidual) kind = 'hypopnea';
    if (!kind) continue;
    let covered = 0;
    for (const g of gaps) covered += Math.max(0, Math.min(w.onsetMs + w.durationMs, g.onsetMs + g.durationMs) - Math.max(w.onsetMs, g.onsetMs));
    if (covered * 2 >= w.durationMs) continue;
    out.push({ onsetMs: w.onsetMs, durationMs: w.durationMs, kind, source: t });
  }
  return out;
}
