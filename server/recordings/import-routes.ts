import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { prepareUploadDir } from '../upload-temp';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import multipart from '@fastify/multipart';
import { CHANNEL_CODE_PATTERN, UPLOAD_LIMITS } from '../../contract/imports';
import { recordingsEndpoints } from '../../contract/endpoints/recordings';
import type { AppContext } from '../context';
import type { Api } from '../typed-api';
import { authenticate, currentUser } from '../context';
import { ApiError, forbidden } from '../errors';
import { actingPhysicianId, type UserRow } from '../auth/users';
import { findCountry } from '../countries';
import { visiblePatient } from '../patients/access';
import { importFiles, savedLabelMap, saveLabelMap } from './import';
import { closeParsePool } from './parse-pool';
import { unstorableField } from '../input-guard';
import { INT32_MAX } from '../../contract/common';
import { isTimeZone } from './night-key';
import { importSummary } from './summary';
import { importUpload } from './upload-import';
import type { SkippedFile } from './night-files';
import { noteAccessOf } from '../audit/trail';

const MAX_FILE_BYTES = UPLOAD_LIMITS.maxFileBytes;
/** All files of one upload together: a night of raw radar and PSG is well below this. */
const MAX_UPLOAD_BYTES = UPLOAD_LIMITS.maxUploadBytes;
/** A form field's longest value (label_map and md5 are the long ones). */
const MAX_FIELD_BYTES = 1024 * 1024;
const MB = 1024 * 1024;

/** Counts the bytes flowing through (each chunk is progress for the stall watch); fails once the upload's total passes the cap. */
function byteCounter(total: { bytes: number }, fileName: string, progress: () => void) {
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      progress();
      total.bytes += chunk.byteLength;
      if (total.bytes > MAX_UPLOAD_BYTES) return done(new ApiError(413, 'upload_too_large', `${fileName}: the files of one upload hold at most ${MAX_UPLOAD_BYTES / MB} MB together.`, { params: { max_mb: MAX_UPLOAD_BYTES / MB } }));
      done(null, chunk);
    },
  });
}
/**
 * The name a sent file is kept under: its last path segment, at most 200 characters. A name
 * with control characters (NUL among them) is refused, not stored; '.', '..' and no name at
 * all become 'upload'.
 */
function uploadFileName(sent: string | undefined): string {
  if (sent && /[\u0000-\u001f\u007f]/.test(sent)) throw new ApiError(400, 'validation_failed', `The file name "${sent.replace(/[\u0000-\u001f\u007f]/g, '?')}" must not contain control characters.`);
  const name = path.basename(sent || 'upload').slice(-200);
  return name === '.' || name === '..' || !name ? 'upload' : name;
}

/**
 * A multipart field holding a JSON object of strings (name → value), each value checked by
 * `valid`; `what` names the field and its shape in the messages.
 */
function parseJsonMap(text: string, field: string, what: string, valid: (v: string) => boolean, invalid: string): Record<string, string> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError(400, 'validation_failed', `${field} must be a JSON object of ${what}.`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new ApiError(400, 'validation_failed', `${field} must be a JSON object of ${what}.`);
  for (const [key, v] of Object.entries(value)) {
    if (typeof v !== 'string' || !valid(v)) throw new ApiError(400, 'validation_failed', `${field}: "${key}" ${invalid}.`);
  }
  return value as Record<string, string>;
}

const parseLabelMap = (text: string) => parseJsonMap(text, 'label_map', 'label → channel code', (c) => new RegExp(CHANNEL_CODE_PATTERN).test(c), 'maps to an invalid channel code');

/** The client's md5 of each file: a JSON object of file name → 32 hex digits. */
const parseMd5 = (text: string) => parseJsonMap(text, 'md5', 'file name → md5 (32 hex digits)', (h) => /^[0-9a-fA-F]{32}$/.test(h), 'is not 32 hex digits');

