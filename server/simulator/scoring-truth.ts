/**
 * The events a scorer following the AASM rules should find in a simulated night, taken
 * from the generator's own parameters (not from any detector's output): an event drawn
 * below the criteria (too short, too little drop, too small a desaturation) is no truth
 * event, and neither is one hidden by a radar gap. Used by `npm run validate` and tests.
 */
import type { DesaturationTruth, RespiratoryTruth, TruthEvent } from './types';

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
 * The truth events under the AASM rules: apnea when the channel's residual amplitude is
 * ≤ 10 % for ≥ 10 s; hypopnea when it is ≤ 70 % for ≥ 10 s with its desaturation ≥ the
 * rule (with oximetry), or ≤ 50 % (flow-only, without). For the radar, an event more than
 * half covered by bad signal (movement, radar dropout: SQB 0) cannot be scored and is left out.
 */
export function scoringTruth(truth: readonly TruthEvent[], options: ScoringTruthOptions): ScoredTruthEvent[] {
  const rule = options.desaturationRule ?? 3;
  const desats = new Map<number, DesaturationTruth>();
  for (const t of truth) if (t.kind === 'desaturation') desats.set(t.id, t);
  const gaps = options.channel === 'radar' ? truth.filter((t) => t.kind === 'movement' || (t.kind === 'dropout' && t.channels.includes('BR')) || t.kind === 'out_of_bed') : [];
  const out: ScoredTruthEvent[] = [];
  for (const t of truth) {
    if (t.kind !== 'obstructive_apnea' && t.kind !== 'central_apnea' && t.kind !== 'hypopnea') continue;
    if (t.durationMs < AASM.minDurationS * 1000) continue;
    const residual = options.channel === 'radar' ? t.amplitude : t.flowAmplitude;
    let covered = 0;
    for (const g of gaps) covered += Math.max(0, Math.min(t.onsetMs + t.durationMs, g.onsetMs + g.durationMs) - Math.max(t.onsetMs, g.onsetMs));
    if (covered * 2 >= t.durationMs) continue;
    const desat = desats.get(t.desaturationId);
    let kind: ScoredTruthEvent['kind'] | null = null;
    if (residual <= AASM.apneaResidual) kind = 'apnea';
    else if (residual <= AASM.hypopneaResidual) {
      if (options.oximetry ? (desat?.drop ?? 0) >= rule : residual <= AASM.flowOnlyResidual) kind = 'hypopnea';
    }
    if (kind) out.push({ onsetMs: t.onsetMs, durationMs: t.durationMs, kind, source: t });
  }
  return out;
}
