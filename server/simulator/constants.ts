/**
 * Every number the simulator's layout depends on, with its unit. Physiological
 * per-patient numbers live in profiles.ts; this file holds the device's contract
 * (rates, codes, scales) and the timing rules events obey.
 */

export const SECOND_MS = 1_000;
export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;

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
  // Drawn across the 10-s rule (issue 12 point 9): about a quarter are shorter than 10 s,
  // which are no AASM event and so no truth event; the detector must leave them alone.
  apneaDurationS: [7, 40],
  hypopneaDurationS: [7, 40],
  /** Durations are the minimum plus an exponential tail with this mean. */
  durationTailMeanS: 9,
  /** Nadir of the desaturation after the end of its event (some beyond a 45-s association window). */
  desatLagS: [15, 55],
  /** Nadir plateau. */
  desatHoldS: [3, 6],
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
  // Residual breathing drawn on both sides of the AASM levels: an "apnea" with more than
  // 10 % left is at most a hypopnea, a "hypopnea" with more than 70 % left is no event.
  apneaRadar: [0, 0.2],
  apneaFlow: [0, 0.2],
  hypopnea: [0.2, 0.85],
  /** Thorax and abdomen effort during obstructive apneas (continued, paradoxical). */
  obstructiveEffort: [0.7, 1.1],
  /** Effort during central apneas (absent). */
  centralEffort: [0.01, 0.04],
  /** Breaths right after an apnea. */
  recovery: 1.5,
} as const;

/** Desaturation depth, % SpO2. */
export const DESAT_DROP = {
  // Hypopneas' desaturations straddle the 3 % and 4 % rules.
  apnea: [2, 15],
  hypopnea: [1.5, 7],
} as const;

/** How likely a respiratory event lands in each stage (relative weights; awake never). */
export const EVENT_STAGE_WEIGHT: Record<StageCode, number> = { 1: 0.3, 2: 1, 4: 1.6, 5: 0 };

/**
 * How each stage shifts the vitals: breathing amplitude (× normal), breathing rate
 * offset (br/min) and its irregularity (br/min, 1 σ), heart rate offset (bpm), HRV
 * (× the profile's RMSSD), BRV (br/min) and the movement floor (MOV a.u.).
 */
export const STAGE_PHYSIOLOGY: Record<StageCode, {
  breathAmp: number; brOffset: number; brJitter: number; hrOffset: number; hrvFactor: number; brv: number; mov: number;
}> = {
  1: { breathAmp: 1.1, brOffset: -1, brJitter: 0.25, hrOffset: -4, hrvFactor: 1.3, brv: 0.6, mov: 0.03 },
  2: { breathAmp: 1, brOffset: 0, brJitter: 0.45, hrOffset: 0, hrvFactor: 1, brv: 1.2, mov: 0.06 },
  4: { breathAmp: 0.8, brOffset: 1.5, brJitter: 1.1, hrOffset: 3, hrvFactor: 0.7, brv: 2.8, mov: 0.04 },
  5: { breathAmp: 1, brOffset: 2.5, brJitter: 0.9, hrOffset: 8, hrvFactor: 0.75, brv: 3.5, mov: 0.5 },
};

/** Night architecture, min. */
export const SLEEP_ARCHITECTURE = {
  firstCycleMin: [75, 95],
  cycleMin: [85, 105],
  finalWakeMin: [3, 15],
  outOfBedMin: [3, 12],
  /** Out-of-bed periods start no earlier than this after sleep onset. */
  outOfBedEarliestMin: 60,
  maxOutOfBed: 2,
  /** Share of a cycle in deep sleep: first cycle, change per cycle, jitter (1 σ). */
  deepShare: { first: 0.42, perCycle: -0.12, sigma: 0.04 },
  /** Share of a cycle in REM: first cycle, change per cycle, jitter, bounds. */
  remShare: { first: 0.1, perCycle: 0.07, sigma: 0.03, min: 0.07, max: 0.4 },
  /** Share of the light sleep that comes before the deep part of a cycle. */
  lightBeforeDeep: 0.55,
  /** Chance that a deep epoch lightens for one epoch. */
  deepFlicker: 0.08,
  /** Chance of a brief awakening (1–3 epochs) between cycles. */
  wakeBetweenCycles: 0.5,
} as const;

