/**
 * Agreement of scorers on one night (issue 36 point 2, decision 0989), pure: stage agreement
 * per 30-s epoch (percent and Cohen's κ) and event agreement per category (one-to-one
 * matching of marks overlapping in time, greatest overlap first), and AHI per scorer.
 */
import { EPOCH_S, type AgreementReason, type EventAgreement, type ScorerIndex, type StageAgreement } from '../../contract/scoring-rounds';

const EPOCH_MS = EPOCH_S * 1000;

/** One mark of a scorer's set: a time span and the category it was filed under. */
export interface ScoredMark {
  startMs: number;
  endMs: number;
  /** The category's id (0 for marks no category row names: the engine's, the device's). */
  label: number;
  /** The category's name (Apnea, N2, …): what the mark means. */
  labelName: string;
  /** Channels the mark was drawn on, comma-separated. */
  kpi: string;
}

/** A scorer's set: 'user:<id>', 'automatic', 'device' or 'consensus', and their marks. */
export interface ScorerMarks {
  key: string;
  marks: readonly ScoredMark[];
}

/** Sleep stage names of the built-in categories (scoring-labels.ts); Unscored scores nothing. */
const STAGES = new Map([
  ['wake', 'Wake'],
  ['n1', 'N1'],
  ['n2', 'N2'],
  ['n3', 'N3'],
  ['rem', 'REM'],
  ['unscored', 'Unscored'],
]);

/** Event categories by meaning: every apnea type is an apnea, Hypoapnea (the spec's spelling) a hypopnea. */
const MEANING = new Map([
  ['apnea', 'apnea'],
  ['central apnea', 'apnea'],
  ['obstructive apnea', 'apnea'],
  ['mixed apnea', 'apnea'],
  ['hypoapnea', 'hypopnea'],
  ['hypopnea', 'hypopnea'],
  ['desaturation', 'desaturation'],
  ['arousal', 'arousal'],
  ['movement', 'movement'],
]);

/** The stage a category name scores ('Unscored' included), or null for an event category. */
export function stageOf(labelName: string): string | null {
  return STAGES.get(labelName.trim().toLowerCase()) ?? null;
}

/** The event category a mark counts in: its meaning where known, else the category name itself. */
export function eventCategoryOf(labelName: string): string {
  const k = labelName.trim().toLowerCase();
  return MEANING.get(k) ?? labelName.trim();
}

/** Whether an event category counts in AHI. */
const isRespiratory = (category: string) => category === 'apnea' || category === 'hypopnea';

/** The night's 30-s epochs from the recording's start (whole epochs only). */
export interface EpochGrid {
  startMs: number;
  count: number;
}

export const epochGrid = (startMs: number, stopMs: number): EpochGrid => ({ startMs, count: Math.max(0, Math.floor((stopMs - startMs) / EPOCH_MS)) });

/** Start of epoch i, ms. */
export const epochStart = (grid: EpochGrid, i: number) => grid.startMs + i * EPOCH_MS;

/**
 * Per epoch, the index of the scorer's stage mark covering the epoch's centre (the later-starting
 * mark where two cover it), -1 where none does or the mark is Unscored.
 */
export function epochMarks(grid: EpochGrid, marks: readonly ScoredMark[]): Int32Array {
  const out = new Int32Array(grid.count).fill(-1);
  const order = marks.map((_, i) => i).filter((i) => stageOf(marks[i]!.labelName) !== null);
  order.sort((a, b) => marks[a]!.startMs - marks[b]!.startMs || a - b);
  const half = EPOCH_MS / 2;
  for (const i of order) {
    const m = marks[i]!;
    // Epochs whose centre t0 + k·30 s + 15 s lies in [start, end).
    const from = Math.max(0, Math.ceil((m.startMs - grid.startMs - half) / EPOCH_MS));
    const to = Math.min(grid.count, Math.ceil((m.endMs - grid.startMs - half) / EPOCH_MS));
    const scored = stageOf(m.labelName) !== 'Unscored';
    for (let k = from; k < to; k++) out[k] = scored ? i : -1;
  }
  return out;
}

/** Per epoch, the stage a scorer gave it (null: not scored). */
export function epochStages(grid: EpochGrid, marks: readonly ScoredMark[]): (string | null)[] {
  return Array.from(epochMarks(grid, marks), (i) => (i < 0 ? null : stageOf(marks[i]!.labelName)));
}

const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;

/**
 * Percent agreement and Cohen's κ of two scorers over the epochs both scored.
 * κ = (po − pe) / (1 − pe); when pe is 1 (both gave every common epoch the same one stage) po
 * is 1 too and κ is defined as 1, agreement being complete.
 */
export function stageAgreement(a: string, b: string, sa: readonly (string | null)[], sb: readonly (string | null)[]): StageAgreement {
  const empty = (reason: AgreementReason): StageAgreement => ({ a, b, epochs: 0, percent: null, kappa: null, reason });
  if (!sa.some((s) => s !== null) || !sb.some((s) => s !== null)) return empty('no_stage_marks');
  const ca = new Map<string, number>();
  const cb = new Map<string, number>();
  let n = 0;
  let same = 0;
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    const x = sa[i];
    const y = sb[i];
    if (x === null || x === undefined || y === null || y === undefined) continue;
    n++;
    if (x === y) same++;
    ca.set(x, (ca.get(x) ?? 0) + 1);
    cb.set(y, (cb.get(y) ?? 0) + 1);
  }
  if (n === 0) return empty('no_common_epochs');
  const po = same / n;
  let pe = 0;
  for (const [stage, k] of ca) pe += (k / n) * ((cb.get(stage) ?? 0) / n);
  const kappa = pe >= 1 ? 1 : (po - pe) / (1 - pe);
  return { a, b, epochs: n, percent: round(100 * po, 2), kappa: round(kappa, 4), reason: null };
}

