import { csvHeaderLine, csvKind, readCsvText } from './csv/sniff';
import { readOximeterCsv } from './csv/oximeter';
import { readTimestampValueCsv } from './csv/timestamp-value';
import { parseDataPointFileName } from './csv/data-points';
import { edfToRecording } from './edf/channels';
import { readEdf, readEdfFrom, type EdfSource } from './edf/reader';
import { isAppleDouble, MacMetadataError, RecordingFormatError, ScoringFileAloneError, type ChannelData, type Night, type ParsedRecording } from './model';
import { placeScoringFile, readScoringFile, type Scorable, type StoredFile } from './nsrr-night';
import { isUnscoredEpoch } from './edf/hypnogram';
import { defaultMissingCodes } from './missing';
import { enforceRanges } from './ranges';
import { checkOneNight } from './limits';
import { joinChannels } from './sessions';

/** Options of {@link assembleNight}. */
export interface AssembleOptions {
  /** IANA zone the night was recorded in; 'UTC' when not given. */
  timezone?: string;
}

/**
 * Merges the files of one night (ResMed's BRP, EVE, SA2, PLD of every mask session; an EDF and
 * an oximeter CSV …) into a Night. Files are aligned by their absolute times and taken in
 * order of start (then name), so the order they arrive in never changes the night: the same
 * signal from several sessions is one channel with gaps between sessions (sessions.ts), a
 * code offered by several channels goes to the one with the most valid samples, the others
 * keep their source label ('Flow.40ms', else '<label>#2'): nothing is dropped and no code
 * silently mixes two sources. The night spans the earliest start to the latest stop
 * (channel ends and event ends included); events are sorted by onset.
 */
export function assembleNight(parts: ParsedRecording[], options: AssembleOptions = {}): Night {
  if (parts.length === 0) throw new RangeError('assembleNight: no files given');
  const sorted = [...parts].sort((a, b) => a.startMs - b.startMs || (a.fileName < b.fileName ? -1 : a.fileName > b.fileName ? 1 : 0));
  const { channels, sources } = joinChannels(sorted.flatMap((p) => p.channels.map((channel) => ({ channel, fileName: p.fileName }))));
  let startMs = Number.POSITIVE_INFINITY;
  let stopMs = Number.NEGATIVE_INFINITY;
  for (const part of sorted) {
    startMs = Math.min(startMs, part.startMs);
    stopMs = Math.max(stopMs, part.stopMs);
  }
  for (const channel of channels) {
    startMs = Math.min(startMs, channel.t0);
    stopMs = Math.max(stopMs, channelEndMs(channel));
  }
  const events = sorted
    .flatMap((p) => p.events)
    .map((e, i) => ({ e, i }))
    .sort((a, b) => a.e.onsetMs - b.e.onsetMs || a.i - b.i)
    .map(({ e }) => e);
  // An unscored epoch's mark is no recorded time (decision 1032).
  for (const e of events) if (!isUnscoredEpoch(e.text)) stopMs = Math.max(stopMs, e.onsetMs + e.durationMs);
  return {
    startMs,
    stopMs,
    timezone: options.timezone ?? 'UTC',
    channels,
    events,
    meta: {
      files: sorted.map((p) => ({ fileName: p.fileName, format: p.format, startMs: p.startMs, stopMs: p.stopMs, signals: p.channels.length, ...p.meta })),
      sources,
    },
  };
}

/** End of a channel (time just after its last sample), ms UTC. */
export function channelEndMs(channel: ChannelData): number {
  return channel.t0 + (channel.samples.length / channel.sampleRate) * 1000;
}

/** Options of {@link parseRecordingFile} and {@link nightFromFiles}. */
export interface ParseFileOptions {
  /** IANA zone of the recorder's clock (EDF header times, oximeter times); 'UTC' when not given. */
  timezone?: string;
  /** User label → code map for EDF signals (see labels.ts). */
  labelMap?: Record<string, string>;
  /** Channel code of a Timestamp,Value CSV; else taken from a data-point file name (SPO2_20260310_…csv). */
  csvCode?: string;
  csvUnit?: string;
  /** The order of slashed dates the upload's other oximeter exports settled (see {@link uploadDateOrder}). */
  slashedDayFirst?: boolean;
  /** The upload's files read so far: a scoring file is placed on the recording it scores among them (nsrr-night.ts). */
  upload?: readonly ParsedRecording[];
  /** The patient's stored files: a scoring file uploaded without its EDF is placed on the stored EDF it is named after. */
  stored?: readonly StoredFile[];
  /** Where a scoring file imported onto a night starts (its night's recording, decision 1051), whatever it is named. */
  onto?: Scorable;
}

