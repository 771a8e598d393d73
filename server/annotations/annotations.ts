import type { FastifyRequest } from 'fastify';
import type { AnnotationInput, ListAnnotationsBody, UpdateAnnotationBody } from '../../contract/annotations';
import type { Db, Queryable } from '../db/adapter';
import { ApiError, notFound } from '../errors';
import type { UserRow } from '../auth/users';
import { visiblePatient, type PatientRef } from '../patients/access';
import { findRecording, listChannels, listRecordings, type RecordingRow } from '../recordings/store';
import { parseNightKey } from '../recordings/night-key';
import { nightDate } from '../recordings/night-key';
import { annotationRows, flagAnnotationDeleted, insertAnnotation, listCategories, lockAnnotation, updateAnnotationRow, type AnnotationRow, type CategoryRow } from './repository';
import { deviceAnnotations } from './device';
import { formatDuration, formatUtc, KNOWN_KPIS, MESSAGES, normaliseColor, parseDuration, parseKpis, parseUtc, unescapeText } from './format';
import { conflict, invalid, recordHistory } from './shared';
import { noteAccessOf } from '../audit/trail';
import { blindRounds, guardMarkWrite, roundOfNewMark, seesDeviceEvents } from '../scoring/visibility';

/** The spec's shape of an annotation (spec 2 §3). */
export function present(a: AnnotationRow) {
  const kpiList = a.kpi.split(',');
  return {
    annotation_map_id: a.annotation_map_id,
    type: a.type,
    night: a.night,
    kpi: a.kpi,
    kpiList,
    start_time: formatUtc(a.start_ms),
    end_time: formatUtc(a.end_ms),
    start_date: formatUtc(a.start_ms),
    end_date: formatUtc(a.end_ms),
    start_ms: a.start_ms,
    end_ms: a.end_ms,
    duration: formatDuration(a.end_ms - a.start_ms),
    comment: a.comment,
    label: a.label,
    color_code: a.color_code,
    patient_id: a.patient_id,
    doctor_id: a.doctor_id,
    created_by: a.created_by,
    updated_by: a.updated_by,
    created_date: a.created_date.toISOString(),
    updated_date: a.updated_date.toISOString(),
    delete_flag: a.delete_flag,
    device_id: a.device_id,
    recording_date: nightDate(a.night),
    recording_id: a.recording_id,
    version: a.version,
    // Double scoring: the round whose scorer's set the mark belongs to (null: of record), and the round whose consensus wrote it.
    scoring_round_id: a.scoring_round_id ?? null,
    consensus_round_id: a.consensus_round_id ?? null,
    ...(a.created_by_name !== undefined ? { created_by_name: a.created_by_name } : {}),
  };
}

export async function nightOf(db: Queryable, patient: PatientRef, body: { night?: number | string; recording_date?: string; device_id?: string }): Promise<RecordingRow> {
  const key = body.night !== undefined ? parseNightKey(String(body.night)) : body.recording_date ? parseNightKey(body.recording_date) : null;
  if (key === null) throw new ApiError(400, 'validation_failed', 'Give the night (Unix seconds) or the recording_date.');
  const night = (await listRecordings(db, patient.id)).find((r) => r.night_key === key && (!body.device_id || r.device_id === body.device_id));
  if (!night) throw notFound('recording');
  return night;
}

/** What an annotation of a night is checked against: the night's channel codes and the patient's categories. */
interface NightTerms {
  channels: Set<string>;
  categories: CategoryRow[];
}

/** Read once a request: a request of 500 new annotations read them 500 times (4 queries an annotation, 3 ms each on PGlite). */
async function nightTerms(db: Queryable, night: RecordingRow): Promise<NightTerms> {
  const channels = await listChannels(db, [night.id]);
  return { channels: new Set(channels.map((c) => c.code)), categories: await listCategories(db, night.patient_id) };
}

