import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Piscina } from 'piscina';
import { parseRecordingFile, type ParsedRecording, type ParseFileOptions } from './assemble';
import { RecordingFormatError } from './model';
import { hashFiles, type HashedFile } from './night-files';

/** What the main thread asks: files on disk and how to read them. */
export interface ParseTask {
  paths: string[];
  options: ParseFileOptions;
}

/** The files' hashes and parsed contents, or why they cannot be read (an Error does not cross threads with its class). */
export type ParseOutcome =
  | { files: HashedFile[]; parts: ParsedRecording[] }
  | { formatError: { file: string; field: string; problem: string } }
  | { rangeError: string };

/**
 * The outcome with its sample buffers moved to the main thread, not copied (a 200 MB night
 * would otherwise exist twice). Only buffers a channel owns whole are moved; a view into a
 * shared buffer (Node's small-buffer pool, a file's bytes) is copied as before.
 */
function moved(outcome: { files: HashedFile[]; parts: ParsedRecording[] }): ParseOutcome {
  const buffers = new Set<ArrayBuffer>();
  for (const part of outcome.parts) {
    for (const { samples } of part.channels) {
      const whole = samples.byteOffset === 0 && samples.byteLength === samples.buffer.byteLength;
      if (samples.buffer instanceof ArrayBuffer && whole && samples.byteLength >= 64 * 1024) buffers.add(samples.buffer);
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
  const raw = await Promise.all(task.paths.map(async (p) => ({ name: path.basename(p), bytes: new Uint8Array(await readFile(p)) })));
  const files = await hashFiles(raw);
  try {
    return moved({ files, parts: raw.map((f) => parseRecordingFile(f.name, f.bytes, task.options)) });
  } catch (err) {
    if (err instanceof RecordingFormatError) return { formatError: { file: err.file, field: err.field, problem: err.problem } };
    if (err instanceof RangeError) return { rangeError: err.message };
    throw err;
  }
}
