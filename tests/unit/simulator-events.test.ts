// Respiratory events and desaturations: in the truth list and in the samples.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ChannelData } from '../../server/recordings/model';
import {
  scoringReference, scoringTruth, simulateNight, truthToEvents, type DesaturationTruth, type RespiratoryTruth, type SimulatedNight, type TruthEvent,
} from '../../server/simulator/index';
import { baselineLevel } from '../../server/simulator/written';

const START = Date.UTC(2026, 2, 10, 21, 30);
const HOUR = 3_600_000;

let night: SimulatedNight;
let resp: RespiratoryTruth[];
let desats: Map<number, DesaturationTruth>;
beforeAll(() => {
  night = simulateNight({ seed: 'events', startMs: START, durationMs: 8 * HOUR, psg: true, profile: 'moderate_osa' });
  resp = night.truth.filter((t): t is RespiratoryTruth => t.kind === 'obstructive_apnea' || t.kind === 'central_apnea' || t.kind === 'hypopnea');
  desats = new Map(night.truth.filter((t): t is DesaturationTruth => t.kind === 'desaturation').map((d) => [d.id, d]));
});

const channel = (code: string): ChannelData => night.channels.find((c) => c.code === code)!;
const end = (t: TruthEvent): number => t.onsetMs + t.durationMs;
const index = (c: ChannelData, ms: number): number => Math.floor(((ms - c.t0) * c.sampleRate) / 1000);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function std(c: ChannelData, fromMs: number, toMs: number): number {
  const a = index(c, fromMs);
  const b = index(c, toMs);
  let mean = 0;
  for (let i = a; i < b; i++) mean += c.samples[i]! * c.scale;
  mean /= b - a;
  let v = 0;
  for (let i = a; i < b; i++) v += (c.samples[i]! * c.scale - mean) ** 2;
  return Math.sqrt(v / (b - a));
}

function correlation(x: ChannelData, y: ChannelData, fromMs: number, toMs: number): number {
  const a = index(x, fromMs);
  const b = index(x, toMs);
  const k = b - a;
  let sx = 0, sy = 0, sxy = 0, sxx = 0, syy = 0;
  for (let i = a; i < b; i++) {
    const u = x.samples[i]!, w = y.samples[i]!;
    sx += u; sy += w; sxy += u * w; sxx += u * u; syy += w * w;
  }
  return (sxy / k - (sx / k) * (sy / k)) / Math.sqrt((sxx / k - (sx / k) ** 2) * (syy / k - (sy / k) ** 2));
}

/** A calm 30-s stretch before the event: no other truth item (but stages and cycles) within it. */
function calmBefore(t: TruthEvent): [number, number] | null {
  const from = t.onsetMs - 55_000;
  const to = t.onsetMs - 25_000;
  const busy = night.truth.some((o) => o !== t && o.kind !== 'sleep_stage' && o.kind !== 'sleep_cycle' && o.kind !== 'desaturation'
    && o.onsetMs < to + 10_000 && end(o) > from - 10_000);
  return busy || from < START ? null : [from, to];
}

