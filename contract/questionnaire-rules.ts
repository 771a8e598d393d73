/**
 * Histories and questionnaires (issue 17 point 3): the one module the server's routes and
 * the app's forms both import, so a question, a choice or a limit is defined once. Pure: no
 * database, no React, no schema library (the app loads it; the answers' schemas are in
 * patient-notes.ts and questionnaires.ts).
 */

/** The three histories of spec 2 §3 ("History entries"): kind as stored, and its fetch route. */
export const HISTORY_KINDS = ['symptom', 'medication', 'diet_plan'] as const;
export type HistoryKind = (typeof HISTORY_KINDS)[number];

/** GET routes of spec 2 §7, each ?patient_id. */
export const HISTORY_FETCH_PATHS = {
  symptom: '/patient/fetch-symptoms',
  medication: '/patient/fetch-medications',
  diet_plan: '/patient/fetch-diet-plan',
} as const satisfies Record<HistoryKind, string>;

/** Longest history value (a line in a table, not a note: notes are comments). */
export const HISTORY_VALUE_MAX = 500;
/** How far ahead of now an entry may be dated (a plan may start tomorrow; clocks and time zones differ). */
const HISTORY_FUTURE_MS = 86_400_000;
/** No entry before this day (2000-01-01 UTC): an earlier date is a typing error. */
const HISTORY_EARLIEST_MS = 946_684_800_000;


/** What is wrong with an entry's timestamp and value, or null. */
export function historyProblem(timestamp: number, value: string, now: number): 'value' | 'valueTooLong' | 'timestamp' | null {
  const text = value.trim();
  if (text.length === 0) return 'value';
  if (text.length > HISTORY_VALUE_MAX) return 'valueTooLong';
  if (!Number.isFinite(timestamp) || timestamp < HISTORY_EARLIEST_MS || timestamp > now + HISTORY_FUTURE_MS) return 'timestamp';
  return null;
}

/**
 * The entries relevant to a night: every entry dated up to the end of the calendar day on
 * which the night ends (the morning after, in the patient's zone, so "woke with a headache"
 * counts), newest first. `dayEndMs` is that day's end (exclusive), computed by the caller
 * in the patient's time zone.
 */
export function entriesUpTo<T extends { timestamp: number; id: number }>(entries: readonly T[], dayEndMs: number): T[] {
  return entries.filter((e) => e.timestamp < dayEndMs).sort((a, b) => b.timestamp - a.timestamp || b.id - a.id);
}

/** Yes/no answers. */
const YES_NO = ['yes', 'no'] as const;

/**
 * The device screening questions of the add-patient wizard (spec 1 §4), in order, with the
 * answer that blocks allocation.
 */
export const SCREENING_QUESTIONS = ['implant', 'pregnant', 'underAge', 'infoSheet'] as const;
export type ScreeningQuestion = (typeof SCREENING_QUESTIONS)[number];
export const SCREENING_BLOCKING: Record<ScreeningQuestion, 'yes' | 'no'> = { implant: 'yes', pregnant: 'yes', underAge: 'yes', infoSheet: 'no' };

/**
 * The check-up questionnaire (our decision; the spec names check-up questionnaires but not
 * their questions): asked of the patient at a completed check-up, the few facts that change
 * how the next nights are read.
 */
export const CHECKUP_QUESTIONS = {
  sleepQuality: ['good', 'fair', 'poor'],
  daytimeSleepiness: YES_NO,
  medicationChanged: YES_NO,
  deviceProblems: YES_NO,
} as const;
export type CheckupQuestion = keyof typeof CHECKUP_QUESTIONS;
/** Optional free text of the check-up questionnaire. */
export const CHECKUP_NOTE_MAX = 1000;

export const QUESTIONNAIRE_KINDS = ['screening', 'checkup'] as const;

/** Answers as stored: question → choice (and the check-up's optional note). */
export type Answers = Record<string, string>;


/** Screening answers that let allocation proceed, or the first question that is missing or blocks. */
export function screeningProblem(answers: Record<string, unknown>): ScreeningQuestion | 'extra' | null {
  for (const q of SCREENING_QUESTIONS) {
    const a = answers[q];
    if (a !== 'yes' && a !== 'no') return q;
    if (a === SCREENING_BLOCKING[q]) return q;
  }
  return Object.keys(answers).some((k) => !(SCREENING_QUESTIONS as readonly string[]).includes(k)) ? 'extra' : null;
}

/** Check-up answers: every question answered with one of its choices, the note optional and short; or the field that is wrong. */
export function checkupProblem(answers: Record<string, unknown>): string | null {
  for (const [q, choices] of Object.entries(CHECKUP_QUESTIONS)) {
    if (!(choices as readonly unknown[]).includes(answers[q])) return q;
  }
  const note = answers.note;
  if (note !== undefined && (typeof note !== 'string' || note.length > CHECKUP_NOTE_MAX)) return 'note';
  const known = [...Object.keys(CHECKUP_QUESTIONS), 'note'];
  const extra = Object.keys(answers).find((k) => !known.includes(k));
  return extra ?? null;
}
