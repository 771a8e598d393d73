/**
 * Every number the simulator's layout depends on, with its unit. Physiological
 * per-patient numbers live in profiles.ts; this file holds the device's contract
 * (rates, codes, scales) and the timing rules events obey.
 */

export const SECOND_MS = 1_000;
export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** One scoring epoch, s. */
export const EPOCH_S = 30;

/** Sample rates, Hz. */
export const RATE_HZ = {
  radar: 20,
  psg: 25,
  vital: 1,
  epoch: 1 / EPOCH_S,
  /** Sparse spot measurements (bp, blood_sugar, body_temp, weight): one slot per 30 min. */
  sparse: 1 / 1_800,
} as const;

/** Device sleep-stage codes stored in SLP_STGS (spec 2 §9; the chart maps 1→0, 2→1, 4→2, 5→3). */
export const STAGE = { deep: 1, light: 2, rem: 4, awake: 5 } as const;
export type StageCode = (typeof STAGE)[keyof typeof STAGE];

/** SA codes per epoch. */
export const SA_CODE = { awake: 0, asleep: 1 } as const;
/** TB codes per epoch. */
export const TB_CODE = { outOfBed: 0, inBed: 1 } as const;
/** SQB codes per second. */
export const SQB_CODE = { bad: 0, good: 1 } as const;

/**
 * The device's missing codes as this simulator uses them: -1 "no valid estimate"
 * (movement, poor signal, probe off), -2 "no subject" (out of bed).
 */
export const MISSING = { noEstimate: -1, noSubject: -2 } as const;

/** Channel codes. `bp` carries the systolic pressure, `bp_diastolic` the diastolic one at the same instants. */
export const CODE = {
  I: 'I', Q: 'Q', Y_DIST: 'Y_DIST',
  BR: 'BR', BRV: 'BRV', HR: 'HR', HRV: 'HRV', MOV: 'MOV', SPO2: 'SPO2', PR: 'PR', SQB: 'SQB',
  SLP_STGS: 'SLP_STGS', SA: 'SA', TB: 'TB',
  NC_PSG: 'NC_PSG', THRX_PSG: 'THRX_PSG', ABD_PSG: 'ABD_PSG', SPO2_PSG: 'SPO2_PSG',
  BP: 'bp', BP_DIASTOLIC: 'bp_diastolic', BLOOD_SUGAR: 'blood_sugar', BODY_TEMP: 'body_temp', WEIGHT: 'weight',
} as const;

/** Physical units per channel code. */
export const UNIT: Record<string, string> = {
  I: 'a.u.', Q: 'a.u.', Y_DIST: 'mm',
  BR: 'br/min', BRV: 'br/min', HR: 'bpm', HRV: 'ms', MOV: 'a.u.', SPO2: '%', PR: 'bpm', SQB: '',
  SLP_STGS: '', SA: '', TB: '',
  NC_PSG: 'L/s', THRX_PSG: 'mV', ABD_PSG: 'mV', SPO2_PSG: '%',
  bp: 'mmHg', bp_diastolic: 'mmHg', blood_sugar: 'mg/dL', body_temp: '°C', weight: 'kg',
};

/** int16 scales (physical per digital step) of the dense channels. */
export const INT16_SCALE = {
  /** Y_DIST, mm per step: ±327 mm range. */
  yDist: 0.01,
  /** I and Q, a.u. per step: ±3.27 range. */
  iq: 1e-4,
  /** NC_PSG, L/s per step. */
  flow: 1e-4,
  /** THRX_PSG and ABD_PSG, mV per step. */
  effort: 1e-4,
  /** Coded channels (stages, SA, TB, SQB). */
  code: 1,
} as const;

/** Radar front end. */
export const RADAR = {
  /** Carrier wavelength, mm (24 GHz). */
  wavelengthMm: 12.5,
  /** Echo amplitude with a person in bed, a.u. */
  echoInBed: 0.8,
  /** Echo amplitude of an empty bed (clutter only), a.u. */
  echoEmpty: 0.05,
  /** Receiver noise, a.u. (1 σ per sample). */
  iqNoise: 0.01,
  /** Y_DIST sensor noise, mm (1 σ per sample). */
  yNoiseMm: 0.04,
  /** Heartbeat micro-motion of the chest wall, mm (peak). */
  heartbeatMm: 0.15,
  /** Chest excursion of a normal breath, mm (half peak-to-peak). */
  breathMm: 3.5,
} as const;

/** Timing rules for respiratory events and the desaturations that follow them, s. */
export const EVENT_TIMING = {
  apneaDurationS: [12, 40],
  hypopneaDurationS: [14, 40],
  /** Nadir of the desaturation after the end of its event. */
  desatLagS: [20, 40],
  /** Nadir plateau. */
  desatHoldS: [2, 4],
  /** Return to baseline after the nadir. */
  desatRecoveryS: [10, 18],
  /** Normal breathing kept between two respiratory events. */
  minBreathingGapS: 20,
  /** Margin kept between two desaturations. */
  desatMarginS: 6,
  /** Big recovery breaths after an apnea. */
  recoveryBreathsS: 8,
} as const;

/** Amplitude of the breathing signal during events, fraction of normal breathing. */
export const EVENT_AMPLITUDE = {
  apneaRadar: [0.02, 0.06],
  apneaFlow: [0.01, 0.04],
  hypopnea: [0.35, 0.6],
  /** Thorax and abdomen effort during obstructive apneas (continued, paradoxical). */
  obstructiveEffort: [0.7, 1.1],
  /** Effort during central apneas (absent). */
  centralEffort: [0.01, 0.04],
  /** Breaths right after an apnea. */
  recovery: 1.5,
} as const;

/** Desaturation depth, % SpO2. */
export const DESAT_DROP = {
  apnea: [4, 15],
  hypopnea: [3.5, 6],
} as const;

/** How likely a respiratory event lands in each stage (relative weights; awake never). */
export const EVENT_STAGE_WEIGHT: Record<StageCode, number> = { 1: 0.3, 2: 1, 4: 1.6, 5: 0 };

/** Planning of nights: evening start window, local minutes after midnight, and durations, h. */
export const PLAN = {
  startWindowMin: [21 * 60 + 30, 23 * 60 + 30],
  durationH: [6, 10],
  longDurationH: [10, 10.75],
} as const;

/** Version stamped into Night.meta so stored nights name the generator that made them. */
export const SIMULATOR_VERSION = 1;
