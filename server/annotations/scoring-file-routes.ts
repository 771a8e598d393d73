import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { DateTime } from 'luxon';
import { SCORING_FILE_MAX_BYTES, type ScoringExportQuery, type ScoringStagesAs } from '../../contract/scoring-files';
import { recordingsEndpoints } from '../../contract/endpoints/recordings';
import type { AppContext } from '../context';
import type { Logger } from '../log';
import type { UserRow } from '../auth/users';
import { authenticate, currentUser } from '../context';
import { ApiError } from '../errors';
import { visibleRecording } from '../patients/access';
import { nightDate } from '../recordings/night-key';
import { importFiles, savedLabelMap } from '../recordings/import';
import { isLiveRecording, listChannels, type RecordingRow } from '../recordings/store';
import { scoredStageOf } from '../recordings/edf/hypnogram';
import { edfAnnotationText, readEdfAnnotations, writeEdfAnnotations } from './edf-annotations';
import { nsrrEventText, nsrrText, readNsrrXml, ScoringFileError, writeNsrrXml, type NsrrOut } from '../recordings/nsrr';
import { importMarks, nightMarks, type FileEntry, type ScoringMark } from './scoring';
import { nsrrConceptOf, nsrrConceptOfKind, nsrrConceptOfStage } from './scoring-labels';
import { roundOfNewMark } from '../scoring/visibility';

/** Content-Disposition for a download, with an ASCII fallback and the UTF-8 name. */
const attachment = (name: string) => `attachment; filename="${name.replace(/[^\x20-\x7e]|"/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`;

/** The file name of a night's scoring: patient, night, device and whose marks. */
const fileName = (patientCode: string, night: RecordingRow, query: ScoringExportQuery, ext: string) =>
  `${patientCode}_${nightDate(night.night_key, true)}${night.device_id ? `_${night.device_id}` : ''}_${query.author ? `user${query.author}` : (query.source ?? 'all')}${ext}`;

/** Where a file's Start 0 is: its "Recording Start Time" clock time nearest the night's start, else the night's start. */
function nsrrOrigin(night: RecordingRow, clockS: number | null): number {
  const start = Number(night.start_ms);
  if (clockS === null) return start;
  const local = DateTime.fromMillis(start, { zone: night.timezone });
  let at = local.set({ hour: Math.floor(clockS / 3600), minute: Math.floor(clockS / 60) % 60, second: clockS % 60, millisecond: 0 }).toMillis();
  const DAY = 86_400_000;
  while (at - start > DAY / 2) at -= DAY;
  while (start - at > DAY / 2) at += DAY;
  return at;
}

/** The earliest whole second at or before the night's start and every mark: Start 0 of a written file. */
const originOf = (night: RecordingRow, marks: readonly ScoringMark[]) => Math.floor(Math.min(Number(night.start_ms), ...marks.slice(0, 1).map((m) => m.startMs)) / 1000) * 1000;

/** The channel a night's sleep staging is (a device's, or a hypnogram's read from a file). */
const STAGING_CODE = 'SLP_STGS';

/** How many 30-s epochs a file's sleep stages score (0: the file stages nothing). */
function stageEpochsOf(entries: readonly FileEntry[], kind: 'xml' | 'edf'): number {
  let epochs = 0;
  for (const e of entries) {
    if (scoredStageOf(kind === 'xml' ? nsrrEventText(e.label) : e.label, e.durationMs / 1000) !== null) epochs += Math.max(1, Math.round(e.durationMs / 30_000));
  }
  return epochs;
}

/**
 * What a file's sleep stages become on a night (decision 1051), null when it stages nothing: the
 * night's staging where it has none and a physician imports it, else marks (beside the night's own
 * staging; on a night still being recorded; an annotator's, as annotators import no recording;
 * those of a file of signals, a recording, whose signals "Import recording" adds).
 */
async function stagesAsOf(ctx: AppContext, recording: RecordingRow, user: UserRow, epochs: number, signals: number): Promise<ScoringStagesAs | null> {
  if (epochs === 0) return null;
  if ((await listChannels(ctx.db, [recording.id], [STAGING_CODE])).length > 0) return 'marks_beside_staging';
  if (isLiveRecording(recording)) return 'marks_live_night';
  if (user.is_annotator) return 'marks_annotator';
  return signals > 0 ? 'marks_recording_file' : 'night_staging';
}

