/**
 * A scoring as an EDF+ annotation file: EDF+C with no signal but 'EDF Annotations', one TAL
 * per mark and channel, its text `Label@@Channel` (the "@@" channel suffix MNE-Python and
 * the HMC sleep-staging files use), times to the microsecond in the file (kept here to the
 * millisecond). Written by the night-file writer (server/recordings/edf), read by its reader.
 */
import { writeNightFile } from '../recordings/edf';
import { readEdf } from '../recordings/edf/reader';
import { RecordingFormatError, type NightEvent } from '../recordings/model';
import { ScoringFileError } from '../recordings/nsrr';

/** One annotation of a file: its label and the channel after "@@", if any. */
export interface EdfScoredEvent {
  onsetMs: number;
  durationMs: number;
  label: string;
  channel: string | null;
}

const CHANNEL_SEP = '@@';

/** An annotation text for a mark on one channel. */
export const edfAnnotationText = (label: string, channel: string) => `${label}${CHANNEL_SEP}${channel}`;

/** The EDF+ bytes of `events` (texts as {@link edfAnnotationText} makes them) for a night. */
export function writeEdfAnnotations(input: { startMs: number; stopMs: number; timezone: string; patientCode: string; deviceId: string | null; events: NightEvent[] }): Uint8Array {
  const events = [...input.events].sort((a, b) => a.onsetMs - b.onsetMs);
  return writeNightFile({
    startMs: input.startMs,
    stopMs: input.stopMs,
    timezone: input.timezone,
    channels: [],
    events,
    meta: { patientCode: input.patientCode, deviceId: input.deviceId ?? undefined },
  }).bytes;
}

/**
 * The annotations of an EDF+ file (its header time read in `timezone`), in file order; an
 * ordinary EDF without annotations, or an unreadable file, is a ScoringFileError.
 */
export function readEdfAnnotations(bytes: Uint8Array, fileName: string, timezone: string): { events: EdfScoredEvent[]; signals: number } {
  let edf: ReturnType<typeof readEdf>;
  try {
    edf = readEdf(bytes, fileName, { timezone });
  } catch (err) {
    if (err instanceof RecordingFormatError) throw new ScoringFileError(fileName, err.field, err.problem);
    throw err;
  }
  if (edf.annotationSignals.length === 0) throw new ScoringFileError(fileName, 'EDF Annotations', 'the file has no annotation signal: not an EDF+ annotation file');
  const events = edf.annotations.map((a) => {
    const at = a.text.indexOf(CHANNEL_SEP);
    const label = (at < 0 ? a.text : a.text.slice(0, at)).trim();
    const channel = at < 0 ? null : a.text.slice(at + CHANNEL_SEP.length).trim() || null;
    return { onsetMs: Math.round(edf.startMs + a.onset * 1000), durationMs: Math.round(a.duration * 1000), label, channel };
  });
  return { events, signals: edf.signals.length };
}
