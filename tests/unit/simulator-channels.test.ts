// Channel set, rates, storage, lengths, units and value ranges of simulated nights.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ChannelData } from '../../server/recordings/model';
import { simulateNight, type SimulatedNight } from '../../server/simulator/index';

const START = Date.UTC(2026, 2, 10, 21, 15);
const HOUR = 3_600_000;
const DURATION = 3 * HOUR + 17 * 60_000 + 12_345;

const RADAR = ['I', 'Q', 'Y_DIST'];
const VITALS = ['BR', 'BRV', 'HR', 'HRV', 'MOV', 'SPO2', 'PR'];
const EPOCHS = ['SLP_STGS', 'SA', 'TB'];
const SPARSE = ['bp', 'bp_diastolic', 'blood_sugar', 'body_temp', 'weight'];
const PSG = ['NC_PSG', 'THRX_PSG', 'ABD_PSG', 'SPO2_PSG'];

let plain: SimulatedNight;
let psg: SimulatedNight;
beforeAll(() => {
  plain = simulateNight({ seed: 'channels', startMs: START, durationMs: DURATION, profile: 'mild_osa' });
  psg = simulateNight({ seed: 'channels', startMs: START, durationMs: DURATION, psg: true, profile: 'mild_osa' });
});

const channel = (night: SimulatedNight, code: string): ChannelData => {
  const c = night.channels.find((x) => x.code === code);
  if (!c) throw new Error(`no channel ${code}`);
  return c;
};

/** Physical values that are not missing codes. */
function valid(c: ChannelData): number[] {
  const out: number[] = [];
  for (const d of c.samples) {
    const v = d * c.scale + c.offset;
    if (v !== -1 && v !== -2) out.push(v);
  }
  return out;
}

const maxAbs = (xs: number[]): number => xs.reduce((m, x) => Math.max(m, Math.abs(x)), 0);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

