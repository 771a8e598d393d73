import { MISSING_CODES, type ChannelData, type NightEvent, type ParsedRecording } from '../model';
import { isChecksumOrStatus, mapSignal } from '../labels';
import { enforceRanges } from '../ranges';
import { NOCTURNE_TRANSDUCER, parseNocturneExtent, parseNocturneSignal } from './header';
import type { EdfFile, EdfSignal } from './types';
import { hypnogramChannel, isUnscoredEpoch } from './hypnogram';

/** Options of {@link edfToRecording}. */
export interface EdfToRecordingOptions {
  /** User label → code map, overriding and extending the defaults of labels.ts. */
  labelMap?: Record<string, string>;
}

/** A signal of the file that did not become a channel, and why. */
interface SkippedSignal {
  label: string;
  reason: 'checksum-or-status';
}

/** A label the default map would have given a code its unit or rate does not fit. */
interface UnmappedLabel {
  label: string;
  code: string;
  reason: string;
}

const MS_PER_S = 1000;

/**
 * Turns a read EDF/EDF+/BDF/BDF+ file into channels and events with absolute times.
 *
 * - Each channel's t0 is the header start plus its first record's start (EDF+ sub-second
 *   start), so files of one night keep their own offsets.
 * - Samples are kept exactly: continuous EDF data stays int16 digital values with the
 *   file's scale/offset (no copy); BDF's 24-bit values, and EDF+D records with gaps between
 *   them, become float32 *digital* values (every 24-bit integer is exact in float32) with
 *   the same scale/offset, each record at its own start and NaN in the gaps: a gap stays
 *   missing and never becomes data. The header's range, transducer and prefiltering are kept.
 * - Other tools' files define no missing codes; only files Nocturne wrote for our device
 *   say they do (header.ts).
 * - Checksum and status signals (ResMed's Crc16, BioSemi's Status) are no channels; they
 *   are listed in meta.skippedSignals.
 * - Codes come from labels.ts with unit and rate checks (or, for files Nocturne wrote, from
 *   the signal's reserved field). Two signals of one file may share a code here;
 *   `assembleNight` (../assemble.ts) makes codes unique.
 * - Values outside the code's physiological range, and non-finite ones, become missing (ranges.ts).
 */
export function edfToRecording(edf: EdfFile, options: EdfToRecordingOptions = {}): ParsedRecording {
  const { header, recordStarts } = edf;
  const firstStart = recordStarts.length > 0 ? recordStarts[0] : 0;
  const channels: ChannelData[] = [];
  const skippedSignals: SkippedSignal[] = [];
  const unmappedLabels: UnmappedLabel[] = [];
  let stopS = header.recordDuration > 0 && recordStarts.length > 0 ? recordStarts[recordStarts.length - 1] + header.recordDuration : 0;
  for (const signal of edf.signals) {
    if (isChecksumOrStatus(signal.label, signal.transducer)) {
      skippedSignals.push({ label: signal.label, reason: 'checksum-or-status' });
      continue;
    }
    const own = parseNocturneSignal(signal.reserved);
    const legacy = signal.transducer === NOCTURNE_TRANSDUCER;
    let code: string;
    if (own) code = own.code ?? signal.label;
    else if (legacy) code = signal.label;
    else {
      const mapped = mapSignal(signal.label, signal.unit, signal.sampleRate, options.labelMap);
      code = mapped.code;
      if (mapped.refused) unmappedLabels.push({ label: signal.label, code: mapped.refused.code, reason: mapped.refused.reason });
    }
    const t0 = edf.startMs + firstStart * MS_PER_S;
    const base = {
      code,
      label: signal.label,
      unit: signal.unit,
      sampleRate: signal.sampleRate,
      t0,
      transducer: legacy ? '' : signal.transducer,
      prefiltering: legacy ? '' : signal.prefiltering,
      edfRange: signal.range,
      scale: signal.scale,
      offset: signal.offset,
      // Legacy Nocturne files padded with the device's code -1; our own codes come back with the 'm' flag.
      missingCodes: legacy || own?.deviceCodes ? MISSING_CODES : [],
    };
    const contiguous = isContiguous(recordStarts, header.recordDuration, signal.sampleRate);
    const digital16 = contiguous && signal.digital instanceof Int16Array ? signal.digital : null;
    const inner = digital16 && own?.pad !== undefined ? unpadded(digital16, own.pad) : null;
    let channel: ChannelData;
    if (digital16 && own?.pad === undefined) channel = { ...base, storage: 'int16', samples: digital16 };
    else if (digital16 && inner) {
      // Our own padding only before and after the channel: its int16 digital values, at its own t0.
      channel = { ...base, t0: t0 + (inner.from / signal.sampleRate) * MS_PER_S, storage: 'int16', samples: digital16.subarray(inner.from, inner.to) };
    } else channel = { ...base, storage: 'float32', samples: placeRecords(signal, recordStarts, own?.pad) };
    if (own?.extent) channel = withinExtent(channel, own.extent);
    else if (own) channel = asInt16IfWhole(trimPadding(channel), signal);
    else if (legacy) channel = ownExtent(channel, signal.prefiltering);
    channels.push(enforceRanges(channel));
  }
  const events: NightEvent[] = edf.annotations.map((a) => ({
    onsetMs: edf.startMs + a.onset * MS_PER_S,
    durationMs: a.duration * MS_PER_S,
    text: a.text,
  }));
  // An unscored epoch's mark is no recorded time (decision 1032).
  for (const e of edf.annotations) if (!isUnscoredEpoch(e.text)) stopS = Math.max(stopS, e.onset + e.duration);
  // An EDF+ hypnogram's stage annotations are the night's sleep staging (hypnogram.ts).
  const hypnogram = channels.some((c) => c.code === 'SLP_STGS') ? null : hypnogramChannel(events);
  if (hypnogram) channels.push(hypnogram);
  const format = header.format === 'BDF' ? edf.variant.replace('EDF', 'BDF') : edf.variant;
  return {
    fileName: edf.fileName,
    format,
    // EDF+ keeps a sub-second start in the first record's time keeping.
    startMs: edf.startMs + firstStart * MS_PER_S,
    stopMs: edf.startMs + stopS * MS_PER_S,
    channels,
    events,
    meta: {
      patient: edf.header.patient,
      recording: edf.header.recording,
      recordCount: header.recordCount,
      recordDuration: header.recordDuration,
      ...(header.declaredRecordCount === -1 ? { recordCountUnknown: true } : {}),
      ...(skippedSignals.length > 0 ? { skippedSignals } : {}),
      ...(hypnogram ? { hypnogramEpochs: hypnogram.samples.length } : {}),
      ...(unmappedLabels.length > 0 ? { unmappedLabels } : {}),
    },
  };
}

