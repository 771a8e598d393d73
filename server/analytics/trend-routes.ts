import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { DateTime } from 'luxon';
import { analyticsEndpoints } from '../../contract/endpoints/analytics';
import type { AppContext } from '../context';
import { authenticate, currentUser } from '../context';
import { ApiError, forbidden } from '../errors';
import { visiblePatient, type PatientRef } from '../patients/access';
import type { Queryable } from '../db/adapter';
import { AnswerCache, patientRevision } from './answerCache';
import { keptJsonCheck, sendFresh, sendKept } from './keptReply';
import { isLiveRecording, listChannels, listRecordings, type RecordingRow } from '../recordings/store';
import { secondsOrMs } from '../recordings/night-key';
import { channelStatsOf, storedChannelStats } from './channelStats';
import { analysisOf, storedIndices } from './analyse';
import { analyticsSettings, type AnalyticsSettings } from './settings';
import { trendIndices, type TrendIndices } from './figures';
import { DAY_MS } from '../../engine/constants';
import { deviceSummariesBetween } from '../recordings/device-summaries';
import { adjudicatedRounds } from '../scoring/repository';
import { consensusAhi, consensusEvents } from '../scoring/service';

const MAX_DAYS = 400;
const round = (v: number | null) => (v !== null && Number.isFinite(v) ? Math.round(v * 100) / 100 : null);

/**
 * Trend channels that are a night's index rather than a signal's statistics (spec 2 §9
 * "Trend-view channels"): one value per night from the detectors' analysis, stored with it
 * (figures.ts trendIndices). SQ is the share of the night with good signal quality (GSD / TBT, %).
 */
const NIGHT_INDICES = new Set(['RII', 'AHI', 'ODI', 'SE', 'SQ'] as const);
type IndexCode = 'RII' | 'AHI' | 'ODI' | 'SE' | 'SQ';
const isIndex = (code: string): code is IndexCode => NIGHT_INDICES.has(code as IndexCode);

/** The device's own AHI per day (device summaries, issue 31 point 7): a series of its own. */
const DEVICE_AHI = 'DEVICE_AHI';

/** Spec 2 §1: paid memberships get neither AHI nor ODI. */
const NOT_FOR_PAID = new Set(['AHI', 'ODI', DEVICE_AHI]);

/** Longest list of codes one call may ask for. */
const MAX_CODES = 30;

/**
 * GET /analytics/patient-trendview/type={codes}: one point per night in the range (spec 2 §3
 * "Daily analytics point"): for a signal channel its statistics computed by the signal
 * engine over the night, for RII, AHI, ODI, SE and SQ the night's value from the detectors.
 * device_start_time and device_stop_time are seconds (09:00 of the first and last day).
 */
export function trendRoutes(server: FastifyInstance, ctx: AppContext) {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();
  const answers = ctx.answers ?? new AnswerCache();
  const schema = analyticsEndpoints['GET /analytics/patient-trendview/type=:type'];
  // The answer is sent as the JSON text kept for it: checked here, as the serialiser never sees it.
  const check = ctx.config.checkAnswers ? keptJsonCheck('GET /analytics/patient-trendview/type=:type', schema.response[200]) : null;
  app.get(
    '/analytics/patient-trendview/type=:type',
    { preHandler: authenticate(ctx), schema },
    async (request, reply) => {
      const q = request.query;
      const fromMs = secondsOrMs(q.device_start_time);
      const toMs = secondsOrMs(q.device_stop_time);
      if (toMs < fromMs) throw new ApiError(400, 'validation_failed', 'device_stop_time is before device_start_time.');
      if (toMs - fromMs > MAX_DAYS * DAY_MS) throw new ApiError(400, 'validation_failed', `A trend covers at most ${MAX_DAYS} days.`);
      const codes = [...new Set(request.params.type.split(',').map((c) => c.trim()).filter(Boolean))];
      if (codes.length === 0 || codes.length > MAX_CODES) throw new ApiError(400, 'validation_failed', `Ask for 1 to ${MAX_CODES} channels.`);
      const bad = codes.find((c) => !/^[A-Za-z0-9_]{1,40}$/.test(c));
      if (bad !== undefined) throw new ApiError(400, 'validation_failed', `Unknown channel "${bad}".`);
      const user = currentUser(request);
      const barred = codes.find((c) => NOT_FOR_PAID.has(c) && user.membership_type === 'paid');
      if (barred) throw forbidden(`${barred} is not part of your membership.`);
      // Authorised first; only then is a kept answer looked up.
      const patient = await visiblePatient(ctx.db, user, q.patient_id, 'read');
      // The revision before what the answer is made of: a change after it makes a new one.
      const revision = await patientRevision(ctx.db, patient.id);
      // The practice read with the revision is the one whose settings apply (it differs only
      // while the patient is moved; then nothing is kept).
      const keep = revision !== null && revision.physicianId === patient.physician_id;
      const key = `${patient.id}|${patient.physician_id}|${codes.join(',')}|${fromMs}|${toMs}`;
      let kept = keep ? answers.get(key, revision.rev) : null;
      if (!kept) {
        const { data, fromRows } = await trendData(ctx.db, patient, codes, fromMs, toMs);
        const json = Buffer.from(JSON.stringify({ data }));
        check?.(json);
        // Kept only when made from stored rows alone: a live night's figures change with its samples.
        if (!keep || !fromRows) return sendFresh(reply, json);
        kept = answers.set(key, revision.rev, json);
      }
      return sendKept(request, reply, answers, key, kept);
    },
  );
}