/**
 * The order of slashed dates ("04/11/2026") the upload's oximeter exports settled by their
 * own rows or names, when they agree (true: day/month); undefined when none did or they
 * differ. An export of the same phone whose dates alone cannot tell is read in it (decision 1045).
 */
export function uploadDateOrder(parts: readonly ParsedRecording[]): boolean | undefined {
  const orders = new Set(parts.map((p) => p.meta.slashedDates).filter((o) => o !== undefined));
  return orders.size === 1 ? orders.has('day/month') : undefined;
}

/**
 * What a file that cannot be read alone ({@link NeedsItsUploadError}) is read again with: the
 * upload's other files as read (`parts`) and the date order their exports settled.
 */
export function uploadContext(options: ParseFileOptions, parts: readonly ParsedRecording[]): ParseFileOptions {
  return { ...options, slashedDayFirst: uploadDateOrder(parts), upload: parts };
}

const XML_HEAD = /^\uFEFF?\s*<(\?xml|[A-Za-z])/;
/** Whether a file is XML by its first bytes (an EDF starts with "0", a BDF with 0xFF). */
export const isXml = (bytes: Uint8Array): boolean => XML_HEAD.test(new TextDecoder().decode(bytes.subarray(0, 64)));

/**
 * Reads one file of any supported kind, told apart by content: EDF/EDF+ (version "0"),
 * Wellue/Checkme oximeter CSV (a Time and an Oxygen Level column), Timestamp,Value CSV.
 */
export function parseRecordingFile(fileName: string, bytes: Uint8Array, options: ParseFileOptions = {}): ParsedRecording {
  if (bytes.length === 0) throw new RecordingFormatError(fileName, 'file', 'is empty (0 bytes)');
  if (isAppleDouble(bytes)) throw new MacMetadataError(fileName, 'file', 'is macOS metadata (the "._" companion Finder writes beside a file on an SD card), not a recording');
  if (isXml(bytes)) {
    // A PSG's scoring file: its times count from its recording's start, read once the upload's recordings are.
    if (!options.upload) throw new ScoringFileAloneError(fileName, 'file', 'is a scoring file (NSRR XML), read with the recording it scores');
    return placeScoringFile(fileName, readScoringFile(fileName, bytes), options.upload, options.timezone, options.stored, options.onto);
  }
  const kind = csvKind(bytes, fileName);
  if (kind === null) return edfToRecording(readEdf(bytes, fileName, { timezone: options.timezone }), { labelMap: options.labelMap });
  if (kind === 'other-csv') {
    throw new RecordingFormatError(
      fileName,
      'header',
      `"${csvHeaderLine(bytes)}" is neither an oximeter export (Time,Oxygen Level,…) nor Timestamp,Value`,
    );
  }
  const text = readCsvText(bytes);
  if (kind === 'oximeter') return withRanges(readOximeterCsv(text, fileName, { timezone: options.timezone, slashedDayFirst: options.slashedDayFirst }));
  const ours = parseDataPointFileName(fileName);
  const code = options.csvCode ?? ours?.channel;
  if (!code) {
    throw new RecordingFormatError(fileName, 'channel', 'a Timestamp,Value CSV needs a channel code (none given, none in the file name)');
  }
  // A data-point file Nocturne wrote for our device's channel keeps the device's codes (-1, -2).
  const missingCodes = ours && !options.csvCode ? defaultMissingCodes('device', code) : [];
  return withRanges(readTimestampValueCsv(text, fileName, { code, unit: options.csvUnit, timezone: options.timezone, missingCodes }));
}

/**
 * An EDF/BDF file read a piece at a time ({@link readEdfFrom}): what parseRecordingFile gives
 * for it, without the file whole in memory (large uploads, in the parse worker).
 */
export function parseEdfSource(fileName: string, src: EdfSource, options: ParseFileOptions = {}): ParsedRecording {
  if (src.length === 0) throw new RecordingFormatError(fileName, 'file', 'is empty (0 bytes)');
  return edfToRecording(readEdfFrom(src, fileName, { timezone: options.timezone }), { labelMap: options.labelMap });
}

/** Physiological ranges and finiteness on every channel of a CSV (ranges.ts), as for EDF. */
function withRanges(part: ParsedRecording): ParsedRecording {
  return { ...part, channels: part.channels.map(enforceRanges) };
}

/** Reads the files of one night and merges them ({@link parseRecordingFile}, {@link assembleNight}). */
export function nightFromFiles(files: { name: string; bytes: Uint8Array }[], options: ParseFileOptions = {}): Night {
  const parts = files.map((f) => parseRecordingFile(f.name, f.bytes, options));
  checkOneNight(parts);
  return assembleNight(parts, { timezone: options.timezone });
}
