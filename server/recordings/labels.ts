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
  abdomen: 'ABD_PSG',
  abdo: 'ABD_PSG',
  abd: 'ABD_PSG',
  abdominal: 'ABD_PSG',
  effortabdomen: 'ABD_PSG',
  effortabdo: 'ABD_PSG',
  effortabd: 'ABD_PSG',
  respabdomen: 'ABD_PSG',
  respabdominal: 'ABD_PSG',
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

/** ResMed writes the sample period after a dot: 'Flow.40ms', 'SpO2.1s', 'Leak.2s'. */
const RESMED_SUFFIX = /\.\d+(\.\d+)?(ms|s)$/i;

/** The key a label is matched by: suffix stripped, lower case, letters and digits only. */
export function normaliseLabel(label: string): string {
  return label.trim().replace(RESMED_SUFFIX, '').toLowerCase().replace(/[^a-z0-9]/g, '');
}

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
