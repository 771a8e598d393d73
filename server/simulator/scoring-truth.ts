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

/** A generator event whose two readings disagree about the AASM criteria (see {@link scoringReference}). */
interface BorderlineTruthEvent {
  onsetMs: number;
  durationMs: number;
  /** Which criterion the two readings disagree about. */
  why: 'duration' | 'desaturation' | 'duration+desaturation' | 'residual';
  source: RespiratoryTruth;
}

export interface ScoringReference {
  /** Events every reading of the generator's event scores (the truth). */
  events: ScoredTruthEvent[];
  /** Events scored by one reading and not the other: borderline by construction. */
  borderline: BorderlineTruthEvent[];
}

/**
 * The truth events under the AASM rules, on the written signal: an event lasts its run of
 * whole clearly reduced breaths (AASM's measurement for apneas and hypopneas alike) and
 * counts when that is ≥ 10 s; it is an apnea when its smallest breath is ≤ 10 % of the
 * baseline (the breathing of the 2 minutes before), else a hypopnea with its written
 * desaturation ≥ the rule (with oximetry), or with its smallest breath ≤ 50 % (flow-only,
 * without). For the radar, an event more than half covered by bad signal (movement, radar
 * dropout: SQB 0) cannot be scored and is left out. Events that are borderline by
 * construction ({@link scoringReference}) are left out too: see `borderline` there.
 */
export function scoringTruth(truth: readonly TruthEvent[], options: ScoringTruthOptions): ScoredTruthEvent[] {
  return scoringReference(truth, options).events;
}

/**
 * The truth, and the events that are borderline by construction. Each generator event is
 * read twice under the same AASM rules:
 * - as drawn: the span over which the generator reduced the breathing (its drawn
 *   duration) and the desaturation drawn (its drop before the oximeter's noise and 1-%
 *   steps);
 * - as written: the run of whole breaths ≤ 70 % of the baseline, and the desaturation as
 *   the oximeter wrote it.
 * Both readings use the written residual (the smallest breath) and the same radar gaps.
 * An event both readings score is a truth event (with its written span and kind); one
 * neither scores is none; one only a reading scores is borderline: whether a breath cut by
 * the reduction's edge is "clearly reduced" (AASM leaves it to the scorer) or whether a
 * drop drawn within the oximeter's resolution of the rule reads over it decides, so no
 * answer is wrong. Validation counts a borderline event neither as found nor as missed,
 * and a detection matched to it not as extra (docs/decisions/0095-borderline-events-in-the-simulated-validation.md).
 */
export function scoringReference(truth: readonly TruthEvent[], options: ScoringTruthOptions): ScoringReference {
  const rule = options.desaturationRule ?? 3;
  const desats = new Map<number, DesaturationTruth>();
  for (const t of truth) if (t.kind === 'desaturation') desats.set(t.id, t);
  const gaps = options.channel === 'radar' ? truth.filter((t) => t.kind === 'movement' || (t.kind === 'dropout' && t.channels.includes('BR')) || t.kind === 'out_of_bed') : [];
  const events: ScoredTruthEvent[] = [];
  const borderline: BorderlineTruthEvent[] = [];
  for (const t of truth) {
    if (t.kind !== 'obstructive_apnea' && t.kind !== 'central_apnea' && t.kind !== 'hypopnea') continue;
    const w: WrittenBreathsMs | null = t.written[options.channel];
    // No clearly reduced breath written: no event in any reading.
    if (!w) continue;
    let covered = 0;
    for (const g of gaps) covered += Math.max(0, Math.min(w.onsetMs + w.durationMs, g.onsetMs + g.durationMs) - Math.max(w.onsetMs, g.onsetMs));
    if (covered * 2 >= w.durationMs) continue;
    const d = desats.get(t.desaturationId);
    const read = (durationMs: number, residual: number, drop: number): ScoredTruthEvent['kind'] | null => {
      if (durationMs < AASM.minDurationS * 1000) return null;
      if (residual <= AASM.apneaResidual) return 'apnea';
      if (options.oximetry ? drop >= rule : residual <= AASM.flowOnlyResidual) return 'hypopnea';
      return null;
    };
    const writtenDrop = d?.written?.drop ?? 0;
    const drawnDrop = d?.written ? d.drop : 0;
    const drawnResidual = options.channel === 'flow' ? t.flowAmplitude : t.amplitude;
    const written = read(w.durationMs, w.residual, writtenDrop);
    const drawn = read(t.durationMs, drawnResidual, drawnDrop);
    if (written && drawn) events.push({ onsetMs: w.onsetMs, durationMs: w.durationMs, kind: written, source: t });
    else if (written || drawn) {
      const min = AASM.minDurationS * 1000;
      const byDuration = (w.durationMs >= min) !== (t.durationMs >= min);
      const byDesat = options.oximetry && Math.min(w.residual, drawnResidual) > AASM.apneaResidual && (writtenDrop >= rule) !== (drawnDrop >= rule);
      const why = byDuration && byDesat ? 'duration+desaturation' : byDuration ? 'duration' : byDesat ? 'desaturation' : 'residual';
      // The span both readings cover, for matching: the written breaths and the drawn reduction.
      const onsetMs = Math.min(w.onsetMs, t.onsetMs);
      borderline.push({ onsetMs, durationMs: Math.max(w.onsetMs + w.durationMs, t.onsetMs + t.durationMs) - onsetMs, why, source: t });
    }
  }
  return { events, borderline };
}