describe('simulated respiratory events', () => {
  it('reaches the profile AHI with apneas of both kinds and hypopneas, mostly in light sleep and REM', () => {
    expect(resp.length).toBe(night.meta.respiratoryEvents);
    expect(night.meta.ahi as number).toBeGreaterThan(15);
    expect(night.meta.ahi as number).toBeLessThan(30);
    const kinds = new Set(resp.map((r) => r.kind));
    expect([...kinds].sort()).toEqual(['central_apnea', 'hypopnea', 'obstructive_apnea']);
    expect(resp.every((r) => r.stage !== 5)).toBe(true);
    expect(resp.filter((r) => r.stage === 2 || r.stage === 4).length / resp.length).toBeGreaterThan(0.75);
    for (const r of resp) {
      expect(r.durationMs).toBeGreaterThanOrEqual(7_000);
      expect(r.durationMs).toBeLessThanOrEqual(40_000);
    }
    // Drawn across the 10-s rule: some events are too short to score, most are not.
    const short = resp.filter((r) => r.durationMs < 10_000).length;
    expect(short).toBeGreaterThan(resp.length * 0.1);
    expect(short).toBeLessThan(resp.length * 0.5);
  });

  it('draws residual breathing and desaturations on both sides of the AASM thresholds', () => {
    const apneas = resp.filter((r) => r.kind !== 'hypopnea');
    const hypopneas = resp.filter((r) => r.kind === 'hypopnea');
    // Apneas: residual flow 0–20 %, some above the 10 % an AASM apnea allows.
    expect(apneas.some((r) => r.flowAmplitude > 0.1)).toBe(true);
    expect(apneas.some((r) => r.flowAmplitude <= 0.1)).toBe(true);
    for (const r of apneas) expect(r.flowAmplitude).toBeLessThanOrEqual(0.2);
    // Hypopneas: 20–85 % left, some above the 70 % a 30 % drop allows; desaturations around 3 %.
    expect(hypopneas.some((r) => r.flowAmplitude > 0.7)).toBe(true);
    expect(hypopneas.some((r) => r.flowAmplitude <= 0.7)).toBe(true);
    expect(hypopneas.some((r) => desats.get(r.desaturationId)!.drop < 3)).toBe(true);
    expect(hypopneas.some((r) => desats.get(r.desaturationId)!.drop >= 3)).toBe(true);
  });

  it('takes the scoring truth from what it wrote: events below the AASM criteria are not in it', () => {
    const withOx = scoringTruth(night.truth, { channel: 'flow', oximetry: true, desaturationRule: 3 });
    const withOx4 = scoringTruth(night.truth, { channel: 'flow', oximetry: true, desaturationRule: 4 });
    const flowOnly = scoringTruth(night.truth, { channel: 'flow', oximetry: false });
    expect(withOx.length).toBeGreaterThan(20);
    expect(withOx.length).toBeLessThan(resp.length);
    expect(withOx4.length).toBeLessThan(withOx.length);
    for (const t of withOx) {
      const w = t.source.written.flow!;
      expect([t.onsetMs, t.durationMs]).toEqual([w.onsetMs, w.durationMs]);
      expect(t.durationMs).toBeGreaterThanOrEqual(10_000);
      expect(w.residual).toBeLessThanOrEqual(0.7);
      if (t.kind === 'apnea') expect(w.residual).toBeLessThanOrEqual(0.1);
      else expect(desats.get(t.source.desaturationId)!.written!.drop).toBeGreaterThanOrEqual(3);
    }
    for (const t of flowOnly) if (t.kind === 'hypopnea') expect(t.source.written.flow!.residual).toBeLessThanOrEqual(0.5);
    // An event left out is below a criterion as written, or borderline (as drawn it meets them).
    const kept = new Set(withOx.map((t) => t.source.id));
    const borderline = new Set(scoringReference(night.truth, { channel: 'flow', oximetry: true, desaturationRule: 3 }).borderline.map((b) => b.source.id));
    for (const r of resp.filter((x) => !kept.has(x.id))) {
      const w = r.written.flow;
      const below = !w || w.durationMs < 10_000 || (w.residual > 0.1 && (desats.get(r.desaturationId)!.written?.drop ?? 0) < 3);
      expect(below || borderline.has(r.id), `event ${r.id}`).toBe(true);
    }
  });

  it('sets apart the events whose drawn and written readings disagree about the AASM criteria (borderline by construction)', () => {
    for (const oximetry of [true, false]) {
      const ref = scoringReference(night.truth, { channel: 'flow', oximetry, desaturationRule: 3 });
      expect(ref.events).toEqual(scoringTruth(night.truth, { channel: 'flow', oximetry, desaturationRule: 3 }));
      expect(ref.borderline.length).toBeGreaterThan(0);
      // Fewer borderline events than truth events: the band is the disagreement, not the whole night.
      expect(ref.borderline.length).toBeLessThan(ref.events.length / 2);
      const truthIds = new Set(ref.events.map((t) => t.source.id));
      for (const b of ref.borderline) {
        expect(truthIds.has(b.source.id)).toBe(false);
        const w = b.source.written.flow!;
        const d = desats.get(b.source.desaturationId)!;
        const meets = (ms: number, residual: number, drop: number) => ms >= 10_000 && (residual <= 0.1 || (oximetry ? drop >= 3 : residual <= 0.5));
        const written = meets(w.durationMs, w.residual, d.written?.drop ?? 0);
        const drawn = meets(b.source.durationMs, b.source.flowAmplitude, d.written ? d.drop : 0);
        expect(written, `event ${b.source.id}`).not.toBe(drawn);
        // Its span covers both readings, for matching.
        expect(b.onsetMs).toBeLessThanOrEqual(Math.min(w.onsetMs, b.source.onsetMs));
        expect(b.onsetMs + b.durationMs).toBeGreaterThanOrEqual(Math.max(w.onsetMs + w.durationMs, b.source.onsetMs + b.source.durationMs));
      }
      // Every truth event meets the criteria in both readings.
      for (const t of ref.events) {
        const d = desats.get(t.source.desaturationId)!;
        expect(t.source.durationMs).toBeGreaterThanOrEqual(10_000);
        if (t.kind === 'hypopnea' && oximetry) expect(d.drop).toBeGreaterThanOrEqual(3);
        if (t.kind === 'hypopnea' && !oximetry) expect(t.source.flowAmplitude).toBeLessThanOrEqual(0.5);
      }
    }
  });

  it('reads an event\'s breaths against the baseline of the 2 minutes before it (AASM), not the level during it', () => {
    // A level rising by a fifth at the event: against the level before, breaths at 0.65 of the
    // new level are 0.78 of the baseline — not clearly reduced.
    const level = new Float32Array(400).fill(1);
    for (let s = 200; s < 400; s++) level[s] = 1.2;
    expect(baselineLevel(level, 200)).toBe(1);
    expect(baselineLevel(level, 330)).toBeCloseTo(1.2, 5);
    expect(baselineLevel(level, 0)).toBe(1);
  });

  it('describes the signal it wrote: whole reduced breaths around each event, desaturations as the SPO2 samples read', () => {
    const flow = night.channels.find((c) => c.code === 'NC_PSG')!;
    const spo2 = night.channels.find((c) => c.code === 'SPO2')!.samples as Float32Array;
    const meanAbs = (fromMs: number, toMs: number) => {
      let sum = 0;
      let count = 0;
      for (let k = Math.floor(((fromMs - START) * flow.sampleRate) / 1000); k < ((toMs - START) * flow.sampleRate) / 1000; k++, count++) sum += Math.abs(flow.samples[k]!);
      return sum / count;
    };
    let longer = 0;
    let shorter = 0;
    for (const r of resp) {
      const w = r.written.flow;
      if (!w) continue;
      // The run covers the drawn event up to a breath on either side, and its breaths are small.
      expect(w.onsetMs).toBeGreaterThan(r.onsetMs - 8_000);
      expect(w.onsetMs + w.durationMs).toBeLessThan(r.onsetMs + r.durationMs + 8_000);
      if (w.residual <= 0.5) expect(meanAbs(w.onsetMs, w.onsetMs + w.durationMs)).toBeLessThan(0.8 * meanAbs(w.onsetMs - 30_000, w.onsetMs));
      if (r.durationMs < 10_000 && w.durationMs >= 10_000) longer++;
      if (r.durationMs >= 10_000 && w.durationMs < 10_000) shorter++;
    }
    // Breaths cut by an event's edges move it across the 10-s line both ways.
    expect(longer).toBeGreaterThan(0);
    expect(shorter).toBeGreaterThan(0);
    for (const d of desats.values()) {
      if (!d.written) continue;
      const from = (d.onsetMs - START) / 1000;
      const during = Array.from(spo2.subarray(from, from + d.durationMs / 1000)).filter((v) => v > 0);
      expect(d.written.nadir).toBe(Math.min(...during));
      expect(d.written.drop).toBeCloseTo(d.written.baseline - d.written.nadir, 5);
      expect(Number.isInteger(d.written.drop)).toBe(true);
    }
  });

  it('keeps ids in onset order and pairs every event with its desaturation', () => {
    night.truth.forEach((t, i) => expect(t.id).toBe(i));
    for (let i = 1; i < night.truth.length; i++) expect(night.truth[i]!.onsetMs).toBeGreaterThanOrEqual(night.truth[i - 1]!.onsetMs);
    expect(desats.size).toBe(resp.length);
    for (const r of resp) expect(desats.get(r.desaturationId)!.causeId).toBe(r.id);
  });

  it('puts every desaturation nadir 15–55 s after the end of its event, with a 1.5–15 % drop', () => {
    const lags: number[] = [];
    for (const r of resp) {
      const d = desats.get(r.desaturationId)!;
      const lag = d.nadirMs - end(r);
      lags.push(lag);
      expect(lag).toBeGreaterThanOrEqual(15_000);
      expect(lag).toBeLessThanOrEqual(55_000);
      expect(d.drop).toBeGreaterThanOrEqual(1.5);
      expect(d.drop).toBeLessThanOrEqual(15);
      expect(d.nadir).toBeCloseTo(d.baseline - d.drop, 1);
      expect(d.onsetMs).toBeGreaterThan(r.onsetMs);
      expect(end(d)).toBeGreaterThan(d.nadirMs);
    }
    // Some lags fall beyond a 45-s association window.
    expect(lags.some((l) => l > 45_000)).toBe(true);
    const ds = [...desats.values()];
    for (let i = 1; i < ds.length; i++) expect(ds[i]!.onsetMs).toBeGreaterThan(end(ds[i - 1]!));
  });

  it('shows each desaturation in the SPO2 samples 15–55 s after its event', () => {
    const spo2 = channel('SPO2');
    const lags: number[] = [];
    for (const r of resp) {
      const d = desats.get(r.desaturationId)!;
      const a = index(spo2, d.onsetMs);
      const b = index(spo2, end(d));
      const values = Array.from(spo2.samples.subarray(a, b));
      expect(values.every((v) => v > 0), 'no dropout inside a desaturation').toBe(true);
      const min = Math.min(...values);
      expect(d.baseline - min).toBeGreaterThanOrEqual(d.drop - 1.5);
      expect(min).toBeLessThanOrEqual(d.nadir + 1.5);
      let sum = 0, count = 0;
      values.forEach((v, i) => { if (v <= min + 0.5) { sum += i; count++; } });
      lags.push(START + (a + sum / count) * 1000 - end(r));
    }
    expect(lags.length).toBe(resp.length);
    for (const lag of lags) {
      expect(lag).toBeGreaterThanOrEqual(10_000);
      expect(lag).toBeLessThanOrEqual(60_000);
    }
    const mean = lags.reduce((s, x) => s + x, 0) / lags.length;
    expect(mean).toBeGreaterThan(25_000);
    expect(mean).toBeLessThan(45_000);
  });

  it('flattens Y_DIST during apneas and reduces it during hypopneas, against calm breathing before', () => {
    const y = channel('Y_DIST');
    const ratios = { apnea: [] as number[], hypopnea: [] as number[] };
    for (const r of resp) {
      const calm = calmBefore(r);
      if (!calm || r.durationMs < 10_000) continue;
      const ratio = std(y, r.onsetMs + 2_000, end(r) - 1_000) / std(y, calm[0], calm[1]);
      (r.kind === 'hypopnea' ? ratios.hypopnea : ratios.apnea).push(ratio);
      // The samples follow the drawn residual (stage level and jitter move it a little).
      expect(Math.abs(ratio - r.amplitude), `event ${r.id}`).toBeLessThan(0.1 + 0.35 * r.amplitude);
    }
    expect(ratios.apnea.length).toBeGreaterThan(10);
    expect(ratios.hypopnea.length).toBeGreaterThan(10);
    for (const x of ratios.apnea) expect(x).toBeLessThan(0.3);
    expect(median(ratios.hypopnea)).toBeGreaterThan(0.3);
    expect(median(ratios.hypopnea)).toBeLessThan(0.8);
  });

  it('moves thorax and abdomen in opposition for obstructive apneas, flattens both for central ones', () => {
    const thx = channel('THRX_PSG');
    const abd = channel('ABD_PSG');
    const flow = channel('NC_PSG');
    const checked = { obstructive_apnea: 0, central_apnea: 0, hypopnea: 0 };
    for (const r of resp) {
      const calm = calmBefore(r);
      if (!calm || r.durationMs < 10_000) continue;
      checked[r.kind]++;
      const span: [number, number] = [r.onsetMs + 2_000, end(r) - 1_000];
      expect(std(flow, ...span) / std(flow, ...calm)).toBeLessThan(r.flowAmplitude + 0.1 + 0.35 * r.flowAmplitude);
      if (r.kind === 'obstructive_apnea') {
        expect(correlation(thx, abd, ...span)).toBeLessThan(-0.7);
        expect(std(thx, ...span) / std(thx, ...calm)).toBeGreaterThan(0.5);
      } else if (r.kind === 'central_apnea') {
        expect(std(thx, ...span) / std(thx, ...calm)).toBeLessThan(0.15);
        expect(std(abd, ...span) / std(abd, ...calm)).toBeLessThan(0.15);
      } else {
        expect(correlation(thx, abd, ...span)).toBeGreaterThan(0.7);
      }
      expect(correlation(thx, abd, ...calm)).toBeGreaterThan(0.7);
    }
    // Each kind was actually checked (a loop that skips everything proves nothing).
    expect(checked.obstructive_apnea).toBeGreaterThan(5);
    expect(checked.central_apnea).toBeGreaterThan(2);
    expect(checked.hypopnea).toBeGreaterThan(5);
  });

  it('keeps SQB good and vitals present during respiratory events, except under the radar dropouts the truth lists', () => {
    const sqb = channel('SQB');
    const br = channel('BR');
    const radarGaps = night.truth.filter((t) => t.kind === 'dropout' && t.channels.includes('BR'));
    const inGap = (ms: number) => radarGaps.some((g) => ms >= g.onsetMs && ms < end(g));
    let seconds = 0;
    for (const r of resp) {
      for (let i = index(sqb, r.onsetMs); i < index(sqb, end(r)); i++) {
        if (inGap(sqb.t0 + i * 1000)) continue;
        seconds++;
        expect(sqb.samples[i]).toBe(1);
        expect(br.samples[i]).toBeGreaterThan(0);
      }
    }
    expect(seconds).toBeGreaterThan(resp.length * 5);
  });

  it('scales with the profile: healthy nights have few events, severe ones many', () => {
    const healthy = simulateNight({ seed: 'events-h', startMs: START, durationMs: 6 * HOUR, profile: 'healthy' });
    const severe = simulateNight({ seed: 'events-s', startMs: START, durationMs: 6 * HOUR, profile: { base: 'severe_osa', ahi: 40 } });
    expect(healthy.meta.ahi as number).toBeLessThan(5);
    expect(severe.meta.ahi as number).toBeGreaterThan(30);
    expect(severe.meta.profile).toBe('severe_osa*');
  });

  it('renders the truth as EDF+-style events', () => {
    const events = truthToEvents(night.truth);
    const texts = new Set(events.map((e) => e.text));
    for (const t of ['Obstructive Apnea', 'Central Apnea', 'Hypopnea', 'SpO2 desaturation', 'Movement', 'Sleep stage N2', 'Sleep stage R']) {
      expect(texts.has(t), t).toBe(true);
    }
    expect(events.filter((e) => e.text === 'Hypopnea').length).toBe(resp.filter((r) => r.kind === 'hypopnea').length);
  });
});
