/**
 * NSRR XML (the National Sleep Research Resource's annotation format, read and written by
 * Luna, the NSRR EDF Editor and Translator and most cohort tools):
 *
 *   <PSGAnnotation>
 *     <SoftwareVersion>…</SoftwareVersion> <EpochLength>30</EpochLength>
 *     <ScoredEvents>
 *       <ScoredEvent>
 *         <EventType>Respiratory|Respiratory</EventType>
 *         <EventConcept>Hypopnea|Hypopnea</EventConcept>
 *         <Start>1234.5</Start> <Duration>18.2</Duration>      (seconds from the recording's start)
 *         <SignalLocation>ABDO RES</SignalLocation>
 *       </ScoredEvent> …
 *
 * The first event is usually "Recording Start Time" with the start's clock time
 * (`<ClockTime>00.00.00 22.15.00</ClockTime>`) and the recording's length as its duration.
 */
import { XMLParser } from 'fast-xml-parser';
import { DateTime } from 'luxon';

/** One scored event of a file. */
interface NsrrEvent {
  type: string;
  concept: string;
  /** Seconds from the recording's start. */
  startS: number;
  durationS: number;
  /** SignalLocation, or null when the event names none. */
  signal: string | null;
}

export interface NsrrFile {
  /** NSRR XML (`<PSGAnnotation>`), or Compumedics Profusion's XML (`<CMPStudyConfig>`, NSRR's "profusion" annotations). */
  kind: 'nsrr' | 'profusion';
  /** The "Recording Start Time" clock time as hh:mm:ss seconds of the day, when given (Profusion gives none). */
  startClockS: number | null;
  events: NsrrEvent[];
}

/** A scoring file that cannot be read: the field and what was wrong. */
export class ScoringFileError extends Error {
  constructor(
    readonly fileName: string,
    readonly field: string,
    readonly problem: string,
  ) {
    super(`${fileName}: ${field}: ${problem}`);
  }
}

const RECORDING_START = /^recording start time$/i;

const parser = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false,
  trimValues: true,
  isArray: (name) => name === 'ScoredEvent' || name === 'SleepStage',
});

const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

/** Seconds from a Start or Duration field; `what` names it in the error. */
function seconds(fileName: string, value: unknown, what: string, allowEmpty: boolean): number {
  const s = text(value).trim();
  if (s === '' && allowEmpty) return 0;
  const n = Number(s);
  if (s === '' || !Number.isFinite(n) || n < 0) throw new ScoringFileError(fileName, what, `"${s}" is not a number of seconds ≥ 0`);
  return n;
}

/** ClockTime "dd.mm.yy hh.mm.ss" (the date part is often 00.00.00) as seconds of the day. */
function clockSeconds(value: string): number | null {
  const m = /(\d{1,2})[.:](\d{2})[.:](\d{2})\s*$/.exec(value.trim());
  if (!m) return null;
  const [h, min, s] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return h < 24 && min < 60 && s < 60 ? h * 3600 + min * 60 + s : null;
}

/** Reads an NSRR XML document (or a Profusion one); throws ScoringFileError naming the event and field that is wrong. */
export function readNsrrXml(xml: string, fileName: string): NsrrFile {
  // Entity declarations are never expanded (no entity bombs, no external files): such a file is refused.
  if (/<!ENTITY/i.test(xml)) throw new ScoringFileError(fileName, 'DOCTYPE', 'entity declarations are not read');
  let doc: Record<string, unknown>;
  try {
    doc = parser.parse(xml, true) as Record<string, unknown>;
  } catch (err) {
    throw new ScoringFileError(fileName, 'XML', err instanceof Error ? err.message : String(err));
  }
  const profusion = doc.CMPStudyConfig as Record<string, unknown> | undefined;
  if (profusion && typeof profusion === 'object') return readProfusion(profusion, fileName);
  const root = doc.PSGAnnotation as Record<string, unknown> | undefined;
  if (!root || typeof root !== 'object') throw new ScoringFileError(fileName, 'PSGAnnotation', 'the document has no <PSGAnnotation> root (NSRR XML) nor <CMPStudyConfig> (Profusion XML): not a scoring file');
  const list = ((root.ScoredEvents as Record<string, unknown> | undefined)?.ScoredEvent ?? []) as Record<string, unknown>[];
  let startClockS: number | null = null;
  const events: NsrrEvent[] = [];
  list.forEach((e, i) => {
    const concept = text(e.EventConcept).trim();
    const where = `ScoredEvent ${i + 1}`;
    if (RECORDING_START.test(concept)) {
      startClockS = clockSeconds(text(e.ClockTime));
      return;
    }
    if (!concept) throw new ScoringFileError(fileName, `${where} EventConcept`, 'missing');
    const signal = text(e.SignalLocation).trim();
    events.push({
      type: text(e.EventType).trim(),
      concept,
      startS: seconds(fileName, e.Start, `${where} Start`, false),
      durationS: seconds(fileName, e.Duration, `${where} Duration`, true),
      signal: signal || null,
    });
  });
  return { kind: 'nsrr', startClockS, events };
}

