/**
 * A PSG's NSRR XML scoring file uploaded with its recording (decision 1048): its events count
 * from the recording's start, so it is read once the upload's EDFs are, placed at the start of
 * the EDF it scores, and kept with the night as an EDF+ annotation file is: its sleep stages
 * become the night's hypnogram (SLP_STGS), its apneas, hypopneas, desaturations and arousals the
 * night's scored events, every event its annotation.
 */
import { DateTime } from 'luxon';
import { hypnogramChannel, isUnscoredEpoch } from './edf/hypnogram';
import { RecordingFormatError, ScoringFileAloneError, type NightEvent, type ParsedRecording } from './model';
import { nsrrEventText, nsrrText, readNsrrXml, ScoringFileError, type NsrrFile } from './nsrr';

/** The format a placed scoring file is listed with (recording_files.format). */
export const NSRR_FORMAT = 'NSRR XML';
export const PROFUSION_FORMAT = 'Profusion XML';

/** A file name without its folder and extension, lower case. */
const stem = (name: string) => name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1).replace(/\.[^.]*$/, '').toLowerCase();

/** Reads an NSRR XML file; what cannot be read is refused as any recording file is. */
export function readScoringFile(fileName: string, bytes: Uint8Array): NsrrFile {
  try {
    return readNsrrXml(nsrrText(bytes), fileName);
  } catch (err) {
    if (err instanceof ScoringFileError) throw new RecordingFormatError(fileName, err.field, err.problem);
    throw err;
  }
}

/**
 * A file of the patient's stored nights as recording_meta.files lists it: what a scoring file
 * uploaded without its EDF is placed on when it is named after one (see {@link placeScoringFile}).
 */
export interface StoredFile {
  fileName: string;
  format: string;
  startMs: number;
  /** Channels the file gave (its hypnogram's included, as hypnogramEpochs says). */
  signals: number;
  hypnogramEpochs?: number;
}

/** A recording a scoring file may score: an EDF/BDF file of signals (a hypnogram file alone scores nothing). */
export type Scorable = Pick<StoredFile, 'fileName' | 'format' | 'startMs'>;
const isRecording = (f: { format: string; hypnogramEpochs?: unknown }, channels: number) => /^(EDF|BDF)/.test(f.format) && channels > (f.hypnogramEpochs === undefined ? 0 : 1);

/** The longest-named recording whose name the scoring file carries ("shhs1-200001-nsrr.xml" scores "shhs1-200001.edf"). */
function namedIn<T extends Scorable>(fileName: string, recordings: readonly T[]): T | undefined {
  const own = stem(fileName);
  return recordings
    .filter((p) => own.startsWith(stem(p.fileName)) && /^([-_. ]|$)/.test(own.slice(stem(p.fileName).length)))
    .sort((a, b) => stem(b.fileName).length - stem(a.fileName).length)[0];
}

/**
 * The recording a scoring file scores: the one it was imported onto ("Import scoring file" on a
 * night, decision 1051), else the upload's EDF whose name it carries, else the upload's one
 * recording start; with no recording in the upload, the patient's stored EDF whose name it
 * carries (its night is then scored: the file joins it).
 */
function recordingScored(fileName: string, parts: readonly ParsedRecording[], stored: readonly StoredFile[], onto?: Scorable): Scorable {
  if (onto) return onto;
  const recordings = parts.filter((p) => isRecording({ format: p.format, hypnogramEpochs: p.meta.hypnogramEpochs }, p.channels.length));
  if (recordings.length === 0) {
    const storedNamed = namedIn(fileName, stored.filter((f) => isRecording(f, f.signals) && Number.isFinite(f.startMs)));
    if (storedNamed) return storedNamed;
    throw new ScoringFileAloneError(fileName, 'file', 'is a scoring file (NSRR XML), timed from its recording\'s start: upload it together with its EDF, or import it on its night with "Import scoring file"');
  }
  const named = namedIn(fileName, recordings);
  if (named) return named;
  if (new Set(recordings.map((p) => p.startMs)).size === 1) return recordings[0]!;
  throw new RecordingFormatError(
    fileName,
    'file',
    `is a scoring file (NSRR XML) and this upload holds recordings of different starts (${recordings.map((p) => p.fileName).join(', ')}): name it after the EDF it scores (as NSRR does: "<edf name>-nsrr.xml"), or upload it with that EDF alone`,
  );
}

const clockText = (s: number) => [Math.floor(s / 3600), Math.floor(s / 60) % 60, s % 60].map((n) => String(n).padStart(2, '0')).join(':');

/**
 * A scoring file of an upload as a part of its night: events at the start of the recording it
 * scores (`parts`: the upload's files read so far; `stored`: the patient's stored files; `onto`:
 * the recording it was imported onto), read in `timezone` to check the file's own "Recording
 * Start Time" against it. Refused when no recording it can score is found, or the start times
 * disagree (another night's scoring).
 */
export function placeScoringFile(fileName: string, file: NsrrFile, parts: readonly ParsedRecording[], timezone = 'UTC', stored: readonly StoredFile[] = [], onto?: Scorable): ParsedRecording {
  const recording = recordingScored(fileName, parts, stored, onto);
  const originMs = recording.startMs;
  if (file.startClockS !== null) {
    const start = DateTime.fromMillis(originMs, { zone: timezone });
    const startS = start.hour * 3600 + start.minute * 60 + start.second;
    const apart = Math.abs(startS - file.startClockS);
    if (Math.min(apart, 86_400 - apart) > 1) {
      throw new RecordingFormatError(
        fileName,
        'Recording Start Time',
        `${clockText(file.startClockS)} is not the start of ${recording.fileName} (${clockText(startS)} in ${timezone}): it is not that recording's scoring file`,
      );
    }
  }
  const events: NightEvent[] = file.events.map((e) => ({ onsetMs: originMs + Math.round(e.startS * 1000), durationMs: Math.round(e.durationS * 1000), text: nsrrEventText(e.concept) }));
  const hypnogram = hypnogramChannel(events);
  let stopMs = originMs;
  // An unscored epoch's mark is no recorded time (decision 1032).
  for (const e of events) if (!isUnscoredEpoch(e.text)) stopMs = Math.max(stopMs, e.onsetMs + e.durationMs);
  return {
    fileName,
    format: file.kind === 'profusion' ? PROFUSION_FORMAT : NSRR_FORMAT,
    startMs: originMs,
    stopMs,
    channels: hypnogram ? [hypnogram] : [],
    events,
    meta: { scores: recording.fileName, ...(hypnogram ? { hypnogramEpochs: hypnogram.samples.length } : {}) },
  };
}
