import { createHash } from 'node:crypto';
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { open, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { Piscina } from 'piscina';
import { isXml, parseEdfSource, parseRecordingFile, uploadContext, type ParseFileOptions } from './assemble';
import { csvKind } from './csv/sniff';
import { EmptyRecordingError, NeedsItsUploadError, emptyFileOf, RecordingFormatError, type EmptyFile, type ParsedRecording } from './model';
import { hashFiles, type HashedFile } from './night-files';
import { lowerThreadPriority } from '../services/thread-priority';
import { ownsBuffer } from '../services/buffers';

// Parsing an upload waits for the event loop, never the other way round (decision 1004).
lowerThreadPriority();

/** What the main thread asks: files on disk and how to read them. */
export interface ParseTask {
  paths: string[];
  options: ParseFileOptions;
}

/** The files' hashes and parsed contents, or why they cannot be read (an Error does not cross threads with its class). */
export type ParseOutcome =
  | { files: HashedFile[]; parts: ParsedRecording[]; empty: EmptyFile[] }
  | { formatErrors: { file: string; field: string; problem: string }[] }
  | { rangeError: string };


/** Files from this size on are read in pieces when they are EDF/BDF. */
const STREAM_BYTES = 16 * 1024 * 1024;

/** True when the file is an EDF/BDF by content (as parseRecordingFile tells them apart). */
async function isEdf(file: string, name: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return csvKind(head.subarray(0, bytesRead), name) === null && !isXml(head.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

async function md5OfFile(file: string): Promise<string> {
  const hash = createHash('md5');
  for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Parses an EDF/BDF file on disk, reading it by position (synchronous reads: this is a worker thread). */
function parseFromDisk(file: string, name: string, size: number, options: ParseFileOptions): ParsedRecording {
  const fd = openSync(file, 'r');
  try {
    return parseEdfSource(name, {
      length: size,
      read(start, length) {
        const want = Math.max(0, Math.min(length, size - start));
        // A buffer of its own (aligned, never Node's shared pool) for the Int16Array view over it.
        const out = new Uint8Array(new ArrayBuffer(want));
        let got = 0;
        while (got < want) {
          const n = readSync(fd, out, got, want - got, start + got);
          if (n === 0) break;
          got += n;
        }
        return out.subarray(0, got);
      },
    }, options);
  } finally {
    closeSync(fd);
  }
}

/**
 * The outcome with its sample buffers moved to the main thread, not copied (a 200 MB night
 * would otherwise exist twice). Only buffers a channel owns whole are moved; a view into a
 * shared buffer (Node's small-buffer pool, a file's bytes) is copied as before.
 */
function moved(outcome: { files: HashedFile[]; parts: ParsedRecording[]; empty: EmptyFile[] }): ParseOutcome {
  const buffers = new Set<ArrayBuffer>();
  for (const part of outcome.parts) {
    for (const { samples } of part.channels) {
      if (ownsBuffer(samples) && samples.byteLength >= 64 * 1024) buffers.add(samples.buffer);
    }
  }
  return Piscina.move({ [Piscina.transferableSymbol]: [...buffers], [Piscina.valueSymbol]: outcome } as never) as unknown as ParseOutcome;
}

/**
 * Worker thread (piscina): reads a night's files from disk, hashes them (md5) and parses each,
 * so a 200 MB upload is read without blocking the server's event loop. The parts are assembled
 * (and checked against the patient's nights) on the main thread.
 */
export default async function parseFiles(task: ParseTask): Promise<ParseOutcome> {
  try {
    const files: HashedFile[] = [];
    const parts: ParsedRecording[] = [];
    // Every file is read: a refusal names each file that cannot be read, not only the first.
    const formatErrors: { file: string; field: string; problem: string }[] = [];
    const empty: EmptyFile[] = [];
    const later: string[] = [];
    for (const p of task.paths) {
      const name = path.basename(p);
      const size = (await stat(p)).size;
      try {
        if (size >= STREAM_BYTES && (await isEdf(p, name))) {
          // A large EDF/BDF is hashed as a stream and read a batch of records at a time: the
          // file is never whole in memory beside its samples (a 200 MB upload peaked ~190 MB higher).
          const md5 = await md5OfFile(p);
          parts.push(parseFromDisk(p, name, size, task.options));
          files.push({ name, md5, size });
        } else {
          const bytes = new Uint8Array(await readFile(p));
          const [hashed] = await hashFiles([{ name, bytes }]);
          parts.push(parseRecordingFile(name, bytes, task.options));
          files.push(hashed);
        }
      } catch (err) {
        if (!(err instanceof RecordingFormatError)) throw err;
        if (err instanceof EmptyRecordingError) empty.push(emptyFileOf(err));
        else if (err instanceof NeedsItsUploadError) later.push(p);
        else formatErrors.push({ file: err.file, field: err.field, problem: err.problem });
      }
    }
    // Files read with the rest of their upload: an export whose dates alone cannot tell their
    // order, a PSG's scoring file (placed on the recording it scores).
    const context = uploadContext(task.options, [...parts]);
    for (const p of later) {
      try {
        const name = path.basename(p);
        const bytes = new Uint8Array(await readFile(p));
        parts.push(parseRecordingFile(name, bytes, context));
        files.push((await hashFiles([{ name, bytes }]))[0]);
      } catch (err) {
        if (!(err instanceof RecordingFormatError)) throw err;
        formatErrors.push({ file: err.file, field: err.field, problem: err.problem });
      }
    }
    // Files with no data alone are refused, as any file that cannot be read.
    if (formatErrors.length > 0 || parts.length === 0) return { formatErrors: [...formatErrors, ...(formatErrors.length > 0 ? [] : empty)] };
    return moved({ files, parts, empty });
  } catch (err) {
    if (err instanceof RangeError) return { rangeError: err.message };
    throw err;
  }
}