/**
 * A scoring file that stages a night without staging, imported by a physician: the night's own
 * scoring file, read and kept as if uploaded with the night's recording (decision 1051): its
 * stages the night's hypnogram, its apneas, hypopneas, desaturations and arousals the night's
 * scored events, the file listed with the night's files. An XML's Start 0 is `originMs`.
 */
async function stageNight(
  ctx: AppContext,
  log: Logger,
  input: { patientId: number; userId: number; recording: RecordingRow; file: { name: string; bytes: Uint8Array }; originMs: number; labelMap: Record<string, string> },
): Promise<{ epochs: number; events: number }> {
  const { recording } = input;
  const result = await importFiles(ctx.db, {
    patientId: input.patientId,
    deviceId: null,
    createdBy: input.userId,
    timezone: recording.timezone,
    files: [input.file],
    labelMap: input.labelMap,
    onto: { recordingId: recording.id, scoring: { fileName: `the night of ${nightDate(Number(recording.night_key))}`, format: 'EDF', startMs: input.originMs } },
    log,
  });
  ctx.nightStats?.schedule([recording.id]);
  return { epochs: result.night.channels.find((c) => c.code === STAGING_CODE)?.samples.length ?? 0, events: result.deviceEvents };
}

/**
 * A scoring file's marks on a night (an empty label dropped), where an NSRR XML's Start 0 is on
 * it (an EDF+ file carries its own start), and how many signals an EDF+ file holds besides its
 * annotations. Refused (400, 422) when unreadable or empty.
 */
function scoringEntriesOf(bytes: Uint8Array, kind: 'xml' | 'edf', fileName: string, recording: RecordingRow): { entries: FileEntry[]; originMs: number; signals: number; profusion: boolean } {
  let entries: FileEntry[];
  let originMs = Number(recording.start_ms);
  let signals = 0;
  let profusion = false;
  try {
    if (kind === 'xml') {
      const file = readNsrrXml(nsrrText(bytes), fileName);
      originMs = nsrrOrigin(recording, file.startClockS);
      profusion = file.kind === 'profusion';
      entries = file.events.map((e) => ({ startMs: originMs + Math.round(e.startS * 1000), durationMs: Math.round(e.durationS * 1000), label: e.concept, channel: e.signal }));
    } else {
      const file = readEdfAnnotations(bytes, fileName, recording.timezone);
      entries = file.events.map((e) => ({ startMs: e.onsetMs, durationMs: e.durationMs, label: e.label, channel: e.channel }));
      signals = file.signals;
    }
  } catch (err) {
    if (err instanceof ScoringFileError) throw new ApiError(400, 'scoring_file_unreadable', err.message, { fieldRule: { field: err.field, rule: 'format' } });
    throw err;
  }
  entries = entries.filter((e) => e.label !== '');
  if (entries.length === 0) throw new ApiError(422, 'scoring_empty', `${fileName} holds no scored events.`, { params: { file: fileName } });
  return { entries, originMs, signals, profusion };
}

/** A file's bytes as one of the two formats, by its first bytes. */
function kindOf(bytes: Uint8Array): 'xml' | 'edf' | null {
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0a || bytes[i] === 0x0d)) i++;
  if (bytes[i] === 0x3c) return 'xml';
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 8));
  return head === '0       ' || head === '\xffBIOSEMI' ? 'edf' : null;
}

