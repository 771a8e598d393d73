// Manual corrections of a night (issue 17 point 4): the physician's bed-in/bed-out and invalid
// spans, applied when the night is analysed — never to the stored samples. Every figure read
// from the night's analysis (summary, KPI calls, trend, triage table, notifications, reports)
// and its whole-night statistics follows them, because both caches are emptied when a
// correction is made or undone and are stored only for the corrections they were computed from.
import type { Queryable } from '../db/adapter';
import type { RecordingRow } from '../recordings/store';
import { analysisWindow, type AnalysisWindow } from '../../engine/detect';
import type { CorrectionKind } from '../../contract/corrections';

/** A correction as stored (ms as numbers), with the names of who made and undid it. */
export interface CorrectionRow {
  id: number;
  recording_id: number;
  kind: CorrectionKind;
  start_ms: number;
  end_ms: number;
  reason: string;
  created_by: number;
  created_by_name: string;
  created_at: string;
  undone_by: number | null;
  undone_by_name: string | null;
  undone_at: string | null;
}

/** A night's corrections, oldest first, undone ones included (the audit trail). */
export async function listCorrections(db: Queryable, recordingId: number): Promise<CorrectionRow[]> {
  const rows = await db.query<CorrectionRow>(
    `select c.id, c.recording_id, c.kind, c.start_ms, c.end_ms, c.reason, c.created_by, c.created_at, c.undone_by, c.undone_at,
            trim(concat_ws(' ', cu.first_name, cu.last_name)) as created_by_name,
            case when uu.id is null then null else trim(concat_ws(' ', uu.first_name, uu.last_name)) end as undone_by_name
     from night_corrections c join users cu on cu.id = c.created_by left join users uu on uu.id = c.undone_by
     where c.recording_id = $1 order by c.id`,
    [recordingId],
  );
  return rows.map((r) => ({ ...r, id: Number(r.id), start_ms: Number(r.start_ms), end_ms: Number(r.end_ms) }));
}

/** Bed-in and bed-out times, ms UTC. */
export interface BedTimes {
  inMs: number;
  outMs: number;
}

const LIGHTS_OFF = /^\s*lights?[\s_-]*(off|out)\b/i;
const LIGHTS_ON = /^\s*lights?[\s_-]*on\b/i;

/**
 * A PSG night's bed times from its files' EDF+ markers (decision 1023): the first "Lights off"
 * ("Lights out", "lights_off", "Lights off@@EEG F4-A1" …) and the last "Lights on" after it,
 * the AASM's time in bed. Null without both.
 */
export function lightsWindow(events: readonly { onset_ms: number | string; text: string }[]): BedTimes | null {
  const sorted = [...events].sort((a, b) => Number(a.onset_ms) - Number(b.onset_ms));
  const off = sorted.find((e) => LIGHTS_OFF.test(e.text));
  if (!off) return null;
  const on = sorted.filter((e) => LIGHTS_ON.test(e.text) && Number(e.onset_ms) > Number(off.onset_ms)).at(-1);
  return on ? { inMs: Number(off.onset_ms), outMs: Number(on.onset_ms) } : null;
}

/** The lights-off and lights-on markers the night's files hold, as its bed times (null: not both). */
export async function lightsOf(db: Queryable, recordingId: number): Promise<BedTimes | null> {
  const rows = await db.query<{ onset_ms: number; text: string }>(
    `select onset_ms, text from recording_events where recording_id = $1 and source = 'file' and text ilike '%light%' order by onset_ms`,
    [recordingId],
  );
  return lightsWindow(rows);
}

/**
 * The window the night is analysed over under its active corrections: the newest bed-times
 * correction not undone (undoing it brings back the one before), and every invalid span not
 * undone. Without a bed-times correction the files' lights-off and lights-on markers, when
 * there are both (`lights`), are the bed times. Null when neither applies: the night is
 * analysed as recorded.
 */
