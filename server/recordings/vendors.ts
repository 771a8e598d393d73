/**
 * Device-scored events: which files carry them, which vendor wrote them, and each vendor's
 * time convention. One table, so a new device is one row (and one test) here.
 *
 * ResMed's EVE files write an event's annotation at the END of the event (the onset field
 * is when the device finished scoring it), with the event's length as the duration. EDF+
 * itself (PSG scoring, EDFbrowser, Noxturnal exports) puts the onset at the start.
 */
import type { NightEvent } from './model';

/** What a scored event is, read from its text. */
export type ScoredKind = 'obstructive_apnea' | 'central_apnea' | 'mixed_apnea' | 'apnea' | 'hypopnea' | 'desaturation' | 'arousal' | 'rera';

export interface VendorConvention {
  /** Stable id stored with each device event ('resmed', 'edf+'). */
  vendor: string;
  /** True when a file (by name, the format it was read as, and EDF header fields) was written by this vendor. */
  matches(file: VendorFile): boolean;
  /** The event's real span, from the annotation's onset and duration as written in the file. */
  span(written: { onsetMs: number; durationMs: number }): { onsetMs: number; durationMs: number };
  /** Who scored the events: the device itself (a CPAP), or a scorer (a PSG's scoring file: a person or a lab's software). */
  scoredBy: 'device' | 'scorer';
}

/** What a vendor is told by: the file's name, the format it was read as, its EDF header's recording and patient fields. */
type VendorFile = { fileName: string; format?: string; recording?: string; patient?: string };

/** Vendors in match order; the last one matches every file. */
const VENDORS: readonly VendorConvention[] = [
  {
    vendor: 'resmed',
    // AirSense/AirCurve SD cards: DATALOG/<date>/<yyyymmdd_hhmmss>_EVE.edf, header "SRN=… MID=… VID=…".
    matches: ({ fileName, recording = '' }) => /_EVE\.edf$/i.test(fileName) || /\bSRN=\d+\b.*\bMID=\d+/.test(recording),
    span: ({ onsetMs, durationMs }) => ({ onsetMs: onsetMs - durationMs, durationMs }),
    scoredBy: 'device',
  },
  {
    // A PSG's Profusion XML scoring file (NSRR's "-profusion.xml", Profusion's own export), read as an NSRR XML is (nsrr.ts).
    vendor: 'profusion',
    matches: ({ format }) => format === 'Profusion XML',
    span: ({ onsetMs, durationMs }) => ({ onsetMs, durationMs }),
    scoredBy: 'scorer',
  },
  {
    // A PSG's NSRR XML scoring file uploaded with its EDF (nsrr-night.ts): Start and Duration as the event's own.
    vendor: 'nsrr',
    matches: ({ fileName }) => /\.xml$/i.test(fileName),
    span: ({ onsetMs, durationMs }) => ({ onsetMs, durationMs }),
    scoredBy: 'scorer',
  },
  {
    vendor: 'edf+',
    matches: () => true,
    span: ({ onsetMs, durationMs }) => ({ onsetMs, durationMs }),
    scoredBy: 'scorer',
  },
];

/** Who scored a stored vendor's events ('device' for an id no longer known: the device's own, as before scorers were told apart). */
export const scoredByOf = (vendor: string): VendorConvention['scoredBy'] => VENDORS.find((v) => v.vendor === vendor)?.scoredBy ?? 'device';

/** Who scored a night's reference events: 'scorer' when every vendor's events are a scorer's (a PSG's scoring file), else 'device'. */
export const scoredByAll = (vendors: readonly string[]): VendorConvention['scoredBy'] => (vendors.length > 0 && vendors.every((v) => scoredByOf(v) === 'scorer') ? 'scorer' : 'device');

/** The convention of a file. */
export function vendorOf(file: VendorFile): VendorConvention {
  return VENDORS.find((v) => v.matches(file))!;
}

const KINDS: ReadonlyArray<[RegExp, ScoredKind]> = [
  [/^obstructive\s*apn(o)?ea$/i, 'obstructive_apnea'],
  [/^central\s*apn(o)?ea$/i, 'central_apnea'],
  [/^mixed\s*apn(o)?ea$/i, 'mixed_apnea'],
  [/^(apn(o)?ea|unclassified\s*apn(o)?ea|apn(o)?ea\s*unclassified)$/i, 'apnea'],
  [/^hypop(n)?(o)?ea$/i, 'hypopnea'],
  [/^(obstructive|central)\s*hypopn(o)?ea$/i, 'hypopnea'],
  [/^(oxygen\s*|spo2\s*)?desaturation$/i, 'desaturation'],
  [/^(asda\s*)?arousal/i, 'arousal'],
  [/^rera$/i, 'rera'],
];

/** The kind of a scored event from its text, or null for anything else ('Recording starts', stages …). */
export function scoredKind(text: string): ScoredKind | null {
  const t = text.trim();
  for (const [re, kind] of KINDS) if (re.test(t)) return kind;
  return null;
}

/** True for apneas and hypopneas: the events AHI counts. */
export const isRespiratory = (k: ScoredKind | null) => k !== null && k !== 'desaturation' && k !== 'arousal' && k !== 'rera';

/**
 * How Nocturne's EDF+ export writes a device event: at its real time (EDF+'s convention),
 * its own text followed by where it came from, `Central Apnea {resmed: x_EVE.edf}`, so a
 * re-import keeps the event, its vendor and its file.
 */
export function exportedDeviceText(e: { text: string; vendor: string; fileName: string }): string {
  return `${e.text} {${e.vendor}: ${e.fileName}}`;
}

const EXPORTED = /^(.*?)\s*\{([\w+.-]+): ([^{}]+)\}$/;

/** The kind of a scored event's text, as a file or a Nocturne export (with its origin) writes it. */
export function scoredKindOf(text: string): ScoredKind | null {
  return scoredKind(EXPORTED.exec(text)?.[1] ?? text);
}

/** A scored event: its kind, the vendor whose convention placed it, and the file it came from when not this one. */
export type ScoredEvent = NightEvent & { kind: ScoredKind; vendor: string; fileName?: string };

/**
 * A file's scored events in real time under its vendor's convention; events a Nocturne export
 * wrote with their origin keep it (already in real time). Other annotations are left out.
 */
export function deviceEvents(file: VendorFile, events: readonly NightEvent[]): ScoredEvent[] {
  const v = vendorOf(file);
  const out: ScoredEvent[] = [];
  for (const e of events) {
    const tag = EXPORTED.exec(e.text);
    const kind = scoredKind(tag ? tag[1]! : e.text);
    if (!kind) continue;
    if (tag) out.push({ ...e, text: tag[1]!, kind, vendor: tag[2]!, fileName: tag[3]! });
    else out.push({ ...e, ...v.span(e), kind, vendor: v.vendor });
  }
  return out;
}
