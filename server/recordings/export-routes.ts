import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { recordingsEndpoints } from '../../contract/endpoints/recordings';
import type { AppContext } from '../context';
import { authenticate, currentUser } from '../context';
import { ApiError, forbidden, notFound } from '../errors';
import { visibleRecording } from '../patients/access';
import { dataPointFileName } from './csv';
import { dataPointCsvChunks } from './csv/data-points';
import { writeNightFile } from './edf';
import { findChannel, loadChannelData, loadNight } from './store';
import { nightDate } from './night-key';
import { annotationEvents, annotationsCsv, nightAnnotations } from '../annotations/export';
import { blindRounds, seesDeviceEvents } from '../scoring/visibility';
import { exportFileEvents, loadDeviceEvents } from '../annotations/device';

/** Content-Disposition for a download, with an ASCII fallback and the UTF-8 name. */
const attachment = (name: string) => `attachment; filename="${name.replace(/[^\x20-\x7e]|"/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`;

/** Downloads: a night as EDF+ with its annotations, and one channel's data points as CSV. */
export function exportRoutes(server: FastifyInstance, ctx: AppContext) {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();
  const auth = authenticate(ctx);

  app.get(
    '/analytics/patient/export-edf',
    { preHandler: auth, schema: recordingsEndpoints['GET /analytics/patient/export-edf'] },
    async (request, reply) => {
      const user = currentUser(request);
      // A whole night as EDF+ is a data download, which annotators may not make.
      if (user.is_annotator) throw forbidden('Annotators cannot download recordings.');
      const { patient, recording } = await visibleRecording(ctx.db, user, request.query.patient_id, request.query.recording_id, 'read');
      const night = await loadNight(ctx.db, recording);
      const annotations = annotationEvents(await nightAnnotations(ctx.db, recording.id, user.id));
      const fileEvents = exportFileEvents(night.events, await loadDeviceEvents(ctx.db, [recording.id]));
      // EDF+, or BDF+ when a channel holds 24-bit samples (from a BDF file) that 16 bits cannot keep.
      let written: ReturnType<typeof writeNightFile>;
      try {
        written = writeNightFile({ ...night, events: [...fileEvents, ...annotations].sort((a, b) => a.onsetMs - b.onsetMs) });
      } catch (err) {
        // Rates no EDF record fits, values beyond an 8-character range: said, not a 500.
        if (err instanceof RangeError) throw new ApiError(422, 'export_impossible', `This night cannot be written as EDF+/BDF+: ${err.message}`);
        throw err;
      }
      const { bytes, format } = written;
      const date = nightDate(recording.night_key, true);
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-disposition', attachment(`${patient.patient_code}_${date}${recording.device_id ? `_${recording.device_id}` : ''}.${format === 'BDF' ? 'bdf' : 'edf'}`))
        .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    },
  );

  app.get(
    '/analytics/patient/annotations-csv',
    { preHandler: auth, schema: recordingsEndpoints['GET /analytics/patient/annotations-csv'] },
    async (request, reply) => {
      const user = currentUser(request);
      const { patient, recording } = await visibleRecording(ctx.db, user, request.query.patient_id, request.query.recording_id, 'read');
      const date = nightDate(recording.night_key, true);
      // A scorer of an open round sees the device's events only when the physician allowed it (decision 0989).
      const device = seesDeviceEvents(await blindRounds(ctx.db, user.id, [recording.id]), recording.id) ? await loadDeviceEvents(ctx.db, [recording.id]) : [];
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', attachment(`annotations_${date}_${recording.device_id ?? 'none'}_${patient.patient_code}.csv`))
        .send(Buffer.from(annotationsCsv(await nightAnnotations(ctx.db, recording.id, user.id), device), 'utf8'));
    },
  );

  app.get(
    '/analytics/patient/data-points',
    { preHandler: auth, schema: recordingsEndpoints['GET /analytics/patient/data-points'] },
    async (request, reply) => {
      // Spec 2 §6: annotators cannot download data points.
      if (currentUser(request).is_annotator) throw forbidden('Annotators cannot download data points.');
      const { patient, recording } = await visibleRecording(ctx.db, currentUser(request), request.query.patient_id, request.query.recording_id, 'read');
      const channel = await findChannel(ctx.db, recording.id, request.query.code);
      if (!channel) throw notFound('channel', request.query.code);
      // Streamed in pieces: a raw channel's CSV runs to hundreds of MB as one string.
      const csv = Readable.from(dataPointCsvChunks(await loadChannelData(ctx.db, channel)));
      const name = dataPointFileName({ channel: channel.code, date: recording.night_key, deviceId: recording.device_id ?? 'none', patientCode: patient.patient_code });
      // The file's bytes as a stream: the untyped reply takes one (the answer's schema says bytes).
      return (reply as FastifyReply).header('content-type', 'text/csv; charset=utf-8').header('content-disposition', attachment(name)).send(csv);
    },
  );
}
