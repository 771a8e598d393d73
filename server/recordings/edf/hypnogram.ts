/**
 * Hypnograms: EDF+ annotation files that score sleep stages (Sleep-EDF's R&K "Sleep stage 1"
 * … "Movement time", HMC's AASM "Sleep stage N2", EDFbrowser's "N2", bare "W/1/2/3/4/R/M/?")
 * become the night's SLP_STGS channel in the device's stage codes (spec 2 §9: 1 deep, 2 light,
 * 4 REM, 5 awake), one sample per 30-s epoch, so TST, SE, WASO, SOL and the stage latencies
 * follow from the expert's staging (docs/decisions/0066-hypnogram-label-map.md).
 */
import type { ChannelData, NightEvent } from '../model';

/** The device's sleep-stage codes (spec 2 §9). */
export const STAGE_CODES = { deep: 1, light: 2, rem: 4, awake: 5 } as const;

/** An epoch scored but not as a stage (R&K movement time, "?"): kept as missing, i.e. unscored. */
const UNSCORED = Number.NaN;

/** One scoring epoch, s (R&K and AASM alike). */
const EPOCH_S = 30;

const PREFIX = /^(?:sleep[\s_-]*)?(?:stage[\s_-]*)?/i;

/**
 * The stage code of an annotation's text (NaN for a scored but unknown epoch: movement time,
 * "?"), or null when the text is no sleep stage. A bare one-letter label ("W", "2", "R") counts
 * only with a duration (a hypnogram's epoch), never as a free-text note of length 0.
 */
export function stageOfText(text: string, durationS: number): number | null {
  const stage = scoredStageOf(text, durationS);
  return stage === null ? null : STAGE_OF_SCORE[stage];
}

/** What a hypnogram's epoch says, as R&K/AASM write it: W, 1–4 (N1–N3; R&K's 4 is N3 too), R, movement time, or unscored. */
export type ScoredStage = 'W' | '1' | '2' | '3' | '4' | 'R' | 'M' | '?';

const SCORES: ReadonlyArray<[RegExp, ScoredStage]> = [
  [/^(w|wake|awake)$/i, 'W'],
  [/^(s?1|n1)$/i, '1'],
  [/^(s?2|n2)$/i, '2'],
  [/^(s?3|n3)$/i, '3'],
  [/^(s?4|n4)$/i, '4'],
  [/^(r|rem)$/i, 'R'],
  [/^(m|mt|movement(\s*time)?)$/i, 'M'],
  [/^(\?|unknown|unscored)$/i, '?'],
];

const STAGE_OF_SCORE: Readonly<Record<ScoredStage, number>> = { W: STAGE_CODES.awake, 1: STAGE_CODES.light, 2: STAGE_CODES.light, 3: STAGE_CODES.deep, 4: STAGE_CODES.deep, R: STAGE_CODES.rem, M: UNSCORED, '?': UNSCORED };

/** The stage an annotation's text scores (see stageOfText), or null when it is no sleep stage. */
export function scoredStageOf(text: string, durationS: number): ScoredStage | null {
  const t = text.trim();
  const prefixed = PREFIX.exec(t)![0].length > 0;
  const rest = t.slice(PREFIX.exec(t)![0].length).trim();
  if (!prefixed && !(durationS > 0)) return null;
  if (/^movement(\s*time)?$/i.test(t)) return 'M';
  for (const [re, stage] of SCORES) if (re.test(rest)) return stage;
  return null;
}

/** Text of an unscored epoch ("Sleep stage ?", "unscored"), in SQL (recording_events.text); movement time is scored. */
export const UNSCORED_EPOCH_SQL = String.raw`^(sleep[\s_-]*)?(stage[\s_-]*)?(\?|unknown|unscored)$`;
const UNSCORED_EPOCH = new RegExp(UNSCORED_EPOCH_SQL, 'i');

/**
 * Whether an annotation marks an unscored epoch: it says nothing was scored there, not that
 * anything was recorded, so it does not stretch a night's span (Sleep-EDF's "?" after the
 * recording ended; decision 1032).
 */
export function isUnscoredEpoch(text: string): boolean {
  return UNSCORED_EPOCH.test(text.trim());
}

/** Counts of a hypnogram's epochs per stage (W, N1, N2, N3, R, unscored), as the file labels them. */
export interface StageCounts {
  W: number;
  N1: number;
  N2: number;
  N3: number;
  R: number;
  unscored: number;
}

/**
 * The SLP_STGS channel of a file's stage annotations (null when fewer than two are scored
 * stages, i.e. it is no hypnogram): from the first scored epoch to the last, one float32 sample
 * per 30-s epoch, NaN where nothing is scored or the epoch is unscored. Later annotations win
 * where two overlap.
 */
export function hypnogramChannel(events: readonly NightEvent[]): ChannelData | null {
  const stages = events
    .map((e) => ({ e, code: stageOfText(e.text, e.durationMs / 1000) }))
    .filter((s): s is { e: NightEvent; code: number } => s.code !== null);
  // From the first scored epoch to the last: unscored ones before or after them (Sleep-EDF's "?"
  // after the recording ended) are no part of the night's staging (decision 1032).
  const scored = stages.filter((s) => !Number.isNaN(s.code));
  if (scored.length < 2) return null;
  const epochMs = EPOCH_S * 1000;
  const t0 = Math.min(...scored.map((s) => s.e.onsetMs));
  const end = Math.max(...scored.map((s) => s.e.onsetMs + Math.max(epochMs, s.e.durationMs)));
  const samples = new Float32Array(Math.round((end - t0) / epochMs)).fill(Number.NaN);
  for (const { e, code } of stages) {
    const from = Math.round((e.onsetMs - t0) / epochMs);
    const to = Math.max(from + 1, Math.round((e.onsetMs + e.durationMs - t0) / epochMs));
    samples.fill(code, Math.max(0, from), Math.min(to, samples.length));
  }
  return { code: 'SLP_STGS', label: 'Hypnogram', unit: '', sampleRate: 1 / EPOCH_S, t0, storage: 'float32', scale: 1, offset: 0, samples, missingCodes: [], transducer: '', prefiltering: '' };
}

/** Epoch counts per stage of a file's stage annotations (for the import summary and tests). */
export function stageCounts(events: readonly NightEvent[]): StageCounts {
  const out: StageCounts = { W: 0, N1: 0, N2: 0, N3: 0, R: 0, unscored: 0 };
  for (const e of events) {
    const code = stageOfText(e.text, e.durationMs / 1000);
    if (code === null) continue;
    const epochs = Math.max(1, Math.round(e.durationMs / 1000 / EPOCH_S));
    const rest = e.text.trim().slice(PREFIX.exec(e.text.trim())![0].length).trim();
    const key = Number.isNaN(code) ? 'unscored' : code === STAGE_CODES.awake ? 'W' : code === STAGE_CODES.rem ? 'R' : code === STAGE_CODES.deep ? 'N3' : /1$/.test(rest) ? 'N1' : 'N2';
    out[key] += epochs;
  }
  return out;
}