/** Scoring files: a night's annotations as NSRR XML and EDF+, and either imported onto a night. */
export function scoringFileRoutes(server: FastifyInstance, ctx: AppContext) {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();
  const auth = authenticate(ctx);

  app.get('/analytics/patient/export-nsrr-xml', { preHandler: auth, schema: recordingsEndpoints['GET /analytics/patient/export-nsrr-xml'] }, async (request, reply) => {
    const { patient, recording } = await visibleRecording(ctx.db, currentUser(request), request.query.patient_id, request.query.recording_id, 'read');
    const marks = await nightMarks(ctx.db, recording, patient, currentUser(request).id, request.query.source ?? 'all', request.query.author);
    const originMs = originOf(recording, marks);
    const xml = writeNsrrXml({
      originMs,
      lengthMs: Number(recording.stop_ms) - originMs,
      timezone: recording.timezone,
      events: marks.flatMap((m): NsrrOut[] => {
        if (m.fileStage) return [{ ...nsrrConceptOfStage(m.fileStage), startMs: m.startMs, durationMs: m.durationMs, signal: null }];
        const { type, concept } = m.deviceKind ? nsrrConceptOfKind(m.deviceKind, m.label) : nsrrConceptOf(m.label);
        return m.channels.map((signal) => ({ type, concept, startMs: m.startMs, durationMs: m.durationMs, signal }));
      }),
    });
    return reply
      .header('content-type', 'application/xml; charset=utf-8')
      .header('content-disposition', attachment(fileName(patient.patient_code, recording, request.query, '.xml')))
      .send(Buffer.from(xml, 'utf8'));
  });

  app.get('/analytics/patient/export-edf-annotations', { preHandler: auth, schema: recordingsEndpoints['GET /analytics/patient/export-edf-annotations'] }, async (request, reply) => {
    const { patient, recording } = await visibleRecording(ctx.db, currentUser(request), request.query.patient_id, request.query.recording_id, 'read');
    const marks = await nightMarks(ctx.db, recording, patient, currentUser(request).id, request.query.source ?? 'all', request.query.author);
    const bytes = writeEdfAnnotations({
      startMs: Number(recording.start_ms),
      stopMs: Number(recording.stop_ms),
      timezone: recording.timezone,
      patientCode: patient.patient_code,
      deviceId: recording.device_id,
      // A file's sleep stage is written as its file wrote it, on no channel.
      events: marks.flatMap((m) => (m.fileStage ? [{ onsetMs: m.startMs, durationMs: m.durationMs, text: m.label }] : m.channels.map((c) => ({ onsetMs: m.startMs, durationMs: m.durationMs, text: edfAnnotationText(m.label, c) })))),
    });
    return reply
      .header('content-type', 'application/octet-stream')
      .header('content-disposition', attachment(fileName(patient.patient_code, recording, request.query, '_annotations.edf')))
      .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  });

  app.post(
    '/analytics/patient/import-scoring',
    { preHandler: auth, bodyLimit: Math.ceil(SCORING_FILE_MAX_BYTES / 3) * 4 + 64 * 1024, schema: recordingsEndpoints['POST /analytics/patient/import-scoring'] },
    async (request, reply) => {
      const user = currentUser(request);
      const body = request.body;
      // Annotation work: the practice's members, annotators included (as new-annotations); never a sample patient.
      const { patient, recording } = await visibleRecording(ctx.db, user, body.patient_id, body.recording_id);
      const bytes = new Uint8Array(Buffer.from(body.content_base64, 'base64'));
      const kind = kindOf(bytes);
      if (!kind) throw new ApiError(400, 'scoring_format_unknown', `${body.file_name}: neither NSRR XML nor EDF+ (an XML file starts with "<", an EDF file with "0" and 7 spaces).`, { params: { file: body.file_name } });
      const { entries, originMs, signals, profusion } = scoringEntriesOf(bytes, kind, body.file_name, recording);
      const format = kind === 'edf' ? 'edf+' : profusion ? 'profusion-xml' : 'nsrr-xml';
      const epochs = stageEpochsOf(entries, kind);
      const stagesAs = await stagesAsOf(ctx, recording, user, epochs, signals);
      const labelMap = await savedLabelMap(ctx.db, patient.physician_id);
      if (stagesAs === 'night_staging') {
        const { epochs: staged, events } = await stageNight(ctx, reply.log, { patientId: patient.id, userId: user.id, recording, file: { name: body.file_name, bytes }, originMs, labelMap });
        return reply.code(201).send({
          code: 'scoring_staged',
          message: `${body.file_name}: its ${staged} sleep-stage epochs are this night's sleep staging now${events ? `, its ${events} scored events the night's scored events` : ''}; the file is listed with the night's files.`,
          data: { format, imported: 0, duplicates: 0, outside: 0, instants: 0, categories_created: [], labels: {}, channels_substituted: [], annotation_ids: [], stages: { epochs: staged, as: stagesAs, scored_events: events } },
        });
      }
      // A scorer's file during an open round goes to their set of the round (decision 0989).
      const outcome = await ctx.db.transaction(async (tx) => importMarks(tx, { night: recording, patient, userId: user.id, roundId: await roundOfNewMark(tx, user, recording.id), entries, categoryMap: body.category_map ?? {}, labelMap }));
      return reply.code(201).send({
        code: 'scoring_imported',
        message: `${outcome.imported} mark${outcome.imported === 1 ? '' : 's'} imported from ${body.file_name}.`,
        data: { format, ...outcome, stages: stagesAs ? { epochs, as: stagesAs, scored_events: 0 } : null },
      });
    },
  );
}
