import type { Series } from './series';

const EPOCH_S = 30;

/** A stretch of one state, ms UTC. */
export interface Band {
  from: number;
  to: number;
}

export interface SleepMetrics {
  /** Total sleep time, s. */
  tstS: number;
  /** Total bed time, h: the recording window's length / 3600 (spec 2 §9), less the spans excluded from analysis. */
  tbtH: number;
  /** Sleep onset latency, s (bed-in to the first sleep epoch); null without sleep. */
  solS: number | null;
  /** Wake after sleep onset, s (awake or out of bed between sleep onset and the final awakening). */
  wasoS: number;
  /** TST / TBT, %. */
  sleepEfficiency: number;
  bedInMs: number;
  bedOutMs: number;
  sleepOnsetMs: number | null;
  finalWakeMs: number | null;
  /**
   * Stage latencies, s, from sleep onset to the first epoch of deep (code 1), light (2) and REM
   * (4) sleep; null without staging or without that stage.
   */
  stageLatencyS: { deep: number | null; light: number | null; rem: number | null };
  /** Actigraph bands (spec 2 §3). */
  sleepBands: Band[];
  awakeBands: Band[];
  undefinedBands: Band[];
}

type State = 'sleep' | 'awake' | 'undefined';

/** Device sleep-stage codes (spec 2 §9): 1 deep, 2 light, 4 REM are sleep; 5 is awake. */
function stageState(v: number): State {
  if (v === 1 || v === 2 || v === 4) return 'sleep';
  if (v === 5) return 'awake';
  return 'undefined';
}

/** True when the staging scores the time `t` (ms UTC) as wake (stage code 5). */
export function isScoredWake(stages: Series, t: number): boolean {
  return stageState(epochValue(stages, t)) === 'awake';
}

/** SA: 1 asleep, 0 awake. */
const saState = (v: number): State => (v === 1 ? 'sleep' : v === 0 ? 'awake' : 'undefined');

function epochValue(s: Series | undefined, t: number): number {
  if (!s) return Number.NaN;
  const i = Math.floor(((t - s.t0) * s.rate) / 1000);
  return i >= 0 && i < s.values.length ? s.values[i] : Number.NaN;
}

/** Whether `t` lies in one of `spans` (ms UTC). */
export const inSpan = (spans: readonly Band[], t: number) => spans.some((s) => t >= s.from && t < s.to);

/**
 * Sleep and wake metrics of a night from SLP_STGS (preferred) or SA, with TB (in bed) for
 * bed-in and bed-out, per 30-s epoch over [startMs, stopMs). Epochs whose middle lies in an
 * `excluded` span (a physician's invalid span) are not scored and their time is not bed time;
 * `fixedBedTimes` (a physician's corrected bed times) makes startMs and stopMs the bed times.
 */
export function sleepMetrics(input: { startMs: number; stopMs: number; stages?: Series; sa?: Series; tb?: Series; excluded?: readonly Band[]; fixedBedTimes?: boolean }): SleepMetrics {
  const { startMs, stopMs, stages, sa, tb } = input;
  const excluded = input.excluded ?? [];
  const epochMs = EPOCH_S * 1000;
  const epochs: Array<{ t: number; state: State; inBed: boolean; stage: number }> = [];
  for (let t = startMs; t + epochMs <= stopMs + 1; t += epochMs) {
    if (inSpan(excluded, t + epochMs / 2)) continue;
    const stage = stages ? epochValue(stages, t) : Number.NaN;
    const st = stageState(stage);
    const state = st !== 'undefined' ? st : sa ? saState(epochValue(sa, t)) : 'undefined';
    const bed = epochValue(tb, t);
    epochs.push({ t, state: bed === 0 ? 'awake' : state, inBed: tb ? bed === 1 : true, stage });
  }
  const inBed = epochs.filter((e) => e.inBed);
  // Without an in-bed signal the recording's own start and stop are the bed times, to the
  // second (not the end of its last whole 30-s epoch: a stop at 06:54:02 read 06:53).
  const recordingBed = input.fixedBedTimes || !tb;
  const bedInMs = recordingBed ? startMs : inBed.length ? inBed[0].t : startMs;
  const bedOutMs = recordingBed ? stopMs : inBed.length ? inBed[inBed.length - 1].t + epochMs : stopMs;
  const sleeping = epochs.filter((e) => e.state === 'sleep');
  const onset = sleeping.length ? sleeping[0].t : null;
  const finalWake = sleeping.length ? sleeping[sleeping.length - 1].t + epochMs : null;
  const tstS = sleeping.length * EPOCH_S;
  const wasoS = onset === null ? 0 : epochs.filter((e) => e.t >= onset && e.t < finalWake! && e.state === 'awake').length * EPOCH_S;
  let excludedMs = 0;
  for (const s of excluded) excludedMs += Math.max(0, Math.min(stopMs, s.to) - Math.max(startMs, s.from));
  const tbtH = Math.max(0, stopMs - startMs - excludedMs) / 3_600_000;
  const bands = (state: State) => {
    const out: Band[] = [];
    for (const e of epochs) {
      if (e.state !== state) continue;
      const last = out[out.length - 1];
      if (last && last.to === e.t) last.to = e.t + epochMs;
      else out.push({ from: e.t, to: e.t + epochMs });
    }
    return out;
  };
  const latency = (code: number) => {
    const first = onset === null ? undefined : epochs.find((e) => e.stage === code && e.state === 'sleep');
    return first ? (first.t - onset!) / 1000 : null;
  };
  return {
    tstS,
    tbtH,
    stageLatencyS: { deep: latency(1), light: latency(2), rem: latency(4) },
    solS: onset === null ? null : (onset - bedInMs) / 1000,
    wasoS,
    sleepEfficiency: tbtH > 0 ? Math.round((tstS / 3600 / tbtH) * 10000) / 100 : 0,
    bedInMs,
    bedOutMs,
    sleepOnsetMs: onset,
    finalWakeMs: finalWake,
    sleepBands: bands('sleep'),
    awakeBands: bands('awake'),
    undefinedBands: bands('undefined'),
  };
}
