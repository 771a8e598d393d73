/** The parsed shape of an EDF/EDF+ or BDF/BDF+ file, close to the file's own fields. */
import type { EdfRange } from '../model';

/** Header fields of one signal, as the file gives them (numbers parsed, strings trimmed). */
export interface EdfSignalHeader {
  label: string;
  /** Physical and digital minimum/maximum as the header writes them (for a faithful export). */
  range: EdfRange;
  transducer: string;
  /** Physical dimension (unit). */
  unit: string;
  physicalMin: number;
  physicalMax: number;
  digitalMin: number;
  digitalMax: number;
  prefiltering: string;
  samplesPerRecord: number;
  reserved: string;
}

/** An ordinary (non-annotation) signal with its samples joined across records. */
export interface EdfSignal extends EdfSignalHeader {
  /** samplesPerRecord / recordDuration, Hz; NaN when the records have duration 0 (no time base). */
  sampleRate: number;
  /** physical = digital * scale + offset, scale = (pmax - pmin) / (dmax - dmin), offset = pmin - dmin * scale. */
  scale: number;
  offset: number;
  /** Digital samples of every record, in record order (recordCount * samplesPerRecord); 24-bit BDF in an Int32Array. */
  digital: Int16Array | Int32Array;
}

/** One annotation of an 'EDF Annotations' signal. */
export interface EdfAnnotation {
  /** Seconds after the header's start date and time (EDF+ TAL onset). */
  onset: number;
  /** Seconds; 0 when the TAL gives none. */
  duration: number;
  text: string;
}

/** The fixed part of the header. */
export interface EdfHeader {
  /** "0" for EDF, "BIOSEMI" for BDF. */
  version: string;
  /** 16-bit EDF or 24-bit BDF samples. */
  format: 'EDF' | 'BDF';
  patient: string;
  recording: string;
  /** Raw 'dd.mm.yy' and 'hh.mm.ss' fields. */
  startDate: string;
  startTime: string;
  headerBytes: number;
  reserved: string;
  /** Number of data records as found in the data (the header may say -1 while recording). */
  recordCount: number;
  /** The header's own count: -1 when the file was written while recording (then counted from the data). */
  declaredRecordCount: number;
  /** Seconds; 0 for annotation-only files. */
  recordDuration: number;
  signalCount: number;
}

export type EdfVariant = 'EDF' | 'EDF+C' | 'EDF+D';

/** A whole EDF/EDF+ file. */
export interface EdfFile {
  fileName: string;
  variant: EdfVariant;
  header: EdfHeader;
  /** Header date and time read in `timezone`, ms UTC. */
  startMs: number;
  timezone: string;
  /** Ordinary signals, in file order. */
  signals: EdfSignal[];
  /** Header fields of the 'EDF Annotations' signals (kept for completeness). */
  annotationSignals: EdfSignalHeader[];
  /** Every annotation with a text, in file order (the time-keeping entries are not here). */
  annotations: EdfAnnotation[];
  /** Start of each data record, seconds after startMs (EDF+ time keeping, or index * duration). */
  recordStarts: Float64Array;
}