/**
 * How many marks of `a` and `b` match one to one: pairs overlapping in time, taken greatest
 * overlap first (ties: the earlier start of a's mark, then of b's), each mark in one pair at most.
 */
export function matchOneToOne(a: readonly ScoredMark[], b: readonly ScoredMark[]): number {
  const pairs: [number, number, number][] = [];
  const bs = b.map((_, j) => j).sort((x, y) => b[x]!.startMs - b[y]!.startMs);
  a.forEach((m, i) => {
    for (const j of bs) {
      const o = b[j]!;
      if (o.startMs >= m.endMs) break;
      const overlap = Math.min(m.endMs, o.endMs) - Math.max(m.startMs, o.startMs);
      if (overlap > 0) pairs.push([overlap, i, j]);
    }
  });
  pairs.sort((p, q) => q[0] - p[0] || a[p[1]]!.startMs - a[q[1]]!.startMs || b[p[2]]!.startMs - b[q[2]]!.startMs);
  const usedA = new Set<number>();
  const usedB = new Set<number>();
  for (const [, i, j] of pairs) {
    if (usedA.has(i) || usedB.has(j)) continue;
    usedA.add(i);
    usedB.add(j);
  }
  return usedA.size;
}

/** Event agreement of `a` (the reference) and `b` in one category. */
export function eventAgreement(category: string, a: ScorerMarks, b: ScorerMarks): EventAgreement {
  const ma = a.marks.filter((m) => eventCategoryOf(m.labelName) === category && stageOf(m.labelName) === null);
  const mb = b.marks.filter((m) => eventCategoryOf(m.labelName) === category && stageOf(m.labelName) === null);
  const matched = matchOneToOne(ma, mb);
  const ratio = (num: number, den: number) => (den > 0 ? round(num / den, 4) : null);
  return { category, a: a.key, b: b.key, a_count: ma.length, b_count: mb.length, matched, sensitivity: ratio(matched, ma.length), ppv: ratio(matched, mb.length), f1: ratio(2 * matched, ma.length + mb.length) };
}

/** The event categories of the sets (stage marks apart), sorted. */
function eventCategories(sets: readonly ScorerMarks[]): string[] {
  const out = new Set<string>();
  for (const s of sets) for (const m of s.marks) if (stageOf(m.labelName) === null) out.add(eventCategoryOf(m.labelName));
  return [...out].sort();
}

/**
 * Event F1 pooled over categories: 2·Σmatched / (Σa + Σb), matching within each category
 * (null when neither set has an event).
 */
export function pooledF1(a: ScorerMarks, b: ScorerMarks): number | null {
  let matched = 0;
  let total = 0;
  for (const c of eventCategories([a, b])) {
    const e = eventAgreement(c, a, b);
    matched += e.matched;
    total += e.a_count + e.b_count;
  }
  return total > 0 ? round((2 * matched) / total, 4) : null;
}

/** The hours a night's AHI is counted over, as the summary counts them. */
export interface IndexHours {
  hours: number;
  basis: 'sleep' | 'monitoring';
  /** False for a night without a breathing signal (AHI is "–" there). */
  breathing: boolean;
}

/**
 * Apneas and hypopneas of a set, leaving out those starting in an epoch the set itself (or
 * `wakeFrom`) scored Wake: AHI counts events of sleep only where there is stage scoring.
 */
export function respiratoryEvents(grid: EpochGrid, set: ScorerMarks, wakeFrom: readonly (string | null)[] = epochStages(grid, set.marks)): number {
  let n = 0;
  for (const m of set.marks) {
    if (stageOf(m.labelName) !== null || !isRespiratory(eventCategoryOf(m.labelName))) continue;
    const k = Math.floor((m.startMs - grid.startMs) / EPOCH_MS);
    if (wakeFrom[k] === 'Wake') continue;
    n++;
  }
  return n;
}

/** AHI of one scorer's set per hour of the night's index basis. */
function scorerIndex(grid: EpochGrid, set: ScorerMarks, h: IndexHours): ScorerIndex {
  const events = respiratoryEvents(grid, set);
  if (!h.breathing) return { scorer: set.key, events, ahi: null, hours: null, basis: null, reason: 'no_breathing_signal' };
  if (!(h.hours > 0)) return { scorer: set.key, events, ahi: null, hours: null, basis: h.basis, reason: 'no_hours' };
  return { scorer: set.key, events, ahi: round(events / h.hours, 2), hours: round(h.hours, 2), basis: h.basis, reason: null };
}

/** Every figure of the agreement between the sets: staging per unordered pair, events per category and ordered pair, AHI each. */
export function agreementOf(grid: EpochGrid, sets: readonly ScorerMarks[], h: IndexHours) {
  const stages = sets.map((s) => epochStages(grid, s.marks));
  const staging: StageAgreement[] = [];
  for (let i = 0; i < sets.length; i++) for (let j = i + 1; j < sets.length; j++) staging.push(stageAgreement(sets[i]!.key, sets[j]!.key, stages[i]!, stages[j]!));
  const events: EventAgreement[] = [];
  for (const c of eventCategories(sets)) {
    for (const a of sets) {
      for (const b of sets) {
        const e = a === b ? null : eventAgreement(c, a, b);
        if (e && e.a_count + e.b_count > 0) events.push(e);
      }
    }
  }
  return { staging, events, ahi: sets.map((s) => scorerIndex(grid, s, h)) };
}
