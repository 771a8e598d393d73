/**
 * The device's 1 Hz vital channels: what its estimators report from the true
 * physiology (smoothed, noisy, rounded), with the missing codes where it cannot
 * estimate: -2 when nobody is in bed, -1 during movement and dropouts. SQB is 0
 * wherever the radar signal is not usable.
 */
import type { ChannelData } from '../recordings/model';
import { CODE, INT16_SCALE, MISSING, MOVEMENT, RATE_HZ, SQB_CODE } from './constants';
import { float32Channel, int16Channel } from './channel';
import type { Physiology } from './physiology';
import type { Rng } from './prng';
import type { DropoutGroup, Scenario } from './scenario';
import { ar1Noise, smooth } from './series';


const GROUP_CHANNELS: Record<DropoutGroup, string[]> = {
  radar: [CODE.BR, CODE.BRV, CODE.HR, CODE.HRV],
  heart: [CODE.HR, CODE.HRV],
  oximeter: [CODE.SPO2, CODE.PR],
};
const RADAR_VITALS = GROUP_CHANNELS.radar;
const ALL_VITALS = [CODE.BR, CODE.BRV, CODE.HR, CODE.HRV, CODE.MOV, CODE.SPO2, CODE.PR];

/** The channels a dropout group blanks (for the truth list). */
export function dropoutChannels(group: DropoutGroup): string[] {
  return GROUP_CHANNELS[group];
}

function rounded(x: Float32Array, step: number): Float32Array {
  for (let i = 0; i < x.length; i++) x[i] = Math.round(x[i]! / step) * step;
  return x;
}

function blank(series: Map<string, Float32Array>, codes: string[], from: number, to: number, code: number): void {
  for (const c of codes) series.get(c)!.fill(code, Math.max(0, from), to);
}

/** Builds BR, BRV, HR, HRV, MOV, SPO2, PR (float32) and SQB (int16 codes). */
export function deviceVitals(scenario: Scenario, phys: Physiology, spo2True: Float32Array, rng: Rng, t0: number): ChannelData[] {
  const n = scenario.seconds;
  const br = smooth(phys.br.slice(), 10);
  const hrNoise = ar1Noise(n, rng, 3, 0.8);
  const hr = new Float32Array(n);
  const pr = new Float32Array(n);
  const spo2 = new Float32Array(n);
  const spo2Noise = ar1Noise(n, rng, 3, 0.25);
  for (let s = 0; s < n; s++) {
    br[s] = br[s]! + 0.15 * rng.gauss();
    hr[s] = phys.hr[s]! + hrNoise[s]!;
    pr[s] = Math.round(phys.hr[s]! + 0.6 * rng.gauss());
    spo2[s] = Math.min(100, Math.round(spo2True[s]! + spo2Noise[s]!));
  }
  const series = new Map<string, Float32Array>([
    [CODE.BR, rounded(br, 0.1)],
    [CODE.BRV, rounded(phys.brv.slice(), 0.1)],
    [CODE.HR, rounded(hr, 0.1)],
    [CODE.HRV, rounded(phys.hrv.slice(), 0.1)],
    [CODE.MOV, rounded(phys.mov.slice(), 0.01)],
    [CODE.SPO2, spo2],
    [CODE.PR, pr],
  ]);
  const sqb = new Int16Array(n).fill(SQB_CODE.good);

  for (const m of scenario.movements) {
    const to = Math.min(n, m.start + m.duration + MOVEMENT.settleS);
    blank(series, RADAR_VITALS, m.start, to, MISSING.noEstimate);
    sqb.fill(SQB_CODE.bad, m.start, to);
  }
  for (const d of scenario.dropouts) {
    const to = Math.min(n, d.start + d.duration);
    blank(series, GROUP_CHANNELS[d.group], d.start, to, MISSING.noEstimate);
    if (d.group === 'radar') sqb.fill(SQB_CODE.bad, d.start, to);
  }
  for (let s = 0; s < n; s++) {
    if (scenario.present[s]) continue;
    for (const c of ALL_VITALS) series.get(c)![s] = MISSING.noSubject;
    sqb[s] = SQB_CODE.bad;
  }
  return [
    ...[...series].map(([code, samples]) => float32Channel(code, RATE_HZ.vital, t0, samples)),
    int16Channel(CODE.SQB, RATE_HZ.vital, t0, sqb, INT16_SCALE.code),
  ];
}