/** Profusion's stage codes (one per epoch in `<SleepStages>`) as NSRR's stage concepts; any other code is unscored. */
const PROFUSION_STAGE: Readonly<Record<string, string>> = {
  '0': 'Wake|0',
  '1': 'Stage 1 sleep|1',
  '2': 'Stage 2 sleep|2',
  '3': 'Stage 3 sleep|3',
  '4': 'Stage 4 sleep|4',
  '5': 'REM sleep|5',
  '6': 'Movement|6',
};

/**
 * Compumedics Profusion's XML (NSRR ships it as "<name>-profusion.xml" beside the NSRR XML;
 * Profusion exports "<edf>.XML"): `<CMPStudyConfig>` with `<EpochLength>`, `<ScoredEvents>` of
 * `<ScoredEvent>` (`<Name>`, `<Start>`, `<Duration>` in seconds from the recording's start,
 * `<Input>` the signal) and `<SleepStages>`, one `<SleepStage>` code per epoch from the start
 * (0 wake, 1–4, 5 REM). Read as the same events: the epochs as runs of NSRR's stage concepts,
 * each event under its Name.
 */
function readProfusion(root: Record<string, unknown>, fileName: string): NsrrFile {
  const epochText = text(root.EpochLength).trim();
  const epochS = epochText === '' ? 30 : Number(epochText);
  if (!Number.isFinite(epochS) || epochS <= 0) throw new ScoringFileError(fileName, 'EpochLength', `"${epochText}" is not a number of seconds > 0`);
  const events: NsrrEvent[] = [];
  const list = ((root.ScoredEvents as Record<string, unknown> | undefined)?.ScoredEvent ?? []) as Record<string, unknown>[];
  list.forEach((e, i) => {
    const where = `ScoredEvent ${i + 1}`;
    const name = text(e.Name).trim();
    if (RECORDING_START.test(name)) return;
    if (!name) throw new ScoringFileError(fileName, `${where} Name`, 'missing');
    const signal = text(e.Input).trim();
    events.push({ type: '', concept: name, startS: seconds(fileName, e.Start, `${where} Start`, false), durationS: seconds(fileName, e.Duration, `${where} Duration`, true), signal: signal || null });
  });
  const codes = ((root.SleepStages as Record<string, unknown> | undefined)?.SleepStage ?? []) as unknown[];
  let run: NsrrEvent | null = null;
  codes.forEach((c, i) => {
    const code = text(c).trim();
    if (!/^\d+$/.test(code)) throw new ScoringFileError(fileName, `SleepStage ${i + 1}`, `"${code}" is not a stage code`);
    const concept = PROFUSION_STAGE[code] ?? 'Unscored|9';
    if (run && run.concept === concept) run.durationS += epochS;
    else events.push((run = { type: 'Stages|Stages', concept, startS: i * epochS, durationS: epochS, signal: null }));
  });
  if (events.length === 0) throw new ScoringFileError(fileName, 'CMPStudyConfig', 'holds no scored event and no sleep stage');
  return { kind: 'profusion', startClockS: null, events: events.sort((a, b) => a.startS - b.startS) };
}

