import { describe, expect, it } from 'vitest';
import { readEdf } from '../../server/recordings/edf/reader';
import { edfToRecording } from '../../server/recordings/edf/channels';
import { writeEdfPlus } from '../../server/recordings/edf/writer';
import { quantiseChannel } from '../../server/recordings/edf/quantise';
import { assembleNight, nightFromFiles } from '../../server/recordings/assemble';
import type { ChannelData, Night } from '../../server/recordings/model';
import { MISSING_CODES } from '../../server/recordings/model';
import { BRP, EVE, HMC, SA2, real, viaTempFile } from './edf-build';
import { expectSameSamples } from './edf-faithful';

/** Writes the night, reads it back from a temp file, returns the night read. */
function roundTrip(night: Night): { back: Night; bytes: Uint8Array } {
  const bytes = viaTempFile('night.edf', writeEdfPlus(night));
  const rec = edfToRecording(readEdf(bytes, 'night.edf', { timezone: night.timezone }));
  return { back: assembleNight([rec], { timezone: night.timezone }), bytes };
}

function syntheticNight(): Night {
  const startMs = Date.UTC(2026, 2, 10, 21, 15, 30, 123);
  const hours = 2;
  const spo2 = new Float32Array(hours * 3600);
  for (let i = 0; i < spo2.length; i++) spo2[i] = 94 + 4 * Math.sin(i / 300) + (i % 7) / 10;
  spo2.fill(-1, 100, 160);
  spo2.fill(-2, 3000, 3010);
  spo2[5000] = Number.NaN;
  const yDist = new Float32Array(hours * 3600 * 20);
  for (let i = 0; i < yDist.length; i++) yDist[i] = 4.2 * Math.sin((2 * Math.PI * i) / 80) - 0.37;
  yDist.fill(-1, 20_000, 20_400);
  const stages = new Int16Array((hours * 3600) / 30);
  for (let i = 0; i < stages.length; i++) stages[i] = i % 4;
  const flow = new Int16Array(hours * 3600 * 25);
  for (let i = 0; i < flow.length; i++) flow[i] = Math.round(400 * Math.sin(i / 40));
  const ch = (code: string, unit: string, sampleRate: number, t0: number, samples: Float32Array | Int16Array, scale = 1, device = false): ChannelData => ({
    code,
    label: code,
    unit,
    sampleRate,
    t0,
    storage: samples instanceof Float32Array ? 'float32' : 'int16',
    scale,
    offset: 0,
    samples,
    missingCodes: device ? MISSING_CODES : [],
  });
  return {
    startMs,
    stopMs: startMs + hours * 3_600_000,
    timezone: 'Europe/Vienna',
    channels: [
      ch('SPO2', '%', 1, startMs, spo2, 1, true),
      ch('Y_DIST', 'mm', 20, startMs + 2000, yDist, 1, true),
      ch('SLP_STGS', '', 1 / 30, startMs, stages),
      ch('NC_PSG', 'L/s', 25, startMs + 40, flow, 0.002),
    ],
    events: [
      { onsetMs: startMs, durationMs: 0, text: 'Recording starts' },
      { onsetMs: startMs + 1_234_567, durationMs: 10_500, text: 'Central Apnea' },
      { onsetMs: startMs + 3_600_001, durationMs: 30_000, text: 'Entsättigung, 88 %' },
      { onsetMs: startMs + 7_199_000, durationMs: 0, text: 'Lights on' },
    ],
    meta: { patientCode: 'PAT 0042', deviceId: 'RDR-7' },
  };
}

