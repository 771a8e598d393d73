/**
 * Staged imports: a night's samples are written in short transactions into channels that
 * belong to an import stage (recording_channels.stage_id), not to a recording. Every reader
 * reaches channels through a recording, so staged rows are invisible; the import's one short
 * final transaction moves them to their night (attachStaged). Between the chunk
 * transactions other requests run: on PGlite, which has one connection, a 200 MB import in
 * one transaction held every other request until its commit.
 *
 * A failed import drops its stage; a crash leaves one behind, removed by removeStaleStages
 * (at start-up and every few minutes): on PGlite every stage is a leftover at start-up (one
 * server per data directory); on PostgreSQL, where other servers may be importing, only
 * stages untouched for STAGE_STALE_MS.
 */
import type { Db, Queryable } from '../db/adapter';
import { missingCodesOf } from './missing';
import type { ChannelData, RecordingSource } from './model';
import { chunkCount, insertChannelRow, insertChunks, SAMPLES_PER_CHUNK, writeWire } from './store';
import { gzipWire } from './wire-gzip';
import { fallbackLogger, type Logger } from '../log';

/** A stage untouched this long belongs to an import that is gone (each chunk transaction touches it). */
export const STAGE_STALE_MS = 10 * 60_000;

/**
 * Bytes of samples per chunk transaction. On PGlite every other request waits for the
 * transaction (one connection), so it stays short: 512 KB, 10–20 ms (decision 1008; at 1.5 MB
 * GETs during a 200 MB upload waited p99 97–117 ms, at 512 KB 91–97, the upload 12 → 15 s). On
 * PostgreSQL larger transactions save commits (other connections are not held up).
 */
const TX_BYTES = { pglite: 512 * 1024, postgres: 4 * 1024 * 1024 } as const;

export interface StagedNight {
  stageId: number;
  /** The channel row id of each staged channel, in the order given. */
  channelIds: number[];
  /** The code each channel was staged under. */
  codes: string[];
  /** The missing codes each channel's row and binary form were written with. */
  missingCodes: (readonly number[])[];
}

/** What a staging import has written so far (for progress and tests). */
export interface StageProgress {
  stageId: number;
  chunks: number;
  totalChunks: number;
}

/**
 * Writes channels with their chunks and binary forms into a new stage of the patient, in short
 * transactions. `onProgress` runs after each transaction (and may wait: the import waits with
 * it). On failure the stage is dropped and the error rethrown.
 */
export async function stageChannels(
  db: Db,
  patientId: number,
  channels: ChannelData[],
  source: RecordingSource,
  onProgress?: (progress: StageProgress) => unknown,
  log: Logger = fallbackLogger(),
): Promise<StagedNight> {
  const [{ id: stageId }] = await db.query<{ id: number }>('insert into import_stages (patient_id) values ($1) returning id', [patientId]);
  const staged: StagedNight = { stageId, channelIds: [], codes: [], missingCodes: [] };
  const totalChunks = channels.reduce((n, c) => n + chunkCount(c.samples.length), 0);
  let chunks = 0;
  // The binary forms are compressed on libuv's threads while the database writes the samples.
  const missing = channels.map((c) => missingCodesOf(c, source));
  const wires = channels.map((c, i) => gzipWire({ ...c, missingCodes: missing[i] }));
  // Observed from the start: a compression failing while a write is awaited is never an unhandled rejection.
  const settled = Promise.allSettled(wires);
  try {
    for (const [i, c] of channels.entries()) {
      const missingCodes = missing[i];
      const id = await insertChannelRow(db, { stageId }, c, missingCodes);
      staged.channelIds.push(id);
      staged.codes.push(c.code);
      staged.missingCodes.push(missingCodes);
      const perTx = Math.max(1, Math.floor(TX_BYTES[db.kind] / (c.samples.BYTES_PER_ELEMENT * SAMPLES_PER_CHUNK)));
      const count = chunkCount(c.samples.length);
      for (let seq = 0; seq < count; seq += perTx) {
        const to = Math.min(count, seq + perTx);
        await db.transaction(async (tx) => {
          await insertChunks(tx, id, c.samples, seq, to);
          await touch(tx, stageId);
        });
        chunks += to - seq;
        await onProgress?.({ stageId, chunks, totalChunks });
      }
      // In parts, each its own statement: other requests run between them (decision 1008).
      await writeWire(db, id, await wires[i]!);
    }
    return staged;
  } catch (err) {
    await settled;
    await dropStage(db, stageId).catch((dropErr: Error) => log.error(`Import stage ${stageId} not removed (${dropErr.message}); it is removed at the next start.`));
    throw err;
  }
}

async function touch(tx: Queryable, stageId: number): Promise<void> {
  const rows = await tx.query('update import_stages set touched_at = now() where id = $1 returning id', [stageId]);
  if (rows.length === 0) throw new Error(`import stage ${stageId} was removed while the import was writing it`);
}

/**
 * Moves a stage's channels to a recording, in the caller's (final) transaction: each under
 * `codes[i]` (a merge may rename), with `missingCodes[i]` (a merge into a night of our device
 * applies its codes to channels that name none; the binary form is rewritten then). Throws
 * when the stage is gone (removed as stale): nothing of the import is visible then.
 */
export async function attachStaged(
  tx: Queryable,
  staged: StagedNight,
  recordingId: number,
  channels: ChannelData[],
  codes: string[],
  missingCodes: (readonly number[])[],
): Promise<void> {
  const [stage] = await tx.query('select id from import_stages where id = $1 for update', [staged.stageId]);
  if (!stage) throw new Error(`import stage ${staged.stageId} was removed before the import finished`);
  for (let i = 0; i < staged.channelIds.length; i++) {
    if (codes[i] !== staged.codes[i]) await tx.query('update recording_channels set code = $2 where id = $1', [staged.channelIds[i], codes[i]]);
    if (JSON.stringify(missingCodes[i]) !== JSON.stringify(staged.missingCodes[i])) {
      await tx.query('update recording_channels set missing_codes = $2 where id = $1', [staged.channelIds[i], JSON.stringify(missingCodes[i])]);
      await writeWire(tx, staged.channelIds[i]!, await gzipWire({ ...channels[i]!, missingCodes: missingCodes[i]! }), true);
    }
  }
  await tx.query('update recording_channels set recording_id = $2, stage_id = null where stage_id = $1', [staged.stageId, recordingId]);
  await tx.query('delete from import_stages where id = $1', [staged.stageId]);
}

/** Removes a stage and everything staged in it, a channel at a time (short statements). */
export async function dropStage(db: Queryable, stageId: number): Promise<void> {
  const channels = await db.query<{ id: number }>('select id from recording_channels where stage_id = $1 order by id', [stageId]);
  for (const { id } of channels) await db.query('delete from recording_channels where id = $1 and stage_id = $2', [id, stageId]);
  await db.query('delete from import_stages where id = $1', [stageId]);
}

/** Removes stages untouched for olderThanMs (0: every stage). Returns how many. */
export async function removeStaleStages(db: Queryable, olderThanMs: number): Promise<number> {
  const stale = await db.query<{ id: number }>(`select id from import_stages where touched_at <= now() - $1::bigint * interval '1 millisecond' order by id`, [olderThanMs]);
  for (const { id } of stale) await dropStage(db, id);
  return stale.length;
}
