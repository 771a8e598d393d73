import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ChannelSeries, SeriesQuery } from '../../contract/analytics';
import { analyticsEndpoints } from '../../contract/endpoints/analytics';
import type { AppContext } from '../context';
import { authenticate, currentUser } from '../context';
import { ApiError, notFound } from '../errors';
import { visiblePatient } from '../patients/access';
import { listChannels, listRecordings, loadSamples, type ChannelRow, type RecordingRow } from '../recordings/store';
import { parseNightKey, secondsOrMs } from '../recordings/night-key';

/**
 * Most samples one JSON series call answers, over all its channels (~4 MB of JSON): a whole
 * 10-hour night of five 1 Hz vitals fits. Raw radar and PSG waveforms go through the binary
 * channel-data call (16 parallel whole-night JSON series of a 25 Hz channel took 1.5 GB).
 */
export const MAX_JSON_SERIES_POINTS = 200_000;

/** How many samples of `channel` fall in [fromMs, toMsExclusive). */
function pointsIn(channel: ChannelRow, fromMs: number, toMsExclusive: number): number {
  const period = 1000 / channel.sample_rate;
  const first = Math.max(0, Math.ceil((fromMs - channel.t0_ms) / period));
  const last = Math.min(channel.sample_count, Math.ceil((toMsExclusive - channel.t0_ms) / period));
  return Math.max(0, last - first);
}

/** The JSON series of one channel (spec 2 §3 "Analytics series"): ts in seconds, values with NaN as null. */
async function series(ctx: AppContext, channel: ChannelRow, fromMs: number, toMsExclusive: number) {
  const samples = await loadSamples(ctx.db, channel);
  const period = 1000 / channel.sample_rate;
  const first = Math.max(0, Math.ceil((fromMs - channel.t0_ms) / period));
  const last = Math.min(samples.length, Math.ceil((toMsExclusive - channel.t0_ms) / period));
  const ts: number[] = [];
  const dataset: Array<number | null> = [];
  for (let i = first; i < last; i++) {
    const v = samples[i] * channel.scale + channel.offset_value;
    ts.push(Math.round(channel.t0_ms + i * period) / 1000);
    dataset.push(Number.isFinite(v) ? Math.round(v * 1e6) / 1e6 : null);
  }
  return { ts, dataset, fs: channel.sample_rate, t0: channel.t0_ms, unit: channel.unit, label: channel.label };
}

async function findNight(ctx: AppContext, patientId: number, q: SeriesQuery): Promise<RecordingRow> {
  const key = parseNightKey(q.recording_date);
  if (key === null) throw new ApiError(400, 'validation_failed', `recording_date "${q.recording_date}" is neither Unix seconds nor YYYY-MM-DD.`);
  const night = (await listRecordings(ctx.db, patientId)).find((r) => r.night_key === key && (!q.device_id || r.device_id === q.device_id));
  if (!night) throw notFound('recording');
  return night;
}

/** The spec's JSON analytics calls, kept for compatibility; the engine uses the binary endpoint. */
export function analyticsRoutes(server: FastifyInstance, ctx: AppContext) {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/analytics/patient/type=:type',
    { preHandler: authenticate(ctx), schema: analyticsEndpoints['GET /analytics/patient/type=:type'] },
    async (request) => {
      const q = request.query;
      const patient = await visiblePatient(ctx.db, currentUser(request), q.patient_id, 'read');
      const night = await findNight(ctx, patient.id, q);
      const codes = new Set(
        [request.params.type, q.graph_type ?? '']
          .join(',')
          .split(',')
          .map((c) => c.trim())
          .filter(Boolean),
      );
      if (q.multiple) codes.add('SQB');
      if (codes.has('IQ')) {
        codes.delete('IQ');
        codes.add('I');
        codes.add('Q');
      }
      const from = q.device_start_time !== undefined ? secondsOrMs(q.device_start_time) : night.start_ms;
      const to = q.device_stop_time !== undefined ? secondsOrMs(q.device_stop_time) : night.stop_ms + 1;
      if (to < from) throw new ApiError(400, 'validation_failed', 'device_stop_time is before device_start_time.');
      const channels = await listChannels(ctx.db, [night.id]);
      const points = channels.filter((c) => codes.has(c.code)).reduce((n, c) => n + pointsIn(c, from, to), 0);
      if (points > MAX_JSON_SERIES_POINTS) {
        throw new ApiError(
          400,
          'series_too_large',
          `This asks for ${points.toLocaleString('en-US')} samples; the JSON series answers at most ${MAX_JSON_SERIES_POINTS.toLocaleString('en-US')}. Ask for fewer channels (type, graph_type) or a shorter device_start_time–device_stop_time, or load /analytics/patient/channel-data (binary).`,
          { params: { points, max: MAX_JSON_SERIES_POINTS } },
        );
      }
      const data: Record<string, ChannelSeries> = {};
      for (const code of codes) {
        const channel = channels.find((c) => c.code === code);
        data[code] = channel ? await series(ctx, channel, from, to) : { ts: [], dataset: [] };
      }
      // The night's fields after the series (a code named like one of them gives way to it).
      return {
        data: Object.assign(data, {
          recording_meta: { timezone: night.timezone, ...night.recording_meta },
          recording_start_time: night.start_ms,
          recording_stop_time: night.stop_ms,
          start_time: night.start_ms / 1000,
          stop_time: night.stop_ms / 1000,
          device_values: [night.start_ms / 1000, night.stop_ms / 1000],
          device_id: night.device_id,
          night: night.night_key,
        }),
      };
    },
  );
}
