/** The ground-truth list of a simulated night, and its rendering as EDF+-style events. */
import type { NightEvent } from '../recordings/model';
import { EPOCH_S, SECOND_MS, STAGE, type StageCode } from './constants';
import type { RespEvent, Scenario } from './scenario';
import type { DesaturationTruth, RespiratoryTruth, TruthEvent, WrittenBreathsMs } from './types';
import type { WrittenBreaths, WrittenDesaturation } from './written';
import { dropoutChannels } from './vitals';

const round = (x: number, decimals: number): number => {
  const f = 10 ** decimals;
  return Math.round(x * f) / f;
};

/** Ids are given once the list is sorted. */
const UNSET = -1;

/** Runs of equal values in a per-epoch array, as [start, end) epoch pairs. */
function runs(values: Uint8Array): Array<[number, number, number]> {
  const out: Array<[number, number, number]> = [];
  let start = 0;
  for (let e = 1; e <= values.length; e++) {
    if (e === values.length || values[e] !== values[start]) {
      out.push([start, e, values[start]!]);
      start = e;
    }
  }
  return out;
}

/** What the generator wrote for an event: its reduced breaths per breathing signal, its desaturation in SPO2. */
export interface WrittenEvent {
  radar: WrittenBreaths | null;
  flow: WrittenBreaths | null;
  desaturation: WrittenDesaturation | null;
}

/** Builds the truth list, sorted by onset, ids in that order, events cross-linked to their desaturations. */
export function buildTruth(scenario: Scenario, startMs: number, written: (e: RespEvent) => WrittenEvent): TruthEvent[] {
  const ms = (s: number): number => startMs + s * SECOND_MS;
  const spansMs = (w: WrittenBreaths | null): WrittenBreathsMs | null =>
    w && { onsetMs: Math.round(ms(w.start)), durationMs: Math.round(w.duration * SECOND_MS), residual: w.residual };
  const epochMs = EPOCH_S * SECOND_MS;
  const stopMs = ms(scenario.seconds);
  const drafts: TruthEvent[] = [];
  const pairs: Array<[RespiratoryTruth, DesaturationTruth]> = [];

  for (const [start, end, stage] of runs(scenario.hypnogram.stages)) {
    const onsetMs = startMs + start * epochMs;
    drafts.push({ id: UNSET, kind: 'sleep_stage', onsetMs, durationMs: Math.min(stopMs, startMs + end * epochMs) - onsetMs, stage: stage as StageCode });
  }
  scenario.hypnogram.cycles.forEach((c, i) => {
    const onsetMs = startMs + c.start * epochMs;
    drafts.push({ id: UNSET, kind: 'sleep_cycle', onsetMs, durationMs: Math.min(stopMs, startMs + c.end * epochMs) - onsetMs, cycle: i + 1 });
  });
  for (const span of scenario.hypnogram.outOfBed) {
    const onsetMs = startMs + span.start * epochMs;
    drafts.push({ id: UNSET, kind: 'out_of_bed', onsetMs, durationMs: Math.min(stopMs, startMs + span.end * epochMs) - onsetMs });
  }
  for (const m of scenario.movements) {
    drafts.push({ id: UNSET, kind: 'movement', onsetMs: ms(m.start), durationMs: m.duration * SECOND_MS, intensity: round(m.intensity, 2), arousal: m.arousal });
  }
  for (const d of scenario.dropouts) {
    drafts.push({ id: UNSET, kind: 'dropout', onsetMs: ms(d.start), durationMs: d.duration * SECOND_MS, channels: dropoutChannels(d.group), code: -1 });
  }
  for (const e of scenario.events) {
    const d = e.desat;
    const drop = round(d.drop, 1);
    const w = written(e);
    const resp: RespiratoryTruth = {
      id: UNSET, kind: e.kind, onsetMs: ms(e.start), durationMs: e.duration * SECOND_MS, amplitude: round(e.radar, 3), flowAmplitude: round(e.flow, 3), stage: e.stage, desaturationId: UNSET,
      written: { radar: spansMs(w.radar), flow: spansMs(w.flow) },
    };
    const desat: DesaturationTruth = {
      id: UNSET, kind: 'desaturation', onsetMs: ms(d.start), durationMs: (d.nadir + d.hold + d.recovery - d.start) * SECOND_MS,
      nadirMs: ms(d.nadir), baseline: d.baseline, nadir: round(d.baseline - drop, 1), drop, causeId: UNSET, written: w.desaturation,
    };
    drafts.push(resp, desat);
    pairs.push([resp, desat]);
  }

  drafts.sort((a, b) => a.onsetMs - b.onsetMs || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
  drafts.forEach((d, i) => (d.id = i));
  for (const [resp, desat] of pairs) {
    resp.desaturationId = desat.id;
    desat.causeId = resp.id;
  }
  return drafts;
}

const STAGE_TEXT: Record<StageCode, string> = {
  [STAGE.deep]: 'Sleep stage N3', [STAGE.light]: 'Sleep stage N2', [STAGE.rem]: 'Sleep stage R', [STAGE.awake]: 'Sleep stage W',
};
const KIND_TEXT: Partial<Record<TruthEvent['kind'], string>> = {
  obstructive_apnea: 'Obstructive Apnea', central_apnea: 'Central Apnea', hypopnea: 'Hypopnea',
  desaturation: 'SpO2 desaturation', movement: 'Movement', out_of_bed: 'Out of bed',
};

/**
 * The truth as NightEvents with EDF+-style texts ('Obstructive Apnea', 'Hypopnea',
 * 'SpO2 desaturation', 'Sleep stage N2' …), for export or for scoring tools that
 * read annotations. Cycles and dropouts have no text and are left out.
 */
export function truthToEvents(truth: readonly TruthEvent[]): NightEvent[] {
  const out: NightEvent[] = [];
  for (const t of truth) {
    const text = t.kind === 'sleep_stage' ? STAGE_TEXT[t.stage] : KIND_TEXT[t.kind];
    if (text) out.push({ onsetMs: t.onsetMs, durationMs: t.durationMs, text });
  }
  return out;
}