/** Movement bursts; durations in s, intensities in MOV a.u. */
export const MOVEMENT = {
  /** Where spontaneous movements happen (relative weights per stage). */
  stageWeight: { 1: 0.3, 2: 1, 4: 0.4, 5: 4 } as Record<StageCode, number>,
  durationS: { min: 3, mean: 8, max: 60 },
  intensity: [2, 8],
  /** Getting out of and back into bed. */
  gettingUpS: [8, 20],
  gettingUpIntensity: [6, 10],
  /** Share of apneas ended by an arousal movement, its length and intensity. */
  arousalShare: 0.3,
  arousalS: [3, 7],
  arousalIntensity: [1.5, 4],
  /** Share of movements that leave the body in a new position (new radar carrier phase). */
  repositionShare: 0.6,
  /** Radar estimators need this long to settle after a movement, s. */
  settleS: 2,
  /** Y_DIST artefact: AR(1) pole per 20 Hz sample, and σ in mm per unit of intensity. */
  radarPole: 0.97,
  radarMmPerUnit: 3,
  /** Heart rate rise while moving, bpm. */
  heartRateBpm: 10,
} as const;

/** Random dropouts: lengths in s, rates relative to the profile's dropoutsPerHour, margin from other items in s. */
export const DROPOUT = {
  radarS: [5, 90],
  heartS: [10, 60],
  oximeterS: [10, 120],
  heartShare: 0.7,
  oximeterShare: 0.3,
  marginS: 10,
  /** Share of radar dropouts allowed over respiratory events (artefacts over events, issue 12 point 9). */
  overEventsShare: 0.3,
} as const;

/** Physiological clamps: BR br/min, HR bpm, HRV ms, SpO2 baseline %. */
export const VITAL_RANGE = {
  br: [9, 24],
  hr: [45, 95],
  hrv: [8, 150],
  spo2Baseline: [94, 98.5],
} as const;

/** Heart-rate swing of an apnea: slowing during it, surge after it (bpm; time constant and length in s). */
export const APNEA_HEART = { duringBpm: -3, surgeBpm: 9, surgeTauS: 8, surgeLengthS: 25 } as const;

/** SpO2 baseline drift (AR(1), s and %) and stage shifts (%). */
export const SPO2_BASELINE = { driftTauS: 900, driftSigma: 0.4, remShift: -0.3, deepShift: 0.15, shiftTauS: 120 } as const;

/** Breathing amplitude level: follows the stage with this time constant (s); breath-to-breath jitter (s, × normal). */
export const BREATH_LEVEL = { tauS: 30, jitterTauS: 8, jitterSigma: 0.05 } as const;

/** PSG sensors: peak of a normal breath, noise (1 σ) and movement artefact per unit of intensity, in each channel's unit. */
export const PSG = {
  peak: { flowLps: 0.35, thoraxMv: 0.5, abdomenMv: 0.6 },
  noise: { flow: 0.008, belt: 0.01, spo2: 0.2 },
  artefact: { flow: 0.02, belt: 0.06 },
} as const;

/** Nocturnal dip of body temperature at mid-night, °C. */
export const TEMP_DIP_C = 0.35;

/** Planning of nights: evening start window, local minutes after midnight, and durations, h. */
export const PLAN = {
  startWindowMin: [21 * 60 + 30, 23 * 60 + 30],
  durationH: [6, 10],
  longDurationH: [10, 10.75],
} as const;

/** Version stamped into Night.meta so stored nights name the generator that made them. */
export const SIMULATOR_VERSION = 4;