/** The night's trend indices with the AHI of its double scoring's consensus (the apneas and hypopneas its summary counts). */
async function withConsensusAhi(db: Queryable, night: RecordingRow, settings: AnalyticsSettings, figures: TrendIndices, round: number): Promise<TrendIndices> {
  const events = await consensusEvents(db, night, round);
  return { ...figures, AHI: consensusAhi(events.apneas + events.hypopneas, await analysisOf(db, night, settings)) };
}

/**
 * The trend's points: one per night in the range and code. fromRows is false when some figure
 * was not read from stored rows (a live night, or one not analysed yet, computed here).
 */
async function trendData(db: Queryable, patient: PatientRef, codes: readonly string[], fromMs: number, toMs: number): Promise<{ data: Record<string, unknown[]>; fromRows: boolean }> {
  const indices = codes.filter(isIndex);
  const signals = codes.filter((c) => !isIndex(c) && c !== DEVICE_AHI);
  // A night belongs to the range when it ends after the first anchor and starts before the last.
  const nights = (await listRecordings(db, patient.id)).filter((r) => r.stop_ms > fromMs - DAY_MS && r.start_ms < toMs);
  const ids = nights.map((n) => n.id);
  // Only the asked-for channels, by night (a 90-night trend of 8 codes: 720 rows, not every channel's).
  const channelsOf = new Map<number, Awaited<ReturnType<typeof listChannels>>>();
  for (const c of signals.length > 0 ? await listChannels(db, ids, signals) : []) {
    const id = Number(c.recording_id);
    channelsOf.set(id, [...(channelsOf.get(id) ?? []), c]);
  }
  const data: Record<string, unknown[]> = Object.fromEntries(codes.map((c) => [c, []]));
  const settings = indices.length > 0 ? await analyticsSettings(db, patient.physician_id) : null;
  // The stored rows of every night in two queries; a night without them (live, or not
  // analysed yet) is analysed here and its rows stored, as before.
  const ended = nights.filter((n) => !isLiveRecording(n)).map((n) => n.id);
  let fromRows = ended.length === nights.length;
  const storedIdx = settings ? await storedIndices(db, ended, settings) : new Map<number, TrendIndices>();
  // A double-scored night's AHI is its consensus's, as its summary says (issue 36 point 2).
  const consensusOf = indices.includes('AHI') ? await adjudicatedRounds(db, ids) : new Map<number, number>();
  const storedStats = await storedChannelStats(db, ended, signals);
  for (const night of nights) {
    const date = DateTime.fromSeconds(night.night_key, { zone: 'UTC' }).toISODate();
    if (settings) {
      let figures = storedIdx.get(night.id);
      if (!figures) {
        fromRows = false;
        figures = trendIndices(await analysisOf(db, night, settings));
      }
      const round = consensusOf.get(night.id);
      if (round !== undefined) figures = await withConsensusAhi(db, night, settings, figures, round);
      for (const code of indices) {
        const value = figures[code];
        // AHI, ODI (and RII over TST) of a night without sleep staging are per hour of monitoring (REI).
        const basis = code === 'AHI' || code === 'ODI' || (code === 'RII' && figures.rii_over_tst) ? { index_basis: figures.index_basis } : {};
        const source = code === 'AHI' && round !== undefined ? { events_source: 'consensus' } : {};
        if (value !== null) data[code].push({ date, night: night.night_key, recording_id: night.id, value, ...basis, ...source });
        // No breathing signal: the night is there, its AHI/RII are "–" with the reason, never 0.
        else if ((code === 'AHI' || code === 'RII') && figures.ahi_basis !== 'breathing_signal') data[code].push({ date, night: night.night_key, recording_id: night.id, value: null, ahi_basis: figures.ahi_basis });
      }
    }
    const wanted = channelsOf.get(night.id) ?? [];
    const have = storedStats.get(night.id);
    const stored = have !== undefined && wanted.every((c) => have.has(c.code));
    if (!stored && wanted.length > 0) fromRows = false;
    const stats = stored ? new Map(wanted.map((c) => [c.code, have.get(c.code)!])) : await channelStatsOf(db, night, wanted);
    for (const [code, s] of stats) {
      if (s.count === 0) continue;
      data[code].push({
        date,
        night: night.night_key,
        recording_id: night.id,
        min: round(s.min),
        max: round(s.max),
        mean: round(s.mean),
        lowerPercentile: round(s.p10),
        medianPercentile: round(s.p50),
        upperPercentile: round(s.p90),
        count: s.count,
        missing_fraction: round(s.missingFraction),
      });
    }
  }
  if (codes.includes(DEVICE_AHI)) data[DEVICE_AHI] = await deviceAhiPoints(db, patient.id, fromMs, toMs);
  return { data, fromRows };
}

/**
 * The device's own AHI per day from its stored daily summaries (ResMed STR.edf), dated as the
 * night of that day; a day without the device's AHI is left out.
 */
async function deviceAhiPoints(db: Queryable, patientId: number, fromMs: number, toMs: number) {
  const day = (t: number) => DateTime.fromMillis(t, { zone: 'UTC' }).toISODate()!;
  const days = await deviceSummariesBetween(db, patientId, day(fromMs - DAY_MS), day(toMs));
  return days
    .filter((d) => d.ahi !== null)
    .map((d) => ({ date: d.day, night: Date.parse(`${d.day}T00:00:00Z`) / 1000, value: d.ahi, source: 'device_summary', usage_min: d.usage_min }));
}