/** Rejects with 400 once `touch` has not been called for idleMs; `stop` ends the watch. */
function stallWatch(idleMs: number) {
  let timer: NodeJS.Timeout | undefined;
  let fail: (err: Error) => void = () => undefined;
  const stalled = new Promise<never>((_resolve, reject) => (fail = reject));
  stalled.catch(() => undefined);
  const touch = () => {
    clearTimeout(timer);
    timer = setTimeout(() => fail(new ApiError(400, 'malformed_upload', `The upload made no progress for ${idleMs / 1000} s (a part the form parser cannot read, or a stalled connection); send it again.`)), idleMs);
  };
  touch();
  return { stalled, touch, stop: () => clearTimeout(timer) };
}

/**
 * Reads a multipart upload: fields into memory (each at most MAX_FIELD_BYTES), files
 * streamed into `dir`. A body the parser cannot read (cut short, no final boundary, a part
 * without headers) is the client's mistake: 400 `malformed_upload`, never 500, and never a
 * request left hanging (the parser stalls on a large part without a name; the watch ends it).
 */
async function receiveParts(request: FastifyRequest, dir: string, idleMs: number, maxFiles: number): Promise<{ fields: Record<string, string>; files: { name: string; path: string }[] }> {
  const fields: Record<string, string> = {};
  const files: { name: string; path: string }[] = [];
  const total = { bytes: 0 };
  const watch = stallWatch(idleMs);
  const parts = request.parts()[Symbol.asyncIterator]();
  try {
    for (let next = await Promise.race([parts.next(), watch.stalled]); !next.done; next = await Promise.race([parts.next(), watch.stalled])) {
      const part = next.value;
      watch.touch();
      if (part.type === 'file') {
        const name = uploadFileName(part.filename);
        const own = path.join(dir, String(files.length));
        await mkdir(own);
        const file = path.join(own, name);
        await Promise.race([pipeline(part.file, byteCounter(total, name, watch.touch), createWriteStream(file)), watch.stalled]);
        if (part.file.truncated) throw new ApiError(413, 'file_too_large', `${name}: larger than ${MAX_FILE_BYTES / MB} MB.`, { params: { file: name, max_mb: MAX_FILE_BYTES / MB } });
        files.push({ name, path: file });
      } else {
        if (part.valueTruncated) throw new ApiError(413, 'field_too_large', `The field ${part.fieldname.slice(0, 80)} is longer than ${MAX_FIELD_BYTES / MB} MB.`, {
          params: { field: part.fieldname.slice(0, 80), max_mb: MAX_FIELD_BYTES / MB },
        });
        fields[part.fieldname] = String(part.value);
      }
    }
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_FILES_LIMIT') throw new ApiError(413, 'too_many_files', `One upload holds at most ${maxFiles} files; send the night's files in several uploads (they join the same night).`, { params: { max: maxFiles } });
    throw malformedUpload(err);
  } finally {
    watch.stop();
  }
  return { fields, files };
}

/** The multipart parser's own errors (no HTTP status, no system error code) as 400. */
function malformedUpload(err: unknown): unknown {
  if (err instanceof ApiError || !(err instanceof Error)) return err;
  if ((err as { statusCode?: number }).statusCode || (err as NodeJS.ErrnoException).code) return err;
  return new ApiError(400, 'malformed_upload', `The upload could not be read (${err.message}); send it again.`);
}

/** The multipart parser the night upload and the profile form read their forms with. */
export async function registerMultipart(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(multipart, { limits: { fileSize: MAX_FILE_BYTES, files: ctx.config.uploadMaxFiles, fields: 10, fieldSize: MAX_FIELD_BYTES } });
}

/** The fields and files of one upload, as receiveParts read them. */
interface Upload {
  fields: Record<string, string>;
  files: { name: string; path: string }[];
}

/** The patient an upload names (checked, visible to the caller) and the time zone its night is read in. */
async function uploadTarget(ctx: AppContext, reply: FastifyReply, user: UserRow, fields: Record<string, string>) {
  const problem = unstorableField(fields, 'fields');
  if (problem) throw new ApiError(400, 'validation_failed', problem);
  const patientId = Number(fields.patient_id);
  if (!Number.isInteger(patientId) || patientId < 1 || patientId > INT32_MAX) throw new ApiError(400, 'validation_failed', 'patient_id is required.');
  if ((fields.device_id?.length ?? 0) > 40) throw new ApiError(400, 'validation_failed', 'device_id holds at most 40 characters.');
  const patient = await visiblePatient(ctx.db, user, patientId);
  // A multipart upload names its patient in a form field: the access trail is told.
  noteAccessOf(reply.request, patient.id);
  const timezone = fields.timezone || (patient.country && findCountry(patient.country)?.timezone) || 'UTC';
  if (!isTimeZone(timezone)) throw new ApiError(400, 'validation_failed', `Unknown time zone "${timezone}".`);
  return { patient, timezone };
}

type ImportResults = Awaited<ReturnType<typeof importFiles>>;
type ImportResult = Omit<ImportResults, 'others'>;

/** One night of an upload as answered: the night, its channels and files. */
function nightAnswer(result: ImportResult) {
  const { recordingId, night } = result;
  return {
      recording_id: recordingId,
      recording_start_time: night.startMs,
      recording_stop_time: night.stopMs,
      timezone: night.timezone,
      channels: night.channels.map((c) => ({ code: c.code, label: c.label, fs: c.sampleRate, count: c.samples.length })),
      events: night.events.length,
      summary: importSummary(night),
      merged: result.merged,
      night: result.nightKey,
      night_start_time: result.startMs,
      night_stop_time: result.stopMs,
      files: result.files,
      skipped_files: result.skipped,
      device_events: result.deviceEvents,
  };
}

/** The upload message's part on files left out, by why. */
function skippedText(skipped: readonly SkippedFile[]): string {
  const of = (reason: SkippedFile['reason']) => skipped.filter((s) => s.reason === reason);
  const named = (reason: SkippedFile['reason']) => of(reason).map((s) => s.name).join(', ');
  const parts = [
    of('same_in_upload').length ? `${of('same_in_upload').length} left out (the same as another file of this upload)` : '',
    of('already_stored').length ? `${of('already_stored').length} left out (already stored)` : '',
    of('no_data').length ? `${of('no_data').length} left out (no data: ${named('no_data')})` : '',
    of('macos_metadata').length ? `${of('macos_metadata').length} left out (macOS metadata, not recordings: ${named('macos_metadata')})` : '',
  ];
  return parts.filter(Boolean).map((p) => `; ${p}`).join('');
}

/** What an upload answers: its (first) night, the device's summary if one came with it, and its other nights. */
function importedAnswer(result: ImportResults, deviceSummary: unknown) {
  const nights = [result, ...result.others];
  const files = nights.reduce((n, r) => n + r.files.length, 0);
  return {
    code: 'recording_imported',
    message: `Imported ${files} file${files === 1 ? '' : 's'}${nights.length > 1 ? ` as ${nights.length} nights` : result.merged ? ' into the night it belongs to' : ''}${skippedText(nights.flatMap((r) => r.skipped))}.`,
    data: {
      ...nightAnswer(result),
      ...(deviceSummary ? { device_summary: deviceSummary } : {}),
      ...(result.others.length ? { other_nights: result.others.map(nightAnswer) } : {}),
    },
  };
}

/** Imports one upload for its patient: a device's daily summary apart, the night's files merged into their night. */
async function answerUpload(ctx: AppContext, reply: FastifyReply, user: UserRow, { fields, files }: Upload) {
  const { patient, timezone } = await uploadTarget(ctx, reply, user, fields);
  const labelMap = { ...(await savedLabelMap(ctx.db, patient.physician_id)), ...(fields.label_map ? parseLabelMap(fields.label_map) : {}) };
  // A device's daily summary (ResMed STR.edf) is no night: stored per day, apart (upload-import.ts).
  const { nights: result, deviceSummary } = await importUpload(ctx.db, {
    patientId: patient.id,
    deviceId: fields.device_id?.trim() || null,
    createdBy: user.id,
    timezone,
    files,
    labelMap,
    csvCode: fields.channel || undefined,
    clientMd5: fields.md5 ? parseMd5(fields.md5) : undefined,
    log: reply.log,
  });
  if (!result) {
    return reply.code(201).send({
      code: 'device_summary_imported',
      message: `Read ${deviceSummary!.days_read} days of the device's summary; ${deviceSummary!.days_stored} with therapy stored.`,
      data: { device_summary: deviceSummary! },
    });
  }
  noteAccessOf(reply.request, patient.id, result.recordingId, result.others.map((o) => o.recordingId));
  // The nights' statistics (analysis, channel statistics), computed once now that they are stored or merged.
  ctx.nightStats?.schedule([result.recordingId, ...result.others.map((o) => o.recordingId)]);
  return reply.code(201).send(importedAnswer(result, deviceSummary));
}

