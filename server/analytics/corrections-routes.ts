import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AddCorrectionBody, CorrectionsQuery } from '../../contract/corrections';
import { analyticsEndpoints } from '../../contract/endpoints/analytics';
import type { AppContext } from '../context';
import { authenticate, currentUser } from '../context';
import { ApiError, forbidden, notFound } from '../errors';
import { visiblePatient, type PatientAccess } from '../patients/access';
import { nightOf } from '../annotations/annotations';
import type { Queryable } from '../db/adapter';
import type { RecordingRow } from '../recordings/store';
import { MIN_CORRECTION_MS } from '../../engine/detect';
import { addCorrection, bedTimesFrom, correctionExists, invalidateNight, lightsOf, listCorrections, undoCorrection, windowOf, type CorrectionRow } from './corrections';

/** What a correction's status is now: in force, replaced by a newer bed-times correction, or undone. */
function statusOf(c: CorrectionRow, all: readonly CorrectionRow[]): 'active' | 'superseded' | 'undone' {
  if (c.undone_at !== null) return 'undone';
  if (c.kind === 'bed_times' && all.some((o) => o.kind === 'bed_times' && o.undone_at === null && o.id > c.id)) return 'superseded';
  return 'active';
}

/** The night's corrections as the night view reads them: the window in force and the audit trail. */
async function correctionsOf(db: Queryable, recording: RecordingRow, canCorrect: boolean) {
  const rows = await listCorrections(db, recording.id);
  const w = windowOf(recording, rows, await lightsOf(db, recording.id));
  const from = bedTimesFrom(w);
  return {
    night: Number(recording.night_key),
    recording_id: recording.id,
    recording_start_time: Number(recording.start_ms),
    recording_stop_time: Number(recording.stop_ms),
    can_correct: canCorrect,
    corrected: rows.some((c) => c.undone_at === null),
    window: {
      bed_in_time: w ? w.bedInMs : Number(recording.start_ms),
      bed_out_time: w ? w.bedOutMs : Number(recording.stop_ms),
      bed_times_corrected: from === 'correction',
      bed_times_from: from,
      invalid_spans: (w?.invalid ?? []).map((b) => ({ start_ms: b.from, end_ms: b.to })),
    },
    corrections: rows.map((c) => ({ ...c, status: statusOf(c, rows) })),
  };
}

/** Annotators and admins see corrections but make none (spec 2 §6: annotators read for their physician). */
function corrector(request: FastifyRequest) {
  const user = currentUser(request);
  if (user.is_annotator || user.role === 'admin') throw forbidden('Only the physician can correct a night.');
  return user;
}

const fieldError = (field: string, rule: string, message: string) => new ApiError(400, 'validation_failed', message, { fieldRule: { field, rule } });

/** Checks a correction against the night: inside the recording, at least one epoch long, with a reason. */
function checkCorrection(recording: RecordingRow, body: AddCorrectionBody) {
  const start = Number(recording.start_ms);
  const stop = Number(recording.stop_ms);
  const reason = body.reason.trim();
  if (reason.length === 0) throw fieldError('reason', 'required', 'Give the reason for the correction.');
  if (body.start_ms < start || body.start_ms > stop) throw fieldError('start_ms', 'outside_recording', 'start_ms is outside the recording.');
  if (body.end_ms < start || body.end_ms > stop) throw fieldError('end_ms', 'outside_recording', 'end_ms is outside the recording.');
  if (body.end_ms <= body.start_ms) throw fieldError('end_ms', 'before_start', 'end_ms must be after start_ms.');
  if (body.end_ms - body.start_ms < MIN_CORRECTION_MS) throw fieldError('end_ms', 'too_short', `A correction spans at least ${MIN_CORRECTION_MS / 1000} s.`);
  return reason;
}

/**
 * Manual corrections of a night (issue 17 point 4, spec 2 Actions "manual corrections"):
 * GET the night's window and audit trail; POST a bed-times correction or an invalid span;
 * POST …/undo to undo one (kept, marked undone). Samples are never changed: the night's
 * analysis and statistics are recomputed under the corrections in force.
 */
export function correctionRoutes(server: FastifyInstance, ctx: AppContext) {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();
  const auth = authenticate(ctx);
  const { db } = ctx;

  async function night(request: FastifyRequest, q: CorrectionsQuery, access: PatientAccess = 'write') {
    const patient = await visiblePatient(db, currentUser(request), q.patient_id, access);
    return { patient, recording: await nightOf(db, patient, q) };
  }
  const canCorrect = (request: FastifyRequest) => {
    const u = currentUser(request);
    return !u.is_annotator && u.role !== 'admin';
  };

  app.get(
    '/analytics/patient/corrections',
    { preHandler: auth, schema: analyticsEndpoints['GET /analytics/patient/corrections'] },
    async (request) => {
      const { recording } = await night(request, request.query, 'read');
      return { data: await correctionsOf(db, recording, canCorrect(request)) };
    },
  );

  app.post(
    '/analytics/patient/corrections',
    { preHandler: auth, schema: analyticsEndpoints['POST /analytics/patient/corrections'] },
    async (request, reply) => {
      const user = corrector(request);
      const { patient, recording } = await night(request, request.body);
      const body = request.body;
      const reason = checkCorrection(recording, body);
      await db.transaction(async (tx) => {
        await invalidateNight(tx, recording.id);
        await addCorrection(tx, { recordingId: recording.id, patientId: patient.id, kind: body.kind, startMs: body.start_ms, endMs: body.end_ms, reason, by: user.id });
      });
      ctx.nightStats?.schedule([recording.id]);
      reply.code(201);
      return { code: 'correction_saved', data: await correctionsOf(db, recording, true) };
    },
  );

  app.post(
    '/analytics/patient/corrections/undo',
    { preHandler: auth, schema: analyticsEndpoints['POST /analytics/patient/corrections/undo'] },
    async (request) => {
      const user = corrector(request);
      const { recording } = await night(request, request.body);
      await db.transaction(async (tx) => {
        if (!(await undoCorrection(tx, request.body.id, recording.id, user.id))) {
          if (!(await correctionExists(tx, request.body.id, recording.id))) throw notFound('correction');
          throw new ApiError(409, 'already_undone', 'This correction was already undone.');
        }
        await invalidateNight(tx, recording.id);
      });
      ctx.nightStats?.schedule([recording.id]);
      return { code: 'correction_undone', data: await correctionsOf(db, recording, true) };
    },
  );
}
