import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../context';
import { authenticate } from '../context';
import { actingPhysicianId } from '../auth/users';
import { analysisParams } from '../analytics/analyse';
import { AnswerCache, practiceRevision } from '../analytics/answerCache';
import { prepareTriageNight } from '../analytics/prepare';
import { analyticsSettings } from '../analytics/settings';
import { isPrepared, TRIAGE_NIGHTS, triageTable } from '../analytics/triage';
import { findRecording } from '../recordings/store';
import { triageNights } from './repository';
import type { Triage } from '../../contract/triage';
import { dashboardUser } from './dashboardUser';
import { sendKept } from '../analytics/keptReply';
import { patientsEndpoints } from '../../contract/endpoints/patients';

/** Nights one prepare call analyses (a request stays short; the page calls again while some remain). */
const PREPARE_BATCH = 4;

/**
 * GET /physician/triage: the dashboard's triage table, read from stored analyses only (no
 * night is analysed while answering); `pending` counts the table's nights not analysed yet.
 * The serialised answer is kept per practice and membership under the practice's revision
 * (migration 029), which every committed change of a row triageNights reads renews.
 * POST /physician/triage/prepare analyses a few of those, for the page to call until none remain.
 */
export function triageRoutes(server: FastifyInstance, ctx: AppContext) {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();
  const auth = authenticate(ctx);
  const { db } = ctx;
  const answers = ctx.answers ?? new AnswerCache();

  async function read(physician: number) {
    const settings = await analyticsSettings(db, physician);
    return triageNights(db, physician, analysisParams(settings));
  }

  app.get('/physician/triage', { preHandler: auth, schema: patientsEndpoints['GET /physician/triage'] }, async (request, reply) => {
    // Authorised first (a dashboard user, of the practice it acts for); only then is a kept answer looked up.
    const user = dashboardUser(request);
    const physician = actingPhysicianId(user);
    const withIndices = user.membership_type !== 'paid';
    // The revision before the rows the answer is made of: a change committed after it makes a new one.
    const rev = await practiceRevision(db, physician);
    // No date in the key: the table's 14 nights end at each patient's last ended night, not today.
    const key = `triage|${physician}|${withIndices ? 'indices' : 'no-indices'}`;
    let kept = answers.get(key, rev);
    if (!kept) {
      const patients = triageTable(await read(physician), withIndices);
      const pending = patients.reduce((n, p) => n + p.nights.filter((x) => !x.analysed).length, 0);
      const data: Triage = { patients, pending, nights: TRIAGE_NIGHTS };
      // Serialised by the route's response schema, as Fastify would serialise the object itself.
      kept = answers.set(key, rev, Buffer.from(reply.serializeInput({ data }, '200') as string));
    }
    return sendKept(request, reply, answers, key, kept);
  });

  app.post('/physician/triage/prepare', { preHandler: auth, schema: patientsEndpoints['POST /physician/triage/prepare'] }, async (request) => {
    const physician = actingPhysicianId(dashboardUser(request));
    const settings = await analyticsSettings(db, physician);
    const rows = await read(physician);
    const pending = rows.filter((r) => r.recording_id !== null && !isPrepared(r));
    // Every patient's last night first: the table's figures before the sparklines' older points.
    const batch = pending.sort((a, b) => b.night_key! - a.night_key!).slice(0, PREPARE_BATCH);
    for (const r of batch) {
      const recording = await findRecording(db, r.patient_id, r.recording_id!);
      await prepareTriageNight(db, recording!, settings);
    }
    return { data: { prepared: batch.length, remaining: pending.length - batch.length } };
  });
}