/** Uploading a night's files for a patient (the multipart parser registered first). */
async function uploadRoutes(app: Api, ctx: AppContext) {
  const auth = authenticate(ctx);
  const uploads = await prepareUploadDir();
  app.addHook('onClose', () => rm(uploads, { recursive: true, force: true }));
  app.post('/patient/upload-recording', { preHandler: auth, schema: recordingsEndpoints['POST /patient/upload-recording'] }, async (request, reply) => {
    const user = currentUser(request);
    if (user.is_annotator) throw forbidden('Annotators cannot import recordings.');
    if (!request.isMultipart()) throw new ApiError(400, 'validation_failed', 'Send the files as multipart/form-data.');
    // Each file streams to a private temp directory (never whole in memory); a worker parses it from there.
    const dir = await mkdtemp(path.join(uploads, 'upload-'));
    try {
      return await answerUpload(ctx, reply, user, await receiveParts(request, dir, ctx.config.uploadIdleMs, ctx.config.uploadMaxFiles));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
  app.addHook('onClose', closeParsePool);

  // What the import dialog checks before it sends a night's files.
  app.get('/recordings/upload-limits', { preHandler: auth, schema: recordingsEndpoints['GET /recordings/upload-limits'] }, async () => ({
    data: { max_files: ctx.config.uploadMaxFiles, max_file_bytes: MAX_FILE_BYTES, max_upload_bytes: MAX_UPLOAD_BYTES },
  }));
}

/** The physician's label map: which channel code a file's label is read as. */
function labelMapRoutes(app: Api, ctx: AppContext) {
  const auth = authenticate(ctx);
  app.get('/recordings/label-map', { preHandler: auth, schema: recordingsEndpoints['GET /recordings/label-map'] }, async (request) => ({
    data: { label_map: await savedLabelMap(ctx.db, actingPhysicianId(currentUser(request))) },
  }));

  app.post('/recordings/label-map', { preHandler: auth, schema: recordingsEndpoints['POST /recordings/label-map'] }, async (request) => {
    const user = currentUser(request);
    if (user.is_annotator) throw forbidden('Annotators cannot change the label map.');
    const physicianId = actingPhysicianId(user);
    await saveLabelMap(ctx.db, physicianId, request.body.label_map, user.id);
    return { code: 'label_map_updated', data: { label_map: await savedLabelMap(ctx.db, physicianId) } };
  });
}

/** Uploading a night's files for a patient, and the physician's label map. */
export async function importRoutes(server: FastifyInstance, ctx: AppContext) {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();
  await uploadRoutes(app, ctx);
  labelMapRoutes(app, ctx);
}
