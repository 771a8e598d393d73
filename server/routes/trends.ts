import type { FastifyInstance } from 'fastify';
import { DateTime } from 'luxon';
import type { AppContext } from '../context';
import { authenticate, currentUser } from '../context';
import { ApiError } from '../errors';
import { visiblePatient } from '../patients/access';
import { listChannels, listRecordings } from '../recordings/store';
import { secondsOrMs } from '../recordings/night-key';
import { nightChannelStats } from '../services/engine';

const MAX_DAYS = 400;
const round = (v: number) => (Number.isFinite(v) ? Math.round(v * 100) / 100 : null);

/**
 * GET /analytics/patient-trendview/type={codes}: one point per night in the range (spec 2 §3
 * "Daily analytics point"), its statistics computed by the signal engine over the night.
 * device_start_time and device_stop_time are seconds (09:00 of the first and last day).
 */
export function trendRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get<{ Params: { type: string }; Querystring: { patient_id: number; device_start_time: number; device_stop_time: number } }>(
    '/analytics/patient-trendview/type=:type',
    {
      preHandler: authenticate(ctx),
      schema: {
        params: { type: 'object', properties: { type: { type: 'string', minLength: 1, maxLength: 200 } } },
        querystring: {
          type: 'object',
          required: ['patient_id', 'device_start_time', 'device_stop_time'],
          properties: { patient_id: { type: 'integer', minimum: 1 }, device_start_time: { type: 'number' }, device_stop_time: { type: 'number' } },
        },
      },
    },
    async (request) => {
      const q = request.query;
      const fromMs = secondsOrMs(q.device_start_time);
      const toMs = secondsOrMs(q.device_stop_time);
      if (toMs < fromMs) throw new ApiError(400, 'validation_failed', 'device_stop_time is before device_start_time.');
      if (toMs - fromMs > MAX_DAYS * 86_400_000) throw new ApiError(400, 'validation_failed', `A trend covers at most ${MAX_DAYS} days.`);
      const patient = await visiblePatient(ctx.db, currentUser(request), q.patient_id);
      const codes = [...new Set(request.params.type.split(',').map((c) => c.trim()).filter(Boolean))];
      // A night belongs to the range when it ends after the first anchor and starts before the last.
      const nights = (await listRecordings(ctx.db, patient.id)).filter((r) => r.stop_ms > fromMs - 86_400_000 && r.start_ms < toMs);
      const channels = await listChannels(ctx.db, nights.map((n) => n.id));
      const data: Record<string, unknown[]> = Object.fromEntries(codes.map((c) => [c, []]));
      for (const night of nights) {
        const wanted = channels.filter((c) => c.recording_id === night.id && codes.includes(c.code));
        for (const [code, s] of await nightChannelStats(ctx.db, night, wanted)) {
          if (s.count === 0) continue;
          data[code].push({
            date: DateTime.fromSeconds(night.night_key, { zone: 'UTC' }).toISODate(),
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
      return { data };
    },
  );
}