describe('EDF+ writer round trip', () => {
  it('synthetic night: float32 and int16 channels, mixed rates, later t0s, sub-second start, local clock', () => {
    const night = syntheticNight();
    const { back, bytes } = roundTrip(night);
    const header = new TextDecoder('latin1').decode(bytes.subarray(0, 256));
    expect(header.slice(0, 8)).toBe('0       ');
    expect(header.slice(8, 88).trim()).toBe('PAT_0042 X X X');
    expect(header.slice(88, 168).trim()).toBe('Startdate 10-MAR-2026 X X RDR-7');
    expect(header.slice(168, 184)).toBe('10.03.2622.15.30'); // 21:15:30 UTC is 22:15:30 in Vienna
    expect(header.slice(192, 197)).toBe('EDF+C');
    expect(header.slice(244, 252).trim()).toBe('30'); // 1/30 Hz needs 30-s records

    const edf = readEdf(bytes, 'night.edf', { timezone: 'Europe/Vienna' });
    expect(edf.variant).toBe('EDF+C');
    expect(back.startMs).toBe(night.startMs);
    expect(back.channels.map((c) => c.code)).toEqual(['SPO2', 'Y_DIST', 'SLP_STGS', 'NC_PSG']);
    // float32 channels are quantised (one step at most); SLP_STGS keeps its digital values exactly.
    night.channels.forEach((c, i) => expectSameSamples(back.channels[i], c, c.storage === 'int16' && c.scale === 1 ? 0 : back.channels[i].scale));
    expect(back.channels[1].t0).toBe(night.startMs + 2000);
    // The device's codes come back as the device's codes, and no sample is written as physical -1.
    expect(back.channels[0].missingCodes).toEqual(MISSING_CODES);
    expect(back.channels[2].missingCodes).toEqual([]);
    expect(Array.from(back.channels[0].samples.subarray(100, 160)).every(Number.isNaN)).toBe(true);

    expect(back.events.map((e) => e.text)).toEqual(night.events.map((e) => e.text));
    back.events.forEach((e, i) => {
      expect(Math.abs(e.onsetMs - night.events[i].onsetMs)).toBeLessThan(0.01);
      expect(e.durationMs).toBeCloseTo(night.events[i].durationMs, 6);
    });
  });

  it('ResMed BRP + EVE + SA2: the same digital samples, same device events, SA2 all missing', () => {
    const night = nightFromFiles([BRP, EVE, SA2].map((name) => ({ name, bytes: real(name) })));
    const { back } = roundTrip(night);
    expect(back.channels.map((c) => c.code)).toEqual(night.channels.map((c) => c.code));
    const flow = night.channels.find((c) => c.code === 'NC_PSG')!;
    const flowBack = back.channels.find((c) => c.code === 'NC_PSG')!;
    // The flow keeps ResMed's own header and digital values: bit for bit.
    expect([flowBack.label, flowBack.unit, flowBack.scale, flowBack.offset, flowBack.storage]).toEqual(['Flow.40ms', 'L/s', flow.scale, flow.offset, 'int16']);
    expect(flowBack.edfRange).toEqual({ physicalMin: '-2.00', physicalMax: '3.00', digitalMin: '-1000', digitalMax: '1500' });
    expect(flowBack.t0).toBe(flow.t0);
    expect(Buffer.from(flowBack.samples.buffer, flowBack.samples.byteOffset, flowBack.samples.byteLength).equals(Buffer.from(flow.samples.buffer, flow.samples.byteOffset, flow.samples.byteLength))).toBe(true);
    night.channels.forEach((c) => expectSameSamples(back.channels.find((b) => b.code === c.code)!, c));
    // The SA2 oximeter was not attached: every value is ResMed's -1, impossible for SpO2 and pulse.
    const pr = night.channels.find((c) => c.code === 'PR')!;
    expect(pr.rejected?.outOfRange).toBe(pr.samples.length);
    expect(back.channels.find((c) => c.code === 'PR')!.samples.length).toBe(0);
    expect(back.events.map((e) => e.text)).toEqual(night.events.map((e) => e.text));
    back.events.forEach((e, i) => expect(Math.abs(e.onsetMs - night.events[i].onsetMs)).toBeLessThan(0.01));
  });

  it('annotation-only night (HMC hypnogram): the 856 annotations and the staging made of them come back', () => {
    const night = nightFromFiles([{ name: HMC, bytes: real(HMC) }]);
    const { back } = roundTrip(night);
    // The stages become the night's SLP_STGS; written as a signal, it comes back stage for stage.
    expect(night.channels.map((c) => c.code)).toEqual(['SLP_STGS']);
    expect(back.channels.map((c) => c.code)).toEqual(['SLP_STGS']);
    const values = (c: ChannelData) => Array.from(c.samples, (v) => v * c.scale + c.offset);
    expect(values(back.channels[0]!)).toEqual(values(night.channels[0]!));
    expect(back.events).toHaveLength(856);
    back.events.forEach((e, i) => {
      expect(e.text).toBe(night.events[i].text);
      expect(Math.abs(e.onsetMs - night.events[i].onsetMs)).toBeLessThan(0.01);
      expect(e.durationMs).toBe(night.events[i].durationMs);
    });
  });
});

describe('quantisation', () => {
  const channel = (values: number[]): ChannelData => ({
    code: 'X',
    label: 'X',
    unit: '',
    sampleRate: 1,
    t0: 0,
    storage: 'float32',
    scale: 1,
    offset: 0,
    samples: Float32Array.from(values),
  });

  it('a power-of-two step covering the data, whole numbers exact', () => {
    const q = quantiseChannel(channel([0.25, 3.5, -1, -2]));
    expect([q.physicalMin, q.physicalMax]).toEqual(['-3.90625', '3.90625']);
    expect(q.step).toBe(2 ** -13);
    expect(Array.from(q.digital)).toEqual([2048, 28672, -8192, -16384]);
    const wide = quantiseChannel(channel([250, -1]));
    expect([wide.physicalMin, wide.physicalMax, wide.step]).toEqual(['-250', '250', 1 / 128]);
    expect(wide.digital[1] * wide.step).toBe(-1);
  });

  it('every header number fits the 8-character fields', () => {
    for (const peak of [0.001, 2, 3.9, 7, 100, 1234.5, 32000, 1e5, 8e6]) {
      const q = quantiseChannel(channel([peak, -peak]));
      expect(q.physicalMin.length).toBeLessThanOrEqual(8);
      expect(Math.abs(peak - q.digital[0] * q.step)).toBeLessThanOrEqual(q.step / 2);
    }
    expect(() => quantiseChannel(channel([1e7]))).toThrow(/do not fit/);
  });
});
