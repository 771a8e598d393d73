import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { nightFromFiles } from './assemble';
import type { ParseFileOptions } from './assemble';
import { RecordingFormatError, type Night } from './model';

/** What the main thread asks: files on disk and how to read them. */
export interface ParseTask {
  paths: string[];
  options: ParseFileOptions;
}

/** The night, or why the files cannot be read (an Error does not cross threads with its class). */
export type ParseOutcome =
  | { night: Night }
  | { formatError: { file: string; field: string; problem: string } }
  | { rangeError: string };

/**
 * Worker thread (piscina): reads a night's files from disk and assembles the night, so a
 * 200 MB upload is parsed without blocking the server's event loop.
 */
export default async function parseNight(task: ParseTask): Promise<ParseOutcome> {
  const files = await Promise.all(task.paths.map(async (p) => ({ name: path.basename(p), bytes: new Uint8Array(await readFile(p)) })));
  try {
    return { night: nightFromFiles(files, task.options) };
  } catch (err) {
    if (err instanceof RecordingFormatError) return { formatError: { file: err.file, field: err.field, problem: err.problem } };
    if (err instanceof RangeError) return { rangeError: err.message };
    throw err;
  }
}