/** An NSRR XML file's text in its declared encoding (UTF-8 unless it says ISO-8859-1 / Latin-1). */
export function nsrrText(bytes: Uint8Array): string {
  const declared = /encoding=["']([\w-]+)["']/i.exec(new TextDecoder('latin1').decode(bytes.subarray(0, 200)))?.[1]?.toLowerCase();
  return new TextDecoder(declared === 'iso-8859-1' || declared === 'latin1' || declared === 'windows-1252' ? 'latin1' : 'utf-8').decode(bytes);
}

/** NSRR's stage concepts (by the name before "|") as Sleep-EDF's R&K texts, which the hypnogram reader scores. */
const STAGE_TEXT: Readonly<Record<string, string>> = {
  wake: 'Sleep stage W',
  'stage 1 sleep': 'Sleep stage 1',
  'stage 2 sleep': 'Sleep stage 2',
  'stage 3 sleep': 'Sleep stage 3',
  'stage 4 sleep': 'Sleep stage 4',
  'rem sleep': 'Sleep stage R',
  movement: 'Movement time',
  unscored: 'Sleep stage ?',
};

/** NSRR's SDO findings (the EDF Editor and Translator writes them) as the texts scored events are read by. */
const SDO_TEXT: Readonly<Record<string, string>> = {
  obstructiveapneafinding: 'Obstructive apnea',
  centralapneafinding: 'Central apnea',
  mixedapneafinding: 'Mixed apnea',
  apneafinding: 'Apnea',
  hypopneafinding: 'Hypopnea',
  hemoglobinoxygendesaturationfinding: 'SpO2 desaturation',
  sleeparousalfinding: 'Arousal',
};

/**
 * An event's text as a night keeps it: the concept's name (before "|": "Obstructive apnea",
 * "SpO2 desaturation", "Limb movement - left"), a sleep stage as Sleep-EDF writes it ("Stage 2
 * sleep|2" → "Sleep stage 2"), an SDO finding by its meaning.
 */
export function nsrrEventText(concept: string): string {
  const name = concept.split('|')[0]!.trim() || concept.trim();
  const stage = STAGE_TEXT[name.toLowerCase()];
  if (stage) return stage;
  const sdo = /^SDO:(\w+)$/i.exec(name);
  return (sdo && SDO_TEXT[sdo[1]!.toLowerCase()]) || name;
}

/** One event to write. */
export interface NsrrOut {
  type: string;
  concept: string;
  startMs: number;
  durationMs: number;
  /** SignalLocation; null writes none (a sleep stage is scored on no one signal). */
  signal: string | null;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
/** Text escaped for XML; characters XML 1.0 cannot hold at all become spaces. */
const escapeXml = (s: string) => s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, ' ').replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** Seconds with up to three decimals (milliseconds), no exponent, trailing zeros dropped. */
const secondsText = (ms: number) => (ms / 1000).toFixed(3).replace(/\.?0+$/, '');

/**
 * An NSRR XML document: "Recording Start Time" at `originMs` (its clock time in `timezone`,
 * `lengthMs` long), then each event with Start and Duration in seconds from `originMs`, to
 * the millisecond.
 */
export function writeNsrrXml(input: { originMs: number; lengthMs: number; timezone: string; events: readonly NsrrOut[] }): string {
  const clock = DateTime.fromMillis(input.originMs, { zone: input.timezone }).toFormat('HH.mm.ss');
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8" standalone="no"?>',
    '<PSGAnnotation>',
    '<SoftwareVersion>Nocturne</SoftwareVersion>',
    '<EpochLength>30</EpochLength>',
    '<ScoredEvents>',
    '<ScoredEvent>',
    '<EventType/>',
    '<EventConcept>Recording Start Time</EventConcept>',
    '<Start>0</Start>',
    `<Duration>${secondsText(input.lengthMs)}</Duration>`,
    `<ClockTime>00.00.00 ${clock}</ClockTime>`,
    '</ScoredEvent>',
  ];
  for (const e of input.events) {
    out.push(
      '<ScoredEvent>',
      e.type ? `<EventType>${escapeXml(e.type)}</EventType>` : '<EventType/>',
      `<EventConcept>${escapeXml(e.concept)}</EventConcept>`,
      `<Start>${secondsText(e.startMs - input.originMs)}</Start>`,
      `<Duration>${secondsText(e.durationMs)}</Duration>`,
      ...(e.signal === null ? [] : [`<SignalLocation>${escapeXml(e.signal)}</SignalLocation>`]),
      '</ScoredEvent>',
    );
  }
  out.push('</ScoredEvents>', '</PSGAnnotation>', '');
  return out.join('\n');
}
