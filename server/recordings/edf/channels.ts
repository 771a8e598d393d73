import type { ParsedRecording, assembleNight } from '../assemble';
import { MISSING_CODES, type ChannelData, type NightEvent } from '../model';
import { mapLabel } from '../labels';
import { NOCTURNE_TRANSDUCER, parseNocturneExtent } from './header';
import type { EdfFile, EdfSignal } from './types';

/** Options of {@link edfToRecording}. */
export interface EdfToRecordingOptions {
  /** User label → code map, overriding and extending the defaults of labels.ts. */
  labelMap?: Record<string, string>;
}

const MS_PER_S = 1000;
const GAP_CODE = MISSING_CODES[0];

/**
 * Turns a read EDF/EDF+ file into channels and events with absolute times.
 *
 * - Each channel's t0 is the header start plus its first record's start (EDF+ sub-second
 *   start), so files of one night keep their own offsets.
 * - Continuous data stays int16 with the file's scale/offset (no copy).
 * - EDF+D records with gaps between them: the channel becomes float32 physical values
 *   with the gaps filled by the missing code -1, each record placed at its own start.
 * - Signals of zero-duration records have no time base; they are listed in
 *   meta.untimedSignals instead of becoming channels.
 * - Codes come from labels.ts (or, for files Nocturne wrote, are the labels). Two signals
 *   of one file may share a code here; {@link assembleNight} makes codes unique.
 */
export function edfToRecording(edf: EdfFile, options: EdfToRecordingOptions = {}): ParsedRecording {
  const { header, recordStarts } = edf;
  const firstStart = recordStarts.length > 0 ? recordStarts[0] : 0;
  const channels: ChannelData[] = [];
  const untimedSignals: string[] = [];
  let stopS = header.recordDuration > 0 && recordStarts.length > 0 ? recordStarts[recordStarts.length - 1] + header.recordDuration : 0;
  for (const signal of edf.signals) {
    if (!(signal.sampleRate > 0)) {
      untimedSignals.push(signal.label);
      continue;
    }
    const t0 = edf.startMs + firstStart * MS_PER_S;
    const base = {
      code: signal.transducer === NOCTURNE_TRANSDUCER ? signal.label : mapLabel(signal.label, options.labelMap),
      label: signal.label,
      unit: signal.unit,
      sampleRate: signal.sampleRate,
      t0,
    };
    const contiguous = isContiguous(recordStarts, header.recordDuration, signal.sampleRate);
    const channel: ChannelData = contiguous
      ? { ...base, storage: 'int16', scale: signal.scale, offset: signal.offset, samples: signal.digital }
      : { ...base, storage: 'float32', scale: 1, offset: 0, samples: placeRecords(signal, recordStarts) };
    channels.push(signal.transducer === NOCTURNE_TRANSDUCER ? ownExtent(channel, signal.prefiltering) : channel);
  }
  const events: NightEvent[] = edf.annotations.map((a) => ({
    onsetMs: edf.startMs + a.onset * MS_PER_S,
    durationMs: a.duration * MS_PER_S,
    text: a.text,
  }));
  for (const e of edf.annotations) stopS = Math.max(stopS, e.onset + e.duration);
  return {
    fileName: edf.fileName,
    format: edf.variant,
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
      ...(untimedSignals.length > 0 ? { untimedSignals } : {}),
    },
  };
}

/** A Nocturne-written channel without the padding the writer added around it (see header.ts). */
function ownExtent(channel: ChannelData, prefiltering: string): ChannelData {
  const extent = parseNocturneExtent(prefiltering);
  if (!extent || extent.lead + extent.count > channel.samples.length) return channel;
  return {
    ...channel,
    t0: channel.t0 + (extent.lead / channel.sampleRate) * MS_PER_S,
    samples: channel.samples.subarray(extent.lead, extent.lead + extent.count),
  };
}

/** True when every record starts where the previous one ended (to within half a sample). */
function isContiguous(starts: Float64Array, duration: number, rate: number): boolean {
  const slack = 0.5 / rate;
  for (let r = 1; r < starts.length; r++) {
    if (Math.abs(starts[r] - starts[0] - r * duration) > slack) return false;
  }
  return true;
}

/** Physical samples with each record at round((start - first) * rate); gaps hold -1. */
function placeRecords(signal: EdfSignal, starts: Float64Array): Float32Array {
  const n = signal.samplesPerRecord;
  const first = starts[0];
  const last = starts.length - 1;
  const length = Math.round((starts[last] - first) * signal.sampleRate) + n;
  const out = new Float32Array(length).fill(GAP_CODE);
  const { digital, scale, offset } = signal;
  for (let r = 0; r < starts.length; r++) {
    const at = Math.round((starts[r] - first) * signal.sampleRate);
    const from = r * n;
    for (let i = 0; i < n; i++) out[at + i] = digital[from + i] * scale + offset;
  }
  return out;
}