export function windowOf(
  recording: Pick<RecordingRow, 'start_ms' | 'stop_ms'>,
  corrections: readonly Pick<CorrectionRow, 'kind' | 'start_ms' | 'end_ms' | 'undone_at'>[],
  lights: BedTimes | null = null,
): AnalysisWindow | null {
  const active = corrections.filter((c) => c.undone_at === null);
  if (active.length === 0 && !lights) return null;
  const bed = active.filter((c) => c.kind === 'bed_times').at(-1);
  const invalid = active.filter((c) => c.kind === 'invalid_span').map((c) => ({ from: Number(c.start_ms), to: Number(c.end_ms) }));
  const w = analysisWindow(Number(recording.start_ms), Number(recording.stop_ms), bed ? { inMs: Number(bed.start_ms), outMs: Number(bed.end_ms) } : lights, invalid);
  return !bed && lights ? { ...w, bedTimesFrom: 'lights' } : w;
}

/**
 * Where a window's bed-in and bed-out come from: a physician's correction, the files' lights
 * markers (decision 1023), or the recording's own start and stop (no window, or one of invalid
 * spans only). The corrections answer and the summary both say it.
 */
export function bedTimesFrom(w: AnalysisWindow | null | undefined): 'correction' | 'lights' | 'recording' {
  if (w?.bedTimesFrom === 'lights') return 'lights';
  return w?.bedTimesCorrected ? 'correction' : 'recording';
}

/** The night's corrections state: the revision the caches are stored under, and the window (null: none). */
export async function correctionState(db: Queryable, recording: Pick<RecordingRow, 'id' | 'start_ms' | 'stop_ms'>): Promise<{ rev: number; window: AnalysisWindow | null }> {
  const [row] = await db.query<{ correction_rev: number }>('select correction_rev from recordings where id = $1', [recording.id]);
  const rows = await db.query<Pick<CorrectionRow, 'kind' | 'start_ms' | 'end_ms' | 'undone_at'>>(
    'select kind, start_ms, end_ms, undone_at from night_corrections where recording_id = $1 order by id',
    [recording.id],
  );
  return { rev: Number(row?.correction_rev ?? 0), window: windowOf(recording, rows, await lightsOf(db, recording.id)) };
}

/**
 * The SQL condition that stores a cached row only while the night's corrections are still
 * those it was computed from: `from recordings where id = $R and correction_rev = $V for share`.
 * A correction bumps the revision (locking the recording's row) before it empties the
 * caches, so an analysis that raced with it waits, sees the new revision, and stores nothing.
 */
export const CURRENT_REV_SQL = (idParam: string, revParam: string) => `from recordings where id = ${idParam} and correction_rev = ${revParam} for share`;

/** Inside the correction's transaction: a new revision, and the night's cached analyses and statistics dropped. */
export async function invalidateNight(tx: Queryable, recordingId: number): Promise<void> {
  await tx.query('update recordings set correction_rev = correction_rev + 1 where id = $1', [recordingId]);
  await tx.query('delete from night_analyses where recording_id = $1', [recordingId]);
  await tx.query('delete from night_channel_stats where recording_id = $1', [recordingId]);
}

/** A new correction as the night view sends it (ms), with who made it. */
export interface NewCorrection {
  recordingId: number;
  patientId: number;
  kind: CorrectionKind;
  startMs: number;
  endMs: number;
  reason: string;
  by: number;
}

/** Stores a correction (inside the caller's transaction, which also empties the night's caches). */
export async function addCorrection(tx: Queryable, c: NewCorrection): Promise<void> {
  await tx.query('insert into night_corrections (recording_id, patient_id, kind, start_ms, end_ms, reason, created_by) values ($1, $2, $3, $4, $5, $6, $7)', [
    c.recordingId, c.patientId, c.kind, c.startMs, c.endMs, c.reason, c.by,
  ]);
}

/** Marks a correction of the night undone; false when there is none in force with that id. */
export async function undoCorrection(tx: Queryable, id: number, recordingId: number, by: number): Promise<boolean> {
  const undone = await tx.query('update night_corrections set undone_at = now(), undone_by = $3 where id = $1 and recording_id = $2 and undone_at is null returning id', [id, recordingId, by]);
  return undone.length > 0;
}

/** Whether the night has a correction with that id, in force or undone. */
export async function correctionExists(db: Queryable, id: number, recordingId: number): Promise<boolean> {
  const [row] = await db.query('select 1 from night_corrections where id = $1 and recording_id = $2', [id, recordingId]);
  return row !== undefined;
}
