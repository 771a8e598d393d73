// Number keys 1–9 of the scoring mode: which category each key assigns (bound by the
// user, remembered per patient in this browser), and what one key press writes.
import type { AnnotationDraft } from './api';
import type { Category } from './model';
import { EPOCH_MS } from './model';
import { readItem, writeItem } from '../../state/storage';

/** The digit keys, in order. */
export const SCORING_DIGITS = ['1', '2', '3', '4', '5', '6', '7', '8', '9'] as const;

/** Key → category id (absent: unbound). */
export type Bindings = Partial<Record<string, number>>;

const storageKey = (patientId: number) => `nocturne.scoringKeys.${patientId}`;

/** Default bindings: the categories in list order on keys 1, 2, 3, … */
export function defaultBindings(categories: readonly Category[]): Bindings {
  const out: Bindings = {};
  categories.slice(0, SCORING_DIGITS.length).forEach((c, i) => (out[SCORING_DIGITS[i]!] = c.label_id));
  return out;
}

/** Saved bindings of a patient, keeping only categories that still exist; defaults otherwise. */
export function loadBindings(patientId: number, categories: readonly Category[]): Bindings {
  const saved = readItem('localStorage', storageKey(patientId));
  if (!saved) return defaultBindings(categories);
  try {
    const parsed = JSON.parse(saved) as Record<string, unknown>;
    const ids = new Set(categories.map((c) => c.label_id));
    const out: Bindings = {};
    for (const d of SCORING_DIGITS) if (typeof parsed[d] === 'number' && ids.has(parsed[d] as number)) out[d] = parsed[d] as number;
    return out;
  } catch {
    // A corrupt entry (edited by hand): start again from the defaults.
    return defaultBindings(categories);
  }
}

/** Remembers a patient's bindings in this browser. */
export function saveBindings(patientId: number, bindings: Bindings): void {
  writeItem('localStorage', storageKey(patientId), JSON.stringify(bindings));
}

/**
 * The window a scoring key marks: the visible window when it is one epoch or less (the
 * 30-s preset), else the epoch at the window's centre.
 */
export function scoredWindow(range: { t0: number; t1: number }, recordingStart: number): { start: number; end: number } {
  if (range.t1 - range.t0 <= EPOCH_MS + 1) return { start: range.t0, end: range.t1 };
  const centre = (range.t0 + range.t1) / 2;
  const start = recordingStart + Math.floor((centre - recordingStart) / EPOCH_MS) * EPOCH_MS;
  return { start, end: start + EPOCH_MS };
}

/**
 * Channel codes an annotation of the charts `codes` carries: IQ stands for I and Q, and
 * only channels the night has are kept.
 */
export function annotationChannels(codes: readonly string[], nightChannels: readonly string[]): string[] {
  const have = new Set(nightChannels);
  const out = new Set<string>();
  for (const c of codes) for (const k of c === 'IQ' ? ['I', 'Q'] : [c]) if (have.has(k)) out.add(k);
  return [...out];
}

/** The draft one key press saves. */
export function scoringDraft(category: Category, window: { start: number; end: number }, kpis: string[]): AnnotationDraft {
  return {
    kpi: kpis,
    start_time: Math.round(window.start),
    duration: String(Math.max(1, Math.round((window.end - window.start) / 1000))),
    label: category.label_id,
    color_code: category.color_code,
    comment: '',
  };
}
