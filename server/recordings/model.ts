/**
 * The in-memory shape of one recorded night, shared by the importers (EDF/EDF+, CSV),
 * the simulator, storage and export. Times are ms since the Unix epoch (UTC).
 */

/** How a channel's samples are kept: int16 with physical = digital * scale + offset, or float32 as physical values. */
export type StorageType = 'int16' | 'float32';

/** Where a stored night came from: it decides the missing codes of channels that name none. */
export type RecordingSource = 'simulated' | 'edf' | 'csv' | 'device';

/** The device's missing-value codes (spec 2 §5), kept as physical values in the samples. */
export const MISSING_CODES = [-1, -2] as const;

export interface ChannelData {
  /** Channel code (BR, HR, SPO2, Y_DIST, I, Q, NC_PSG, …) or, when unmapped, the source label. */
  code: string;
  /** Label in the source (EDF signal label, CSV column); equals code for simulated channels. */
  label: string;
  /** Physical unit ('bpm', '%', 'mm', 'L/s', '' …). */
  unit: string;
  /** Samples per second; may be below 1 (1/30 for 30-s epochs, 1/60 …). */
  sampleRate: number;
  /** Time of the first sample, ms UTC. */
  t0: number;
  storage: StorageType;
  /** For int16: physical = digital * scale + offset. For float32: 1 and 0. */
  scale: number;
  offset: number;
  samples: Int16Array | Float32Array;
  /**
   * Stored values that mean "missing" for this channel. Only our own device's channels use
   * codes ({@link MISSING_CODES}); a channel read from another tool's file has none (its
   * gaps are NaN in float32). Undefined: the default of the night's source (missing.ts).
   */
  missingCodes?: readonly number[];
  /** EDF/BDF signal header fields of the source, kept for a faithful export ('' when none). */
  transducer?: string;
  prefiltering?: string;
  /** The source header's physical/digital extremes as written, when the samples are its digital values. */
  edfRange?: EdfRange;
  /** Samples the importer made missing: outside the code's physiological range, or not finite. */
  rejected?: { outOfRange: number; nonFinite: number };
  /**
   * The sessions an upload joined into this channel (sessions.ts joinPieces): each one's own
   * first-sample time, where its samples start here and how many. In memory only, for joining
   * the upload onto a stored night, where each session takes its own nearest sample of the
   * night's grid (joinInto); never stored. Absent: one session, from t0.
   */
  segments?: readonly Segment[];
}

/** One session's samples inside a joined channel (ChannelData.segments). */
export interface Segment {
  /** Its first sample's own time, ms UTC (the file's, before any snapping to a grid). */
  t0: number;
  /** Index of its first sample in the channel's samples. */
  at: number;
  /** Its sample count. */
  n: number;
}

/** Physical and digital minimum/maximum of an EDF/BDF signal, as the header's text. */
export interface EdfRange {
  physicalMin: string;
  physicalMax: string;
  digitalMin: string;
  digitalMax: string;
}

/** A time-stamped event: an EDF+ annotation, a device-scored event, a ground-truth event. */
export interface NightEvent {
  /** Onset, ms UTC. */
  onsetMs: number;
  /** Duration in ms (0 when the source gives none). */
  durationMs: number;
  /** Text as in the source ('Central Apnea', 'Sleep stage W', 'Recording starts' …). */
  text: string;
}

/** A whole night as importers and the simulator produce it. */
export interface Night {
  /** Recording start and stop, ms UTC. */
  startMs: number;
  stopMs: number;
  /** IANA time zone the night was recorded in (for the night key and display). */
  timezone: string;
  channels: ChannelData[];
  /** Annotations found in the source files. */
  events: NightEvent[];
  /** Free-form provenance: source file names, device, EDF header fields, simulator seed … */
  meta: Record<string, unknown>;
}

/** A file that cannot be read: names the file, the field and what was wrong. */
export class RecordingFormatError extends Error {
  constructor(
    readonly file: string,
    readonly field: string,
    readonly problem: string,
  ) {
    super(`${file}: ${field}: ${problem}`);
  }
}

/**
 * A file that cannot be read alone but may be with the other files of its upload: read again
 * once they are (see uploadContext in assemble.ts); still unreadable then, it is refused with
 * this error's text.
 */
export class NeedsItsUploadError extends RecordingFormatError {}

/**
 * An oximeter export whose slashed dates ("04/11/2026") read as day/month and month/day alike,
 * with neither its rows nor its name to tell which: the upload's other exports may (decision 1045).
 */
export class AmbiguousDateOrderError extends NeedsItsUploadError {}

/**
 * A PSG's scoring file (NSRR XML): its times count from its recording's start, which only the
 * recording (an EDF of the same upload) gives (decision 1048).
 */
export class ScoringFileAloneError extends NeedsItsUploadError {}

/**
 * A file that holds no data records (0, or -1 with none after its header): ResMed writes one for
 * a mask session too short to record. Alone it refuses the upload; beside files with data it is
 * left out and said so (decision 1030).
 */
export class EmptyRecordingError extends RecordingFormatError {}

/**
 * macOS's AppleDouble companion ("._NAME.edf", written by Finder beside every file it copies to a
 * FAT-formatted SD card): no recording, left out beside the files it accompanies as a file
 * without data is; alone it is refused, naming what it is (decision 1035).
 */
export class MacMetadataError extends EmptyRecordingError {}

/** A file that holds no data records, or no recording: left out when others of the upload hold data (decision 1030). */
export interface EmptyFile {
  file: string;
  field: string;
  problem: string;
  /** 'no_data': no data records; 'macos_metadata': a macOS "._" companion file (decision 1035). */
  reason: 'no_data' | 'macos_metadata';
}

/** A file left out beside files with data, as EmptyFile says it. */
export const emptyFileOf = (err: EmptyRecordingError): EmptyFile => ({ file: err.file, field: err.field, problem: err.problem, reason: err instanceof MacMetadataError ? 'macos_metadata' : 'no_data' });

/** Whether bytes are an AppleDouble file (magic 0x00051607). */
export const isAppleDouble = (bytes: Uint8Array) => bytes.length >= 4 && bytes[0] === 0x00 && bytes[1] === 0x05 && bytes[2] === 0x16 && bytes[3] === 0x07;

/** Several files that cannot be read: every one of them named, with its field. */
export class RecordingFormatErrors extends Error {
  constructor(readonly errors: readonly RecordingFormatError[]) {
    super(`${errors.length} files cannot be read: ${errors.map((e) => e.message).join('; ')}`);
  }
}

/**
 * One parsed source file of a night (an EDF file, an oximeter CSV …), already in absolute
 * time, before it is merged with the other files of the same night.
 */
export interface ParsedRecording {
  fileName: string;
  /** 'EDF', 'EDF+C', 'EDF+D', 'oximeter-csv', 'timestamp-value-csv'. */
  format: string;
  /** What the file covers, ms UTC. */
  startMs: number;
  stopMs: number;
  channels: ChannelData[];
  events: NightEvent[];
  /** Header fields and notes from the reader. */
  meta: Record<string, unknown>;
}
