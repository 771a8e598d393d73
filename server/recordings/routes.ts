import { promisify } from 'node:util';
import { gunzip as gunzipCb } from 'node:zlib';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { recordingsEndpoints } from '../../contract/endpoints/recordings';
import type { AppContext } from '../context';
import { authenticate, currentUser } from '../context';
import { ApiError, notFound } from '../errors';
import { visiblePatient, visibleRecording } from '../patients/access';
import { channelVersion, findChannel, isLiveRecording, listPatientChannels, listRecordingsByNight, loadSamples, loadTail, loadWireGzip } from './store';
import { gzipWire } from './wire-gzip';
import { nightDate } from './night-key';
import { channelOverview } from './overview';
import { clientGone, stopForAbort } from '../aborts';
import { nightSessions, type NightFileMeta } from './sessions';

const gunzip = promisify(gunzipCb);

/**
 * A channel's bytes say their version, and how long the browser keeps them (decision 1019): a day, only under the version
 * they are. A URL without one, or with one the channel no longer is (a session joined since
 * the night list was read), would keep bytes that change; a live night grows with every frame.
 */
function channelHeaders(reply: FastifyReply, version: string, live: boolean, asked: string | undefined): void {
  reply
    .header('content-type', 'application/octet-stream')
    .header('x-channel-version', version)
    .header('cache-control', live || asked !== version ? 'no-cache' : 'private, max-age=86400');
}

/**
 * The same for overviews of several channels (`asked`: their versions, in their order): a
 * session joined inside the night's span changes a channel but not the window the URL names.
 */
function overviewHeaders(reply: FastifyReply, versions: readonly string[], live: boolean, asked: readonly string[] | undefined): void {
  const kept = !live && asked?.length === versions.length && versions.every((version, i) => asked[i] === version);
  reply
    .header('content-type', 'application/octet-stream')
    .header('x-channel-versions', versions.join(','))
    .header('cache-control', kept ? 'private, max-age=86400' : 'no-cache');
}

/** Items by a key, each group in the items' order (Map.groupBy, which Node 20 lacks). */
function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/** Nights of a patient and the binary channel data the engine loads. */
export function recordingRoutes(server: FastifyInstance, ctx: AppContext) {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = ctx;
  const auth = authenticate(ctx);

  app.get(
    '/patient/available-nights',
    { preHandler: auth, schema: recordingsEndpoints['GET /patient/available-nights'] },
    async (request) => {
      const patient = await visiblePatient(db, currentUser(request), request.query.patient_id, 'read');
      const all = await listRecordingsByNight(db, patient.id);
      const channels = groupBy(await listPatientChannels(db, patient.id), (c) => c.recording_id);
      // Recordings sharing a night's key with it (THE_NIGHT_SQL): listed with that night, not as nights of their own.
      const others = all.filter((r) => !r.is_night);
      const info = (r: (typeof all)[number]) => ({
        recording_id: r.id,
        night: r.night_key,
        recording_date: nightDate(r.night_key),
        device_id: r.device_id,
        timezone: r.timezone,
        recording_start_time: r.start_ms,
        recording_stop_time: r.stop_ms,
        source: r.source,
        live: isLiveRecording(r),
        // The night's sessions (a CPAP night where the mask came off: one per stretch of files).
        sessions: nightSessions(Array.isArray(r.recording_meta?.files) ? (r.recording_meta.files as NightFileMeta[]) : []),
        channels: (channels.get(r.id) ?? []).map((c) => ({ code: c.code, label: c.label, unit: c.unit, fs: c.sample_rate, count: c.sample_count, valid: c.valid_count === null ? c.sample_count : Number(c.valid_count), version: channelVersion(c) })),
      });
      const nights = all.filter((r) => r.is_night).map((r) => {
        const also = others.filter((o) => o.night_key === r.night_key).map(info);
        return also.length > 0 ? { ...info(r), others: also } : info(r);
      });
      return { data: { nights } };
    },
  );

  app.get(
    '/analytics/patient/channel-data',
    { preHandler: auth, schema: recordingsEndpoints['GET /analytics/patient/channel-data'] },
    async (request, reply) => {
      const { patient_id, recording_id, code, tail_ms, v } = request.query;
      const { recording } = await visibleRecording(db, currentUser(request), patient_id, recording_id, 'read');
      const channel = await findChannel(db, recording.id, code);
      if (!channel) throw notFound('channel', code);
      const live = isLiveRecording(recording);
      channelHeaders(reply, channelVersion(channel), live, v);
      const acceptsGzip = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
      const wireOf = (t0: number, samples: Int16Array | Float32Array) =>
        gzipWire({ t0, sampleRate: channel.sample_rate, scale: channel.scale, offset: channel.offset_value, storage: channel.storage, missingCodes: channel.missing_codes, samples });
      if (tail_ms !== undefined) {
        const { first, samples } = await loadTail(db, channel, live, Math.ceil((tail_ms * channel.sample_rate) / 1000));
        const tail = await wireOf(channel.t0_ms + (first * 1000) / channel.sample_rate, samples);
        const bytes = Buffer.from(tail.buffer, tail.byteOffset, tail.byteLength);
        return acceptsGzip ? reply.header('content-encoding', 'gzip').send(bytes) : reply.send(await gunzip(bytes));
      }
      // Stored compressed when the night was saved (made here for a night stored before that).
      const compressed = await loadWireGzip(db, channel.id);
      // A night stored before its compressed copy was kept: compressing it is work nobody waits for once the client left.
      if (!compressed && clientGone(request)) return stopForAbort(request, reply, 'before compressing the channel');
      const stored = compressed ?? (await wireOf(channel.t0_ms, await loadSamples(db, channel)));
      const bytes = Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);
      return acceptsGzip ? reply.header('content-encoding', 'gzip').send(bytes) : reply.send(await gunzip(bytes));
    },
  );

  // The engine's views of one window of a night's channels (full-night charts before the raw
  // samples): `code` once per channel; the answer is their NCV1 buffers one after the other,
  // in the order asked (one request for a screen's charts, not one per chart).
  app.get(
    '/analytics/patient/channel-overview',
    { preHandler: auth, schema: recordingsEndpoints['GET /analytics/patient/channel-overview'] },
    async (request, reply) => {
      const { patient_id, recording_id, code: codes, t0, t1, pixels, v: asked } = request.query;
      const { recording } = await visibleRecording(db, currentUser(request), patient_id, recording_id, 'read');
      if (!(t1 > t0) || !Number.isFinite(t1 - t0)) throw new ApiError(400, 'validation_failed', `t1 (${t1}) must be after t0 (${t0}).`);
      const channels = await Promise.all(codes.map((code) => findChannel(db, recording.id, code)));
      const unknown = codes.find((_, i) => !channels[i]);
      if (unknown !== undefined) throw notFound('channel', unknown);
      const live = isLiveRecording(recording);
      const views: Uint8Array[] = [];
      // One at a time: each loads a channel's samples into the server's engine.
      for (const channel of channels) {
        // The screen was left: the remaining channels' overviews are not computed.
        if (clientGone(request)) return stopForAbort(request, reply, `stopped after ${views.length} of ${channels.length} channels`);
        views.push(await channelOverview(db, channel!, t0, t1, pixels, !live));
        // Lets the socket's close be seen between channels (an embedded database answers without yielding to I/O).
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      overviewHeaders(reply, channels.map((c) => channelVersion(c!)), live, asked);
      return reply.send(Buffer.concat(views));
    },
  );
}