/** A Nocturne-written full-range channel: its own samples are `count` after `lead` (header.ts). */
function withinExtent(channel: ChannelData, extent: { lead: number; count: number }): ChannelData {
  if (extent.lead + extent.count > channel.samples.length) return channel;
  return {
    ...channel,
    t0: channel.t0 + (extent.lead / channel.sampleRate) * MS_PER_S,
    samples: channel.samples.subarray(extent.lead, extent.lead + extent.count),
  };
}

/** A legacy Nocturne-written channel without the padding the writer added around it. */
function ownExtent(channel: ChannelData, prefiltering: string): ChannelData {
  const extent = parseNocturneExtent(prefiltering);
  if (!extent || extent.lead + extent.count > channel.samples.length) return channel;
  return {
    ...channel,
    t0: channel.t0 + (extent.lead / channel.sampleRate) * MS_PER_S,
    samples: channel.samples.subarray(extent.lead, extent.lead + extent.count),
  };
}

/**
 * A Nocturne-written channel without the padding before its first and after its last
 * sample (records other channels needed): its own t0 and length come back. Padding inside
 * stays NaN, i.e. missing, as it was.
 */
function trimPadding(channel: ChannelData): ChannelData {
  const s = channel.samples;
  let from = 0;
  while (from < s.length && Number.isNaN(s[from])) from++;
  let to = s.length;
  while (to > from && Number.isNaN(s[to - 1])) to--;
  if (from === 0 && to === s.length) return channel;
  return { ...channel, t0: channel.t0 + (from / channel.sampleRate) * MS_PER_S, samples: s.subarray(from, to) };
}

/**
 * A Nocturne-written EDF channel whose samples, once its padding is trimmed, have no gap
 * (records of other channels around it made the file discontinuous, not this channel):
 * back to int16 digital values, as it was stored before the export.
 */
function asInt16IfWhole(channel: ChannelData, signal: EdfSignal): ChannelData {
  if (channel.storage === 'int16' || !(signal.digital instanceof Int16Array)) return channel;
  const s = channel.samples;
  for (let i = 0; i < s.length; i++) if (Number.isNaN(s[i])) return channel;
  return { ...channel, storage: 'int16', samples: Int16Array.from(s) };
}

/** The span between leading and trailing `pad` values, or null when a `pad` lies inside it. */
function unpadded(digital: Int16Array, pad: number): { from: number; to: number } | null {
  let from = 0;
  while (from < digital.length && digital[from] === pad) from++;
  let to = digital.length;
  while (to > from && digital[to - 1] === pad) to--;
  return digital.subarray(from, to).includes(pad) ? null : { from, to };
}

/** True when every record starts where the previous one ended (to within half a sample). */
function isContiguous(starts: Float64Array, duration: number, rate: number): boolean {
  const slack = 0.5 / rate;
  for (let r = 1; r < starts.length; r++) {
    if (Math.abs(starts[r] - starts[0] - r * duration) > slack) return false;
  }
  return true;
}

/**
 * Digital samples as float32 (exact for 16- and 24-bit integers) with each record at
 * round((start - first) * rate); gaps between records, and the writer's padding value
 * `pad` when given, hold NaN: missing.
 */
function placeRecords(signal: EdfSignal, starts: Float64Array, pad?: number): Float32Array {
  const n = signal.samplesPerRecord;
  const first = starts.length > 0 ? starts[0] : 0;
  const last = starts.length - 1;
  const length = last < 0 ? 0 : Math.round((starts[last] - first) * signal.sampleRate) + n;
  const out = new Float32Array(length).fill(Number.NaN);
  const { digital } = signal;
  for (let r = 0; r < starts.length; r++) {
    const at = Math.round((starts[r] - first) * signal.sampleRate);
    const from = r * n;
    for (let i = 0; i < n; i++) {
      const d = digital[from + i];
      out[at + i] = d === pad ? Number.NaN : d;
    }
  }
  return out;
}