describe('simulated channels', () => {
  it('has the radar, vital, epoch, quality and sparse channels, and the PSG ones only when asked', () => {
    const base = [...RADAR, ...VITALS, 'SQB', ...EPOCHS, ...SPARSE];
    expect(plain.channels.map((c) => c.code).sort()).toEqual([...base].sort());
    expect(psg.channels.map((c) => c.code).sort()).toEqual([...base, ...PSG].sort());
    expect(plain.meta).toMatchObject({ source: 'simulator', seed: 'channels', profile: 'mild_osa', psg: false });
    expect(plain.events).toEqual([]);
  });

  it('uses the documented rates, storage, units and start', () => {
    const expected: Record<string, [number, 'int16' | 'float32', string]> = {
      I: [20, 'int16', 'a.u.'], Q: [20, 'int16', 'a.u.'], Y_DIST: [20, 'int16', 'mm'],
      BR: [1, 'float32', 'br/min'], BRV: [1, 'float32', 'br/min'], HR: [1, 'float32', 'bpm'], HRV: [1, 'float32', 'ms'],
      MOV: [1, 'float32', 'a.u.'], SPO2: [1, 'float32', '%'], PR: [1, 'float32', 'bpm'], SQB: [1, 'int16', ''],
      SLP_STGS: [1 / 30, 'int16', ''], SA: [1 / 30, 'int16', ''], TB: [1 / 30, 'int16', ''],
      NC_PSG: [25, 'int16', 'L/s'], THRX_PSG: [25, 'int16', 'mV'], ABD_PSG: [25, 'int16', 'mV'], SPO2_PSG: [1, 'float32', '%'],
      bp: [1 / 1800, 'float32', 'mmHg'], bp_diastolic: [1 / 1800, 'float32', 'mmHg'], blood_sugar: [1 / 1800, 'float32', 'mg/dL'],
      body_temp: [1 / 1800, 'float32', '°C'], weight: [1 / 1800, 'float32', 'kg'],
    };
    for (const c of psg.channels) {
      const [rate, storage, unit] = expected[c.code]!;
      expect([c.code, c.sampleRate, c.storage, c.unit, c.label, c.t0]).toEqual([c.code, rate, storage, unit, c.code, START]);
      expect(c.samples).toBeInstanceOf(storage === 'int16' ? Int16Array : Float32Array);
      if (storage === 'float32') expect([c.scale, c.offset]).toEqual([1, 0]);
      else expect(c.scale).toBeGreaterThan(0);
    }
  });

  it('covers the whole recording in every channel', () => {
    const seconds = Math.floor(DURATION / 1000);
    expect(psg.startMs).toBe(START);
    expect(psg.stopMs).toBe(START + seconds * 1000);
    for (const c of psg.channels) {
      expect(c.samples.length, c.code).toBe(Math.ceil(seconds * c.sampleRate - 1e-9));
      const lastSampleMs = c.t0 + ((c.samples.length - 1) * 1000) / c.sampleRate;
      expect(lastSampleMs).toBeLessThan(psg.stopMs);
      expect(lastSampleMs + 1000 / c.sampleRate).toBeGreaterThanOrEqual(psg.stopMs);
    }
  });

  it('keeps vitals in physiological ranges', () => {
    const ranges: Record<string, [number, number]> = {
      BR: [9, 24], BRV: [0, 15], HR: [45, 95], HRV: [8, 150], MOV: [0, 12], SPO2: [70, 100], PR: [40, 100], SPO2_PSG: [70, 100],
    };
    for (const [code, [lo, hi]] of Object.entries(ranges)) {
      const values = valid(channel(psg, code));
      expect(values.length, code).toBeGreaterThan(1000);
      expect(values.reduce((m, v) => Math.min(m, v)), code).toBeGreaterThanOrEqual(lo);
      expect(values.reduce((m, v) => Math.max(m, v)), code).toBeLessThanOrEqual(hi);
    }
    expect(median(valid(channel(psg, 'BR')))).toBeGreaterThanOrEqual(12);
    expect(median(valid(channel(psg, 'BR')))).toBeLessThanOrEqual(20);
    expect(median(valid(channel(psg, 'HR')))).toBeGreaterThanOrEqual(50);
    expect(median(valid(channel(psg, 'HR')))).toBeLessThanOrEqual(75);
    expect(median(valid(channel(psg, 'SPO2')))).toBeGreaterThanOrEqual(94);
    expect(median(valid(channel(psg, 'SPO2')))).toBeLessThanOrEqual(98);
    const pr = valid(channel(psg, 'PR'));
    const hr = valid(channel(psg, 'HR'));
    expect(Math.abs(median(pr) - median(hr))).toBeLessThan(2);
  });

  it('keeps coded channels to their codes and raw channels in range', () => {
    const codes = (code: string): number[] => [...new Set(valid(channel(psg, code)))].sort();
    expect(codes('SLP_STGS')).toEqual([1, 2, 4, 5]);
    expect(codes('SA')).toEqual([0, 1]);
    expect(new Set([...codes('TB'), 0, 1]).size).toBe(2);
    expect(codes('SQB')).toEqual([0, 1]);
    const y = valid(channel(psg, 'Y_DIST'));
    expect(maxAbs(y)).toBeLessThan(150);
    for (const code of ['I', 'Q']) expect(maxAbs(valid(channel(psg, code))), code).toBeLessThan(2);
    for (const code of ['NC_PSG', 'THRX_PSG', 'ABD_PSG']) expect(maxAbs(valid(channel(psg, code))), code).toBeLessThan(3.2);
  });

  it('never forges a missing code in the raw int16 channels', () => {
    for (const code of [...RADAR, 'NC_PSG', 'THRX_PSG', 'ABD_PSG']) {
      const c = channel(psg, code);
      expect(c.samples.length - valid(c).length, code).toBe(0);
    }
  });

  it('breathes at 0.15–0.35 Hz in Y_DIST during calm sleep', () => {
    const y = channel(psg, 'Y_DIST');
    const stages = channel(psg, 'SLP_STGS');
    const busy = psg.truth.filter((t) => t.kind !== 'sleep_stage' && t.kind !== 'sleep_cycle' && t.kind !== 'desaturation');
    let checked = 0;
    for (let e = 20; e < stages.samples.length - 10 && checked < 5; e += 10) {
      if (stages.samples[e] !== 2) continue;
      const fromMs = START + e * 30_000;
      const toMs = fromMs + 120_000;
      if (busy.some((t) => t.onsetMs < toMs + 10_000 && t.onsetMs + t.durationMs > fromMs - 10_000)) continue;
      const from = (fromMs - START) / 50;
      let crossings = 0;
      let mean = 0;
      for (let i = from; i < from + 2400; i++) mean += y.samples[i]! / 2400;
      for (let i = from + 1; i < from + 2400; i++) {
        if ((y.samples[i - 1]! - mean < 0) !== (y.samples[i]! - mean < 0)) crossings++;
      }
      const hz = crossings / 2 / 120;
      expect(hz).toBeGreaterThan(0.15);
      expect(hz).toBeLessThan(0.35);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(3);
  });

  it('stores a few spot measurements in the sparse channels, the missing code elsewhere', () => {
    for (const code of SPARSE) {
      const c = channel(psg, code);
      const values = valid(c);
      expect(values.length, code).toBeGreaterThanOrEqual(1);
      expect(values.length, code).toBeLessThanOrEqual(3);
      expect([...c.samples].filter((v) => v === -1).length).toBe(c.samples.length - values.length);
    }
    const sys = valid(channel(psg, 'bp'));
    const dia = valid(channel(psg, 'bp_diastolic'));
    expect(sys.length).toBe(dia.length);
    sys.forEach((s, i) => expect(s).toBeGreaterThan(dia[i]! + 20));
    for (const v of valid(channel(psg, 'body_temp'))) expect(v).toBeGreaterThan(35.5), expect(v).toBeLessThan(37.8);
    for (const v of valid(channel(psg, 'blood_sugar'))) expect(v).toBeGreaterThan(60), expect(v).toBeLessThan(180);
    for (const v of valid(channel(psg, 'weight'))) expect(v).toBeGreaterThan(40), expect(v).toBeLessThan(160);
  });
});
