// Threshold bands of a patient from the vital_parameters JSON of /patient/details,
// with the spec's defaults for anything missing (spec 2 §3).
import {
  DEFAULT_BR, DEFAULT_PR, DEFAULT_SPO2, rateBands, spo2Bands,
  type RateVitalParameters, type Spo2VitalParameters, type ThresholdBands,
} from '../../../engine/index';

export interface VitalParameters {
  br: RateVitalParameters;
  pr: RateVitalParameters;
  spo2: Spo2VitalParameters;
}

function merge<T extends object>(defaults: T, given: unknown): T {
  const out = { ...defaults } as Record<string, number>;
  if (given && typeof given === 'object') {
    for (const key of Object.keys(defaults)) {
      const v = Number((given as Record<string, unknown>)[key]);
      const raw = (given as Record<string, unknown>)[key];
      if (raw !== null && raw !== undefined && raw !== '' && Number.isFinite(v)) out[key] = v;
    }
  }
  return out as T;
}

/** Parses vital_parameters (a JSON string, an object or nothing) field by field over the defaults. */
export function parseVitalParameters(value: unknown): VitalParameters {
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      parsed = null;
    }
  }
  const p = (parsed && typeof parsed === 'object' ? parsed : {}) as Record<string, unknown>;
  return { br: merge(DEFAULT_BR, p.br), pr: merge(DEFAULT_PR, p.pr), spo2: merge(DEFAULT_SPO2, p.spo2) };
}

/** Moderate and severe bands of BR, PR or SPO2. */
export function bandsOf(kind: 'br' | 'pr' | 'spo2', vp: VitalParameters): ThresholdBands {
  return kind === 'spo2' ? spo2Bands(vp.spo2) : rateBands(vp[kind]);
}