/** Checks one annotation's fields; returns them normalised or throws 400 with the spec's messages. */
function validate(terms: NightTerms, night: RecordingRow, input: AnnotationInput, base?: AnnotationRow) {
  const errors: string[] = [];
  const kpis = input.kpi !== undefined ? parseKpis(input.kpi) : base ? base.kpi.split(',') : [];
  const { channels, categories } = terms;
  if (kpis.length === 0) errors.push(MESSAGES.kpi);
  const unknown = kpis.filter((k) => !KNOWN_KPIS.has(k) && !channels.has(k));
  if (unknown.length) errors.push(`Unknown channel ${unknown.join(', ')}.`);

  const start = input.start_time !== undefined ? parseUtc(input.start_time) : (base?.start_ms ?? null);
  let end: number | null = null;
  if (input.duration !== undefined) {
    const d = parseDuration(String(input.duration));
    end = d !== null && d > 0 && start !== null ? start + d : null;
    if (end === null) errors.push(MESSAGES.duration);
  } else if (input.end_time !== undefined) {
    end = parseUtc(input.end_time);
    if (end === null || start === null || end <= start) errors.push(MESSAGES.duration);
  } else if (base && start !== null) {
    end = start + (base.end_ms - base.start_ms);
  } else {
    errors.push(MESSAGES.duration);
  }
  if (start === null) errors.push('Please give a valid start time.');
  else if (end !== null && (start < night.start_ms - 1000 || end > night.stop_ms + 1000)) errors.push('The annotation must lie within the recording.');

  const labelId = input.label !== undefined && input.label !== '' ? Number(input.label) : base?.label;
  const category = categories.find((c) => c.label_id === labelId);
  if (!category) errors.push(MESSAGES.category);
  if (input.color_code !== undefined && !normaliseColor(input.color_code)) errors.push(MESSAGES.color);
  if (errors.length) throw invalid(errors);
  return {
    kpi: kpis.join(','),
    start: start!,
    end: end!,
    label: category!.label_id,
    color: normaliseColor(input.color_code) ?? base?.color_code ?? category!.color_code,
    comment: input.comment !== undefined ? unescapeText(input.comment) : (base?.comment ?? ''),
  };
}

/** Deletion is a flag (spec 2 §4), kept in the history with the value before. */
async function softDelete(tx: Queryable, current: AnnotationRow, userId: number): Promise<AnnotationRow> {
  const deleted = await flagAnnotationDeleted(tx, current.annotation_map_id, userId);
  await recordHistory(tx, { annotationId: current.annotation_map_id, action: 'delete', version: deleted.version, by: userId, previous: current, current: deleted });
  return deleted;
}

/** The annotation, locked until the transaction ends, so its version check and write are one step. */
const loadOwn = async (db: Queryable, user: UserRow, id: number): Promise<AnnotationRow> => {
  const row = await lockAnnotation(db, id);
  if (!row) throw notFound('annotation');
  await visiblePatient(db, user, row.patient_id);
  // Double scoring: a scorer's set is theirs alone, and frozen once submitted (decision 0989).
  await guardMarkWrite(db, user, row);
  return row;
};

/**
 * A save is based on the version the client read: `version`, or the spec's `updated_date`
 * (to the second). One of them is required, so no save silently overwrites another.
 */
function isStale(current: AnnotationRow, body: { version?: number; updated_date?: string }): boolean {
  if (body.version !== undefined) return body.version !== current.version;
  if (body.updated_date !== undefined) {
    const read = parseUtc(body.updated_date);
    return read === null || Math.floor(read / 1000) !== Math.floor(current.updated_date.getTime() / 1000);
  }
  throw new ApiError(400, 'validation_failed', 'Send the version (or updated_date) of the annotation you edited.');
}

type Presented = ReturnType<typeof present> | Awaited<ReturnType<typeof deviceAnnotations>>[number];

/** "<start_ms>:<id>" of an annotation: where the page after it starts. */
const cursorOf = (a: { start_ms: number; annotation_map_id: number }) => `${a.start_ms}:${a.annotation_map_id}`;

/** Whether `a` comes after the cursor in (start_ms, annotation_map_id) order. */
const after = (a: { start_ms: number; annotation_map_id: number }, c: { start: number; id: number } | null) =>
  !c || a.start_ms > c.start || (a.start_ms === c.start && a.annotation_map_id > c.id);

/**
 * One page of the annotations the caller may see (all of them without a limit): the users'
 * own from the table, read from the cursor on by its index, merged with the night's
 * device-scored events in the same order. `next_cursor` is null on the last page.
 */
