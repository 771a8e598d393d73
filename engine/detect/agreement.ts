/**
 * Agreement between a reference scoring (device-scored or PSG events, a simulator's truth)
 * and Nocturne's own events: a strict one-to-one matching, so that two detections of one
 * reference event count as one hit and one extra, never as two hits.
 */

/** Anything with a time span. */
export interface Interval {
  onsetMs: number;
  durationMs: number;
}

export interface MatchOptions {
  /** Two events match when their spans, each widened by this much on both sides, overlap. Default 5 s. */
  toleranceMs?: number;
  /**
   * Reference events that are borderline by construction (a simulated event whose readings
   * disagree about the AASM criteria): matched one-to-one like the others, but a borderline
   * event counts neither as found nor as missed, and the detection matched to it not as
   * extra. Without it every reference event counts.
   */
  borderline?: readonly Interval[];
}

export interface Agreement {
  /** Reference events. */
  reference: number;
  /** Nocturne's events. */
  detected: number;
  /** Reference events matched one-to-one with a detection. */
  matched: number;
  /** Reference events without a detection. */
  missed: number;
  /** Detections without a reference event. */
  extra: number;
  /** matched / reference; null without reference events. */
  sensitivity: number | null;
  /** matched / detected; null without detections. */
  ppv: number | null;
  /** Matched pairs as [reference index, detected index], by reference onset. */
  pairs: Array<[number, number]>;
  /** Borderline reference events given, and the detections matched to them (left out of `detected`). */
  borderline: number;
  borderlineDetected: number;
  /** Indices of the detections matched to borderline events. */
  borderlinePairs: Array<[number, number]>;
}

export const DEFAULT_MATCH_TOLERANCE_MS = 5_000;

/**
 * One-to-one matching of detections to reference events. Candidate pairs are those whose
 * spans (widened by the tolerance) overlap; they are taken greedily by the largest overlap
 * (then the nearest onsets), each event used at most once.
 */
export function matchEvents(reference: readonly Interval[], detected: readonly Interval[], options: MatchOptions = {}): Agreement {
  const borderline = options.borderline ?? [];
  if (borderline.length > 0) {
    // Borderline events compete for detections like the others, then leave the counts.
    const all = matchEvents([...reference, ...borderline], detected, { toleranceMs: options.toleranceMs });
    const pairs = all.pairs.filter((p) => p[0] < reference.length);
    const borderlinePairs = all.pairs.filter((p) => p[0] >= reference.length).map((p): [number, number] => [p[0] - reference.length, p[1]]);
    const counted = detected.length - borderlinePairs.length;
    const matched = pairs.length;
    return {
      reference: reference.length, detected: counted, matched, missed: reference.length - matched, extra: counted - matched,
      sensitivity: reference.length > 0 ? matched / reference.length : null, ppv: counted > 0 ? matched / counted : null,
      pairs, borderline: borderline.length, borderlineDetected: borderlinePairs.length, borderlinePairs,
    };
  }
  const tol = options.toleranceMs ?? DEFAULT_MATCH_TOLERANCE_MS;
  const candidates: Array<{ r: number; d: number; overlap: number; gap: number }> = [];
  const byOnset = detected.map((e, i) => ({ e, i })).sort((a, b) => a.e.onsetMs - b.e.onsetMs);
  for (let r = 0; r < reference.length; r++) {
    const ref = reference[r];
    const rFrom = ref.onsetMs - tol;
    const rTo = ref.onsetMs + Math.max(0, ref.durationMs) + tol;
    for (const { e, i } of byOnset) {
      const dFrom = e.onsetMs - tol;
      const dTo = e.onsetMs + Math.max(0, e.durationMs) + tol;
      if (dFrom > rTo) break;
      const overlap = Math.min(rTo, dTo) - Math.max(rFrom, dFrom);
      if (overlap > 0) candidates.push({ r, d: i, overlap, gap: Math.abs(ref.onsetMs - e.onsetMs) });
    }
  }
  candidates.sort((a, b) => b.overlap - a.overlap || a.gap - b.gap || a.r - b.r || a.d - b.d);
  const usedR = new Set<number>();
  const usedD = new Set<number>();
  const pairs: Array<[number, number]> = [];
  for (const c of candidates) {
    if (usedR.has(c.r) || usedD.has(c.d)) continue;
    usedR.add(c.r);
    usedD.add(c.d);
    pairs.push([c.r, c.d]);
  }
  pairs.sort((a, b) => reference[a[0]].onsetMs - reference[b[0]].onsetMs);
  const matched = pairs.length;
  return {
    reference: reference.length,
    detected: detected.length,
    matched,
    missed: reference.length - matched,
    extra: detected.length - matched,
    sensitivity: reference.length > 0 ? matched / reference.length : null,
    ppv: detected.length > 0 ? matched / detected.length : null,
    pairs,
    borderline: 0,
    borderlineDetected: 0,
    borderlinePairs: [],
  };
}
