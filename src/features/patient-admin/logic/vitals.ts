/** Vital-sign thresholds (spec 1 §3, §5): defaults and validation. */

const SPO2_KEYS = ['modFrom', 'modTo', 'sevFrom', 'sevTo'] as const;
const RATE_KEYS = ['modFromF', 'modToF', 'modFromS', 'modToS', 'sevFromF', 'sevToF', 'sevFromS', 'sevToS'] as const;

type Spo2Key = (typeof SPO2_KEYS)[number];
type RateKey = (typeof RATE_KEYS)[number];

/** Thresholds as the form holds them: text, so partial input survives. */
export interface VitalForm {
  spo2: Record<Spo2Key, string>;
  pr: Record<RateKey, string>;
  br: Record<RateKey, string>;
}

export type VitalGroup = keyof VitalForm;

/** Moderate and severe ranges as from–to pairs, in the order the screen shows them. */
export const VITAL_PAIRS: Record<VitalGroup, ReadonlyArray<readonly [string, string]>> = {
  spo2: [['modFrom', 'modTo'], ['sevFrom', 'sevTo']],
  pr: [['modFromF', 'modToF'], ['modFromS', 'modToS'], ['sevFromF', 'sevToF'], ['sevFromS', 'sevToS']],
  br: [['modFromF', 'modToF'], ['modFromS', 'modToS'], ['sevFromF', 'sevToF'], ['sevFromS', 'sevToS']],
};

type Numbers = { spo2: Record<Spo2Key, number>; pr: Record<RateKey, number>; br: Record<RateKey, number> };

/** Defaults of the edit screen: spo2 90-93 / 40-89; pr 100-120 & 55-60 / 120-160 & 0-55; br 24-30 & 10-12 / 30-50 & 0-10. */
export const EDIT_DEFAULTS: Numbers = {
  spo2: { modFrom: 90, modTo: 93, sevFrom: 40, sevTo: 89 },
  pr: { modFromF: 100, modToF: 120, modFromS: 55, modToS: 60, sevFromF: 120, sevToF: 160, sevFromS: 0, sevToS: 55 },
  br: { modFromF: 24, modToF: 30, modFromS: 10, modToS: 12, sevFromF: 30, sevToF: 50, sevFromS: 0, sevToS: 10 },
};

/** Defaults sent for a new patient: as the edit screen but pr slow moderate 60-60 and br slow moderate 12-12. */
export const NEW_PATIENT_DEFAULTS: Numbers = {
  spo2: { ...EDIT_DEFAULTS.spo2 },
  pr: { ...EDIT_DEFAULTS.pr, modFromS: 60, modToS: 60 },
  br: { ...EDIT_DEFAULTS.br, modFromS: 12, modToS: 12 },
};

const VITAL_MESSAGES = {
  empty: 'None of the below inputs should be empty',
  spo2Max: 'Spo2 Range cannot be more than 100',
  minMax: 'Min. Range should not be greater than Max. Range',
} as const;

export type VitalMessage = keyof typeof VITAL_MESSAGES;

function toForm(n: Numbers): VitalForm {
  const s = (o: Record<string, number>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, String(v)]));
  return { spo2: s(n.spo2) as VitalForm['spo2'], pr: s(n.pr) as VitalForm['pr'], br: s(n.br) as VitalForm['br'] };
}

/** The form from a stored vital_parameters JSON string; missing or broken values fall back to the edit defaults. */
export function vitalsFromJson(json: string | null | undefined): VitalForm {
  const form = toForm(EDIT_DEFAULTS);
  if (!json) return form;
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return form;
  }
  if (!parsed || typeof parsed !== 'object') return form;
  for (const group of ['spo2', 'pr', 'br'] as const) {
    const src = (parsed as Record<string, Record<string, unknown>>)[group];
    if (!src || typeof src !== 'object') continue;
    const target = form[group] as Record<string, string>;
    for (const key of Object.keys(target)) {
      const v = src[key];
      if (typeof v === 'number' || (typeof v === 'string' && v !== '')) target[key] = String(v);
    }
  }
  return form;
}

/** Default thresholds as a form (edit screen's reading unless `newPatient`). */
export const defaultVitals = (newPatient = false): VitalForm => toForm(newPatient ? NEW_PATIENT_DEFAULTS : EDIT_DEFAULTS);

/** The first message that applies, in the spec's order: empty, SpO2 over 100, from over to; null when valid. */
export function vitalError(form: VitalForm): VitalMessage | null {
  let spo2 = false;
  let minMax = false;
  for (const group of ['spo2', 'pr', 'br'] as const) {
    const values = form[group] as Record<string, string>;
    for (const [from, to] of VITAL_PAIRS[group]) {
      const a = values[from]?.trim().replace(/\.$/, '') ?? '';
      const b = values[to]?.trim().replace(/\.$/, '') ?? '';
      if (a === '' || b === '') return 'empty';
      if (group === 'spo2' && (Number(a) > 100 || Number(b) > 100)) spo2 = true;
      if (Number(a) > Number(b)) minMax = true;
    }
  }
  if (spo2) return 'spo2Max';
  if (minMax) return 'minMax';
  return null;
}

/** The vital_parameters JSON string the server stores (numbers, trailing points dropped). */
export function vitalsToJson(form: VitalForm): string {
  const n = (o: Record<string, string>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, Number(v.trim().replace(/\.$/, ''))]));
  return JSON.stringify({ spo2: n(form.spo2), pr: n(form.pr), br: n(form.br) });
}
