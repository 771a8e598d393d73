/**
 * Source signal labels (EDF, CSV) to Nocturne channel codes.
 *
 * Matching ignores case, spaces and punctuation, after stripping ResMed's sampling
 * suffix ('Flow.40ms', 'SpO2.1s', 'RespRate.2s'). Only labels whose meaning is clear
 * are mapped; everything else (EEG, EOG, EMG, ECG, temperature, CPAP pressure, leak,
 * snore, flow limitation, markers, CRCs …) keeps its own label as its code, so nothing
 * is dropped and nothing lands on a chart that means something else.
 *
 * Deliberately not mapped: 'RR' (in a PSG it is usually the ECG R–R interval, not a
 * respiratory rate), 'Pleth' (a waveform, not SpO2), 'Movement'/'Activity' (not the
 * radar's MOV measure), 'Position'.
 */

// The key a label is matched by (suffix stripped, lower case, letters and digits only), shared
// with the UI, which names the labels left as codes by the same key.
import { normaliseLabel } from '../../contract/signal-labels';

/** Default map: normalised label → channel code. */
const DEFAULT_LABELS: Readonly<Record<string, string>> = {
  // Airflow (nasal cannula pressure, oro-nasal thermistor, CPAP flow) → the PSG airflow trace.
  flow: 'NC_PSG',
  airflow: 'NC_PSG',
  nasalflow: 'NC_PSG',
  nasalpressure: 'NC_PSG',
  nasal: 'NC_PSG',
  cannula: 'NC_PSG',
  nasalcannula: 'NC_PSG',
  pflow: 'NC_PSG',
  flowpatient: 'NC_PSG',
  resporonasal: 'NC_PSG',
  respnasal: 'NC_PSG',
  oronasal: 'NC_PSG',
  thermistor: 'NC_PSG',
  // Respiratory effort belts.
  thorax: 'THRX_PSG',
  thor: 'THRX_PSG',
  thoracic: 'THRX_PSG',
  chest: 'THRX_PSG',
  tho: 'THRX_PSG',
  effortthorax: 'THRX_PSG',
  effortthor: 'THRX_PSG',
  effortthoracic: 'THRX_PSG',
  effortchest: 'THRX_PSG',
  efforttho: 'THRX_PSG',
  respthorax: 'THRX_PSG',
  respthoracic: 'THRX_PSG',
  respchest: 'THRX_PSG',
  // Compumedics (SHHS, MESA, MrOS: "THOR RES", "ABDO RES") and RIP belts (Nox, Embla: "RIP Thorax").
  thorres: 'THRX_PSG',
  ripthorax: 'THRX_PSG',
  ripthor: 'THRX_PSG',
  abdomen: 'ABD_PSG',
  abdo: 'ABD_PSG',
  abd: 'ABD_PSG',
  abdominal: 'ABD_PSG',
  effortabdomen: 'ABD_PSG',
  effortabdo: 'ABD_PSG',
  effortabd: 'ABD_PSG',
  respabdomen: 'ABD_PSG',
  respabdominal: 'ABD_PSG',
  abdores: 'ABD_PSG',
  ripabdomen: 'ABD_PSG',
  ripabdo: 'ABD_PSG',
  ripabd: 'ABD_PSG',
  // Oxygen saturation from a PSG or CPAP oximeter → the PSG reference SpO2.
  spo2: 'SPO2_PSG',
  sao2: 'SPO2_PSG',
  osat: 'SPO2_PSG',
  oxygensaturation: 'SPO2_PSG',
  // Rates shown on the charts of the same quantity.
  pulse: 'PR',
  pulserate: 'PR',
  pr: 'PR',
  heartrate: 'HR',
  hr: 'HR',
  resprate: 'BR',
  respiratoryrate: 'BR',
  respirationrate: 'BR',
  breathingrate: 'BR',
};

const NORMALISED_DEFAULTS: ReadonlyMap<string, string> = new Map(
  Object.entries(DEFAULT_LABELS).map(([k, v]) => [normaliseLabel(k), v]),
);

/**
 * The channel code for a source label. `extra` (label → code, matched the same way)
 * overrides and extends the defaults; an empty code in `extra` keeps the label unmapped.
 * An unmapped label is returned as is (trimmed), so it stays a channel of its own.
 */