export async function annotationPage(db: Queryable, user: UserRow, patient: PatientRef, night: RecordingRow | null, body: ListAnnotationsBody): Promise<{ annotations: Presented[]; next_cursor: string | null }> {
  const [start, id] = body.cursor ? body.cursor.split(':').map(Number) : [null, null];
  const cursor = start === null ? null : { start, id: id! };
  const limit = body.limit ?? null;
  const rows = await annotationRows(db, { patientId: patient.id, night: night?.night_key ?? null, includeDeleted: body.include_deleted === true, cursor, limit: limit === null ? null : limit + 1, userId: user.id });
  // Device-scored events of the night (or of every night) come with the users' own, read-only.
  const nights = night ? [night] : await listRecordings(db, patient.id);
  const blind = await blindRounds(db, user.id);
  const device = (await deviceAnnotations(db, patient.id, patient.physician_id, nights)).filter((a) => after(a, cursor) && seesDeviceEvents(blind, a.recording_id));
  const all: Presented[] = [...rows.map(present), ...device].sort((a, b) => a.start_ms - b.start_ms || a.annotation_map_id - b.annotation_map_id);
  if (limit === null || all.length <= limit) return { annotations: all, next_cursor: null };
  const page = all.slice(0, limit);
  return { annotations: page, next_cursor: cursorOf(page.at(-1)!) };
}

/** Stores new annotations of a night, each with its history row. */
export function createAnnotations(db: Db, user: UserRow, patient: PatientRef & { physician_id: number }, night: RecordingRow, inputs: AnnotationInput[]): Promise<AnnotationRow[]> {
  return db.transaction(async (tx) => {
    const out: AnnotationRow[] = [];
    // A scorer's marks during an open round go to their set of the round (decision 0989).
    const round = await roundOfNewMark(tx, user, night.id);
    const terms = await nightTerms(tx, night);
    for (const input of inputs) {
      const type = input.type === 'desaturation' ? 'desaturation' : 'custom';
      const v = validate(terms, night, input);
      const row = await insertAnnotation(tx, { patientId: patient.id, recordingId: night.id, night: night.night_key, deviceId: night.device_id, type, ...v, doctorId: patient.physician_id, userId: user.id, roundId: round });
      await recordHistory(tx, { annotationId: row.annotation_map_id, action: 'create', version: 1, by: user.id, previous: null, current: row });
      out.push(row);
    }
    return out;
  });
}

/** Edits (or, with delete_flag 1, deletes) one of the caller's annotations, refusing a stale version. */
export function updateAnnotation(db: Db, user: UserRow, request: FastifyRequest, body: UpdateAnnotationBody): Promise<AnnotationRow> {
  return db.transaction(async (tx) => {
    const current = await loadOwn(tx, user, body.annotation_map_id);
    noteAccessOf(request, current.patient_id, current.recording_id);
    if (current.delete_flag === 1) throw notFound('annotation');
    if (isStale(current, body)) throw await conflict(tx, 'annotation', current.updated_by, current.updated_date);
    if (body.delete_flag === 1) return softDelete(tx, current, user.id);
    const night = current.recording_id ? await findRecording(tx, current.patient_id, current.recording_id) : null;
    if (!night) throw notFound('recording');
    const v = validate(await nightTerms(tx, night), night, body, current);
    // Spec 2 §4: an edit of a system annotation is saved as system-edit.
    const type = current.type === 'system' ? 'system-edit' : current.type;
    const updated = await updateAnnotationRow(tx, current.annotation_map_id, { type, ...v }, user.id);
    await recordHistory(tx, { annotationId: current.annotation_map_id, action: 'update', version: updated.version, by: user.id, previous: current, current: updated });
    return updated;
  });
}

/** Deletes the caller's annotations of these ids (those already deleted are left); how many it deleted. */
export function deleteAnnotations(db: Db, user: UserRow, request: FastifyRequest, ids: number[]): Promise<number> {
  return db.transaction(async (tx) => {
    let n = 0;
    const patients = new Set<number>();
    const nights = new Set<number | null>();
    for (const id of new Set(ids)) {
      const current = await loadOwn(tx, user, id);
      patients.add(current.patient_id);
      nights.add(current.recording_id);
      // The access trail names the patient (and night) when the annotations are all of one: one row a request.
      if (patients.size === 1) noteAccessOf(request, current.patient_id, nights.size === 1 ? current.recording_id : null);
      else request.accessSubject = null;
      if (current.delete_flag === 1) continue;
      await softDelete(tx, current, user.id);
      n++;
    }
    return n;
  });
}
