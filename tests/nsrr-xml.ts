/**
 * An NSRR XML scoring file as NSRR's cohorts (SHHS, MESA, MrOS) ship one beside each EDF, written
 * here from a real EDF+ hypnogram (Sleep-EDF's expert scoring): "Recording Start Time" with its
 * clock time, the stages as runs in NSRR's concepts, and any further scored events given.
 */
import { readEdf } from '../server/recordings/edf/reader';

/** Sleep-EDF's R&K annotation texts as NSRR's stage concepts, written out here as NSRR writes them. */
const CONCEPT: Readonly<Record<string, string>> = {
  'Sleep stage W': 'Wake|0',
  'Sleep stage 1': 'Stage 1 sleep|1',
  'Sleep stage 2': 'Stage 2 sleep|2',
  'Sleep stage 3': 'Stage 3 sleep|3',
  'Sleep stage 4': 'Stage 4 sleep|4',
  'Sleep stage R': 'REM sleep|5',
  'Movement time': 'Movement|6',
  'Sleep stage ?': 'Unscored|9',
};

export interface XmlEvent {
  type: string;
  concept: string;
  startS: number;
  durationS: number;
  signal?: string;
}

const event = (e: XmlEvent) =>
  `<ScoredEvent><EventType>${e.type}</EventType><EventConcept>${e.concept}</EventConcept><Start>${e.startS}</Start><Duration>${e.durationS}</Duration>${e.signal ? `<SignalLocation>${e.signal}</SignalLocation>` : ''}</ScoredEvent>`;

/** The hypnogram's stages (and `extra` events) as an NSRR XML file; `clock` overrides the start's clock time ("hh.mm.ss"). */
export function nsrrXmlOf(hypnogram: Uint8Array, extra: readonly XmlEvent[] = [], clock?: string): string {
  const edf = readEdf(hypnogram, 'hypnogram.edf');
  const start = new Date(edf.startMs);
  const hhmmss = clock ?? [start.getUTCHours(), start.getUTCMinutes(), start.getUTCSeconds()].map((n) => String(n).padStart(2, '0')).join('.');
  const stages = edf.annotations
    .filter((a) => CONCEPT[a.text] !== undefined)
    .map((a): XmlEvent => ({ type: 'Stages|Stages', concept: CONCEPT[a.text]!, startS: a.onset, durationS: a.duration }));
  const last = stages[stages.length - 1]!;
  return [
    '<?xml version="1.0" encoding="UTF-8" standalone="no"?>',
    '<PSGAnnotation>',
    '<SoftwareVersion>Compumedics</SoftwareVersion>',
    '<EpochLength>30</EpochLength>',
    '<ScoredEvents>',
    `<ScoredEvent><EventType/><EventConcept>Recording Start Time</EventConcept><Start>0</Start><Duration>${last.startS + last.durationS}</Duration><ClockTime>00.00.00 ${hhmmss}</ClockTime></ScoredEvent>`,
    ...[...stages, ...extra].sort((a, b) => a.startS - b.startS).map(event),
    '</ScoredEvents>',
    '</PSGAnnotation>',
    '',
  ].join('\n');
}

/** Scored events of a PSG as NSRR writes them: two obstructive apneas, a hypopnea, a desaturation, an arousal, a limb movement. */
export const SCORED: readonly XmlEvent[] = [
  { type: 'Respiratory|Respiratory', concept: 'Obstructive apnea|Obstructive Apnea', startS: 30_000.5, durationS: 14.2, signal: 'Resp oro-nasal' },
  { type: 'Respiratory|Respiratory', concept: 'Obstructive apnea|Obstructive Apnea', startS: 30_120, durationS: 21, signal: 'Resp oro-nasal' },
  { type: 'Respiratory|Respiratory', concept: 'Hypopnea|Hypopnea', startS: 31_000, durationS: 18.7, signal: 'Resp oro-nasal' },
  { type: 'Respiratory|Respiratory', concept: 'SpO2 desaturation|SpO2 desaturation', startS: 31_020, durationS: 25, signal: 'SaO2' },
  { type: 'Arousals|Arousals', concept: 'ASDA arousal|Arousal (ASDA)', startS: 31_030, durationS: 6, signal: 'EEG Fpz-Cz' },
  { type: 'Limb Movement|Limb Movement', concept: 'Limb movement - left|Limb Movement (Left)', startS: 32_000, durationS: 3, signal: 'EMG submental' },
];

/** Sleep-EDF's R&K texts as Profusion's stage codes (0 wake, 1–4, 5 REM; 6 movement time, 9 unscored). */
const PROFUSION_CODE: Readonly<Record<string, number>> = {
  'Sleep stage W': 0,
  'Sleep stage 1': 1,
  'Sleep stage 2': 2,
  'Sleep stage 3': 3,
  'Sleep stage 4': 4,
  'Sleep stage R': 5,
  'Movement time': 6,
  'Sleep stage ?': 9,
};

/** One scored event as Profusion writes it: its Name, Start and Duration in seconds, and its Input (the signal). */
export interface ProfusionEvent {
  name: string;
  startS: number;
  durationS: number;
  input: string;
}

/**
 * The hypnogram's stages (and `extra` events) as Compumedics Profusion's XML, as NSRR ships it
 * beside the NSRR XML ("shhs1-200001-profusion.xml"): one <SleepStage> code per 30-s epoch from
 * the recording's start, each event by its Name.
 */
export function profusionXmlOf(hypnogram: Uint8Array, extra: readonly ProfusionEvent[] = []): string {
  const edf = readEdf(hypnogram, 'hypnogram.edf');
  const codes: number[] = [];
  for (const a of edf.annotations) {
    const code = PROFUSION_CODE[a.text];
    if (code === undefined) continue;
    for (let s = 0; s < a.duration; s += 30) codes.push(code);
  }
  return [
    '<?xml version="1.0" encoding="UTF-8" standalone="no"?>',
    '<CMPStudyConfig>',
    '<EpochLength>30</EpochLength>',
    '<ScoredEvents>',
    ...extra.map((e) => `<ScoredEvent><Name>${e.name}</Name><Start>${e.startS}</Start><Duration>${e.durationS}</Duration><Input>${e.input}</Input></ScoredEvent>`),
    '</ScoredEvents>',
    '<SleepStages>',
    ...codes.map((c) => `<SleepStage>${c}</SleepStage>`),
    '</SleepStages>',
    '</CMPStudyConfig>',
    '',
  ].join('\n');
}

/** The same scored events as {@link SCORED}, by Profusion's names. */
export const PROFUSION_SCORED: readonly ProfusionEvent[] = [
  { name: 'Obstructive Apnea', startS: 30_000.5, durationS: 14.2, input: 'Resp oro-nasal' },
  { name: 'Obstructive Apnea', startS: 30_120, durationS: 21, input: 'Resp oro-nasal' },
  { name: 'Hypopnea', startS: 31_000, durationS: 18.7, input: 'Resp oro-nasal' },
  { name: 'SpO2 desaturation', startS: 31_020, durationS: 25, input: 'SaO2' },
  { name: 'Arousal (ASDA)', startS: 31_030, durationS: 6, input: 'EEG Fpz-Cz' },
  { name: 'Limb Movement (Left)', startS: 32_000, durationS: 3, input: 'EMG submental' },
];
