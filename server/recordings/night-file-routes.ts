import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { recordingsEndpoints } from '../../contract/endpoints/recordings';
import type { AppContext } from '../context';
import { authenticate, currentUser } from '../context';
import { ApiError, notFound } from '../errors';
import { visiblePatient } from '../patients/access';
import { findNightFileHead, isLiveRecording, listChannels, listRecordings, loadSamples, type ChannelRow } from './store';
import { linkSecret, signLink, verifyLink } from '../services/signed-links';
import { nightDate, parseNightKey } from './night-key';

/** Channels in the night file: vitals and epochs; raw radar and PSG waveforms go through the binary endpoint. */
const MAX_FILE_RATE_HZ = 1;

async function channelJson(ctx: AppContext, c: ChannelRow): Promise<string> {
  const samples = await loadSamples(ctx.db, c);
  const period = 1000 / c.sample_rate;
  const ts = new Array<number>(samples.length);
  const values = new Array<string>(samples.length);
  for (let i = 0; i < samples.length; i++) {
    ts[i] = Math.round(c.t0_ms + i * period) / 1000;
    const v = samples[i] * c.scale + c.offset_value;
    values[i] = Number.isFinite(v) ? String(Math.round(v * 1e4) / 1e4) : 'null';
  }
  return `{"ts":[${ts.join(',')}],"dataset":[${values.join(',')}],"fs":${c.sample_rate},"t0":${c.t0_ms},"unit":${JSON.stringify(c.unit)}}`;
}

/**
 * The spec's night file (GET /s3/analytics/patient): the call answers the night's meta and a
 * signed link; the link answers the night's channels as JSON text with NaN as null. A day
 * without a night is 404, so a client looping over a range skips it.
 */
export function nightFileRoutes(server: FastifyInstance, ctx: AppContext) {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/s3/analytics/patient',
    { preHandler: authenticate(ctx), schema: recordingsEndpoints['GET /s3/analytics/patient'] },
    async (request) => {
      const key = parseNightKey(request.query.recording_date);
      if (key === null) throw new ApiError(400, 'validation_failed', `recording_date "${request.query.recording_date}" is not YYYYMMDD.`);
      const patient = await visiblePatient(ctx.db, currentUser(request), request.query.patient_id, 'read');
      const night = (await listRecordings(ctx.db, patient.id)).find((r) => r.night_key === key && (!request.query.device_id || r.device_id === request.query.device_id));
      if (!night) throw notFound('recording');
      const channels = await listChannels(ctx.db, [night.id]);
      const subject = `night:${night.id}`;
      return {
        data: {
          meta: {
            recording_id: night.id,
            night: night.night_key,
            device_id: night.device_id,
            timezone: night.timezone,
            recording_start_time: night.start_ms,
            recording_stop_time: night.stop_ms,
            channels: channels.filter((c) => c.sample_rate <= MAX_FILE_RATE_HZ).map((c) => c.code),
          },
          link: `/api/v1/s3/analytics/night-file/${night.id}?${signLink(await linkSecret(ctx.db), subject)}`,
        },
      };
    },
  );

  app.get(
    '/s3/analytics/patient/range',
    { preHandler: authenticate(ctx), schema: recordingsEndpoints['GET /s3/analytics/patient/range'] },
    async (request) => {
      const from = parseNightKey(request.query.start_date);
      const to = parseNightKey(request.query.end_date);
      if (from === null || to === null || to < from) throw new ApiError(400, 'validation_failed', 'start_date and end_date must be YYYYMMDD, the end not before the start.');
      if (to - from > 92 * 86_400) throw new ApiError(400, 'validation_failed', 'A range covers at most 92 days.');
      const patient = await visiblePatient(ctx.db, currentUser(request), request.query.patient_id, 'read');
      const nights = await listRecordings(ctx.db, patient.id);
      const secret = await linkSecret(ctx.db);
      const days: Array<{ recording_date: string; night: number; recording_id: number; link: string }> = [];
      // Day by day, skipping days without a night (spec 2 §7).
      for (let key = from; key <= to; key += 86_400) {
        const night = nights.find((r) => r.night_key === key && (!request.query.device_id || r.device_id === request.query.device_id));
        if (!night) continue;
        days.push({
          recording_date: nightDate(key, true),
          night: key,
          recording_id: night.id,
          link: `/api/v1/s3/analytics/night-file/${night.id}?${signLink(secret, `night:${night.id}`)}`,
        });
      }
      return { data: { days } };
    },
  );

  app.get(
    '/s3/analytics/night-file/:id',
    { schema: recordingsEndpoints['GET /s3/analytics/night-file/:id'] },
    async (request, reply) => {
      const { id } = request.params;
      if (!verifyLink(await linkSecret(ctx.db), `night:${id}`, request.query.exp, request.query.sig)) {
        throw new ApiError(403, 'link_expired', 'This data link is invalid or has expired; ask for a new one.');
      }
      const night = await findNightFileHead(ctx.db, id);
      if (!night) throw notFound('recording');
      const channels = (await listChannels(ctx.db, [id])).filter((c) => c.sample_rate <= MAX_FILE_RATE_HZ);
      const parts = [`"recording_meta":{"timezone":${JSON.stringify(night.timezone)}}`, `"recording_start_time":${night.start_ms}`, `"recording_stop_time":${night.stop_ms}`];
      for (const c of channels) parts.push(`${JSON.stringify(c.code)}:${await channelJson(ctx, c)}`);
      return reply.header('content-type', 'application/json; charset=utf-8').header('cache-control', isLiveRecording(night) ? 'no-cache' : 'private, max-age=900').send(Buffer.from(`{${parts.join(',')}}`, 'utf8'));
    },
  );
}