export function mapLabel(label: string, extra?: Record<string, string>): string {
  const key = normaliseLabel(label);
  if (extra) {
    for (const [from, to] of Object.entries(extra)) {
      if (normaliseLabel(from) === key) return to.trim() === '' ? label.trim() : to.trim();
    }
  }
  return NORMALISED_DEFAULTS.get(key) ?? label.trim();
}

/** What a code's source signal must look like to be that code (see {@link mapSignal}). */
interface Plausible {
  /** Normalised units accepted (lower case, no spaces); undefined: any unit. */
  units?: readonly string[];
  /** Sample rate bounds, Hz. */
  minHz: number;
  maxHz: number;
}

const PER_MINUTE = ['bpm', '/min', '1/min', 'min-1', 'min^-1', '/m'];
/** Rates and saturations are slow trends; breathing traces are waveforms of a few Hz and up. */
const PLAUSIBLE: Readonly<Record<string, Plausible>> = {
  SPO2_PSG: { units: ['%', 'percent', '%spo2', '%sao2'], minHz: 0, maxHz: 10 },
  PR: { units: [...PER_MINUTE, 'beats/min', 'beat/min', 'b/min'], minHz: 0, maxHz: 10 },
  HR: { units: [...PER_MINUTE, 'beats/min', 'beat/min', 'b/min'], minHz: 0, maxHz: 10 },
  BR: { units: [...PER_MINUTE, 'br/min', 'breaths/min', 'breath/min', 'rpm', 'resp/min'], minHz: 0, maxHz: 10 },
  NC_PSG: { minHz: 1, maxHz: 1000 },
  THRX_PSG: { minHz: 1, maxHz: 1000 },
  ABD_PSG: { minHz: 1, maxHz: 1000 },
};

/** Normalised unit: lower case, no spaces, 'µ' as 'u'. */
function normaliseUnit(unit: string): string {
  return unit.trim().toLowerCase().replace(/\s+/g, '').replace(/µ|μ/g, 'u');
}

/** Why a default mapping was not applied, or null when the signal fits the code. */
function implausibleFor(code: string, unit: string, rate: number): string | null {
  const rule = PLAUSIBLE[code];
  if (!rule) return null;
  if (rule.units && !rule.units.includes(normaliseUnit(unit))) return `unit "${unit}" is not one of ${code}'s (${rule.units.join(', ')})`;
  if (!(rate >= rule.minHz && rate <= rule.maxHz)) return `${rate} Hz is outside ${code}'s ${rule.minHz}–${rule.maxHz} Hz`;
  return null;
}

/** A signal's code with the reason a default mapping was refused, if it was. */
export interface MappedSignal {
  code: string;
  /** Set when the default map named a code the signal's unit or rate does not fit. */
  refused?: { code: string; reason: string };
}

/**
 * Like {@link mapLabel}, with sanity: a default mapping is used only when the signal's unit
 * and rate fit the code (a 200 Hz µV "pulse" is a waveform, not a pulse rate; it keeps its
 * own label). The physician's own map (`extra`) is followed as given: it is a decision.
 */
export function mapSignal(label: string, unit: string, rate: number, extra?: Record<string, string>): MappedSignal {
  const key = normaliseLabel(label);
  if (extra && Object.keys(extra).some((from) => normaliseLabel(from) === key)) return { code: mapLabel(label, extra) };
  const code = mapLabel(label);
  if (code === label.trim()) return { code };
  const reason = implausibleFor(code, unit, rate);
  return reason ? { code: label.trim(), refused: { code, reason } } : { code };
}

/** Checksum and status words written beside the data (ResMed's Crc16, BioSemi's Status): not measurements. */
const CHECKSUM_LABELS: ReadonlySet<string> = new Set(['crc16', 'crc', 'crc32', 'checksum']);

/**
 * True for a signal that only checks or flags the file's own records: ResMed's 'Crc16'
 * (and CRC/checksum by another name), BioSemi's trigger/status word ('Status', transducer
 * 'Triggers and Status'). EDF+'s 'Event marker' is a patient button, i.e. data: not here.
 */
export function isChecksumOrStatus(label: string, transducer = ''): boolean {
  const key = normaliseLabel(label);
  if (CHECKSUM_LABELS.has(key)) return true;
  return key === 'status' && /triggers?\s+and\s+status/i.test(transducer);
}
