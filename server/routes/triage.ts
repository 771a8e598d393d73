import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { authenticate } from '../context';
import { actingPhysicianId } from '../auth/users';
import { analysisParams, ANALYSIS_VERSION } from '../analytics/analyse';
import { AnswerCache, practiceRevision } from '../analytics/answerCache';
import { prepareTriageNight } from '../analytics/prepare';
import { analyticsSettings } from '../analytics/settings';
import { isPrepared, TRIAGE_NIGHTS, triageTable, type TriageNightRow } from '../analytics/triage';
import type { Triage } from '../../contract/triage';
import { LIVE_SQL, THE_NIGHT_SQL } from '../recordings/store';
import { ENGINE_VERSION } from '../../engine/index';
import { flaggedSql } from '../patients/flagged';
import type { RecordingRow } from '../recordings/store';
import { dashboardUser } from './dashboardUser';
import { sendKept } from './keptReply';
import { TriagePrepareBody } from '../../contract/dashboard';

/** Nights one prepare call analyses (a request stays short; the page calls again while some remain). */
const PREPARE_BATCH = 4;
const DAY_S = 86_400;

/** A night still being recorded by a live device (store.ts isLiveRecording): not triaged until it ends. */

/**
 * Every night of the table in one query: the practice's patients under care, each night of
 * the last TRIAGE_NIGHTS days up to the patient's last ended one, with its stored analysis's KPIs
 * and its stored statistics of both SpO2 channels (null where not stored yet).
 */
const TRIAGE_SQL = `
  select p.id as patient_id, p.patient_code, p.first_name, p.last_name, ${flaggedSql('p')} as flagged,
         r.id as recording_id, r.night_key, a.kpis, s.stats as spo2_stats, sp.stats as spo2_psg_stats,
         exists (select 1 from recording_channels c where c.recording_id = r.id and c.code = 'SPO2') as has_spo2,
         exists (select 1 from recording_channels c where c.recording_id = r.id and c.code = 'SPO2_PSG') as has_spo2_psg
  from patients p
  left join lateral (select max(x.night_key) as last from recordings x where x.patient_id = p.id and not ${LIVE_SQL('x')}) l on true
  left join recordings r on r.patient_id = p.id and r.night_key > l.last - $4::bigint and not ${LIVE_SQL('r')} and ${THE_NIGHT_SQL('r')}
  left join night_analyses a on a.recording_id = r.id and a.params = $2 and a.engine_version = $3
  left join night_channel_stats s on s.recording_id = r.id and s.code = 'SPO2' and s.engine_version = $5
  left join night_channel_stats sp on sp.recording_id = r.id and sp.code = 'SPO2_PSG' and sp.engine_version = $5
  where p.physician_id = $1 and p.phys_device_return_date is null
  order by p.id, r.night_key`;

/**
 * GET /physician/triage: the dashboard's triage table, read from stored analyses only (no
 * night is analysed while answering); `pending` counts the table's nights not analysed yet.
 * The serialised answer is kept per practice and membership under the practice's revision
 * (migration 029), which every committed change of a row TRIAGE_SQL reads renews.
 * POST /physician/triage/prepare analyses a few of those, for the page to call until none remain.
 */
export function triageRoutes(app: FastifyInstance, ctx: AppContext) {
  const auth = authenticate(ctx);
  const { db } = ctx;
  const answers = ctx.answers ?? new AnswerCache();

  async function read(physician: number) {
    const settings = await analyticsSettings(db, physician);
    return db.query<TriageNightRow>(TRIAGE_SQL, [physician, analysisParams(settings), ANALYSIS_VERSION, (TRIAGE_NIGHTS - 1) * DAY_S + 1, ENGINE_VERSION]);
  }

  app.get('/physician/triage', { preHandler: auth }, async (request, reply) => {
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
      kept = answers.set(key, rev, Buffer.from(JSON.stringify({ data })));
    }
    return sendKept(request, reply, answers, key, kept);
  });

  app.post('/physician/triage/prepare', { preHandler: auth, schema: { body: TriagePrepareBody } }, async (request) => {
    const physician = actingPhysicianId(dashboardUser(request));
    const settings = await analyticsSettings(db, physician);
    const rows = await read(physician);
    const pending = rows.filter((r) => r.recording_id !== null && !isPrepared(r));
    // Every patient's last night first: the table's figures before the sparklines' older points.
    const batch = pending.sort((a, b) => b.night_key! - a.night_key!).slice(0, PREPARE_BATCH);
    for (const r of batch) {
      const [recording] = await db.query<RecordingRow>('select * from recordings where id = $1', [r.recording_id]);
      await prepareTriageNight(db, recording!, settings);
    }
    return { data: { prepared: batch.length, remaining: pending.length - batch.length } };
  });
}
