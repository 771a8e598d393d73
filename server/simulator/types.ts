/** The simulator's public types: its options, patient profiles and the ground truth it returns. */
import type { Night } from '../recordings/model';
import type { StageCode } from './constants';

/** The physiology of one simulated patient. Rates are per hour of sleep unless said otherwise. */
export interface SimProfile {
  name: string;
  /** Apnea–hypopnea index target, events per hour of sleep. */
  ahi: number;
  /** Share of hypopneas among all respiratory events, 0–1. */
  hypopneaShare: number;
  /** Share of central apneas among apneas, 0–1. */
  centralShare: number;
  /** Scales desaturation depth (1 typical; > 1 deeper). */
  desatSeverity: number;
  /** Awake SpO2 baseline, %. */
  spo2Baseline: number;
  /** Resting heart rate in light sleep, bpm. */
  heartRate: number;
  /** Breathing rate in light sleep, breaths/min. */
  breathingRate: number;
  /** RMSSD in light sleep, ms. */
  hrv: number;
  /** Sleep onset latency range, min. */
  sleepLatencyMin: readonly [number, number];
  /** Brief awakenings (1–5 epochs), per hour of sleep. */
  awakeningsPerHour: number;
  /** Out-of-bed periods, mean count per night. */
  outOfBedPerNight: number;
  /** Spontaneous movement bursts, per hour in bed. */
  movementsPerHour: number;
  /** Random radar dropouts (vital channels -1), per hour in bed. */
  dropoutsPerHour: number;
  /** Spot measurements. */
  systolic: number;
  diastolic: number;
  /** Evening glucose, mg/dL. */
  glucose: number;
  /** Evening body temperature, °C. */
  bodyTemp: number;
  weightKg: number;
}

/** Built-in profile names. */
export type ProfileName = 'healthy' | 'mild_osa' | 'moderate_osa' | 'severe_osa' | 'central';

/** A profile by name, or fields over a base profile (default 'healthy'). */
export type ProfileInput = ProfileName | (Partial<SimProfile> & { base?: ProfileName });

/** Options of simulateNight. */
export interface SimulateOptions {
  /** Same seed, same night, byte for byte. */
  seed: number | string;
  /** Recording start (bed time), ms UTC. */
  startMs: number;
  /** Recording length, ms (default 8 h; rounded down to whole seconds, at least 10 min). */
  durationMs?: number;
  /** IANA time zone (default 'Europe/Vienna'). */
  timezone?: string;
  /** Add the PSG reference channels NC_PSG, THRX_PSG, ABD_PSG and SPO2_PSG. */
  psg?: boolean;
  profile?: ProfileInput;
}

interface TruthBase {
  /** Unique within the night, in onset order. */
  id: number;
  onsetMs: number;
  durationMs: number;
}

/** Apneas and hypopneas; the breathing amplitude during the event is `amplitude` × normal. */
export interface RespiratoryTruth extends TruthBase {
  kind: 'obstructive_apnea' | 'central_apnea' | 'hypopnea';
  /** Radar (Y_DIST) breathing amplitude during the event, fraction of normal breathing. */
  amplitude: number;
  /** Nasal flow (NC_PSG) amplitude during the event, fraction of normal breathing. */
  flowAmplitude: number;
  /** Sleep stage at onset. */
  stage: StageCode;
  /** id of the desaturation this event caused. */
  desaturationId: number;
  /**
   * What was written (issue 12), per breathing signal: the run of whole clearly reduced
   * breaths (≤ 70 % of normal) and the size of its smallest breath; null when no breath
   * was clearly reduced. onsetMs/durationMs/amplitude above stay the drawn parameters.
   */
  written: { radar: WrittenBreathsMs | null; flow: WrittenBreathsMs | null };
}

export interface WrittenBreathsMs {
  onsetMs: number;
  durationMs: number;
  /** Smallest breath of the run, fraction of normal breathing. */
  residual: number;
}

/** An SpO2 drop: onset = start of the fall, end = back at baseline. */
export interface DesaturationTruth extends TruthBase {
  kind: 'desaturation';
  /** Time of the lowest value, ms UTC. */
  nadirMs: number;
  /** SpO2 before the drop and at the nadir, %. */
  baseline: number;
  nadir: number;
  /** baseline − nadir, %. */
  drop: number;
  /** id of the respiratory event that caused it. */
  causeId: number;
  /**
   * The same fall as written in the SPO2 channel the detectors read (after the oximeter's
   * noise and 1-% steps): level before the fall, lowest sample, drop; null when the
   * channel was mostly missing there. baseline/nadir/drop above are the drawn values.
   */
  written: { baseline: number; nadir: number; drop: number } | null;
}

/** Body movement; SQB is 0 and radar vitals are -1 for its duration. */
interface MovementTruth extends TruthBase {
  kind: 'movement';
  /** Peak MOV value, a.u. */
  intensity: number;
  /** True when it is the arousal that ends an apnea or hypopnea. */
  arousal: boolean;
}

/** Nobody in bed: TB out, vitals -2, SQB 0. */
interface OutOfBedTruth extends TruthBase {
  kind: 'out_of_bed';
}

/** A run of one sleep stage (device code). */
interface StageTruth extends TruthBase {
  kind: 'sleep_stage';
  stage: StageCode;
}

/** One NREM–REM cycle, from its first sleep epoch to the end of its REM period. */
export interface CycleTruth extends TruthBase {
  kind: 'sleep_cycle';
  /** 1-based cycle number. */
  cycle: number;
}

/** A run of missing codes written into some vital channels (not counting movement and out of bed). */
interface DropoutTruth extends TruthBase {
  kind: 'dropout';
  channels: string[];
  code: -1 | -2;
}

/** One ground-truth item of a simulated night. */
export type TruthEvent =
  | RespiratoryTruth
  | DesaturationTruth
  | MovementTruth
  | OutOfBedTruth
  | StageTruth
  | CycleTruth
  | DropoutTruth;

/** A simulated night: a Night plus the ground truth it was drawn from. */
export interface SimulatedNight extends Night {
  truth: TruthEvent[];
}
