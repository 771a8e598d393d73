import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { workerExecArgv } from '../services/worker-argv';
import type { ParseFileOptions } from './assemble';
import { RecordingFormatError, RecordingFormatErrors, type ParsedRecording } from './model';
import type { HashedFile } from './night-files';
import type { ParseOutcome, ParseTask } from './parse-worker';
import type { EmptyFile } from './model';

/** The worker's entry (a compiled module's address in the test runs' compiled server). */
const WORKER = new URL('./parse-worker.ts', import.meta.url).href;
let pool: Piscina<ParseTask, ParseOutcome> | null = null;

/** The worker threads that parse uploads: at most half the cores, so requests keep one. */
function parsePool(): Piscina<ParseTask, ParseOutcome> {
  if (pool) return pool;
  pool = new Piscina<ParseTask, ParseOutcome>({
    filename: WORKER,
    maxThreads: Math.max(1, Math.floor(availableParallelism() / 2)),
    minThreads: 0,
    idleTimeout: 30_000,
    execArgv: workerExecArgv(WORKER),
  });
  return pool;
}

/**
 * Reads, hashes and parses a night's files from disk in a worker thread, off the event loop.
 * Throws RecordingFormatError (RecordingFormatErrors naming each file when several cannot be
 * read) or RangeError as parseRecordingFile does. Files with no data records beside files with
 * data are not parsed parts: they come back in `empty` (decision 1030).
 */
export async function parseFilesInWorker(paths: string[], options: ParseFileOptions = {}): Promise<{ files: HashedFile[]; parts: ParsedRecording[]; empty: EmptyFile[] }> {
  const outcome = await parsePool().run({ paths, options });
  if ('formatErrors' in outcome) {
    const errors = outcome.formatErrors.map((e) => new RecordingFormatError(e.file, e.field, e.problem));
    throw errors.length === 1 ? errors[0] : new RecordingFormatErrors(errors);
  }
  if ('rangeError' in outcome) throw new RangeError(outcome.rangeError);
  return outcome;
}

/** Stops the parse workers (server shutdown, end of tests). */
export async function closeParsePool(): Promise<void> {
  const p = pool;
  pool = null;
  await p?.destroy();
}
