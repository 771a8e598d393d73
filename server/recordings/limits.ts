import { MAX_NIGHT_HOURS } from '../../contract/night-rules';
import { RecordingFormatError } from './model';

const HOUR_MS = 3_600_000;

/**
 * Longest span one night may cover, every file and annotation of it together: a night in a
 * sleep lab or at home with a nap before is well under a day and a half; a longer "night" is
 * files of different nights (or people) put together, and would also be too long to review.
 */
export const MAX_NIGHT_MS = MAX_NIGHT_HOURS * HOUR_MS;

/** Longest stretch without any file inside one night (mask off from 23:00 to 07:00 is 8 h). */
const MAX_NIGHT_GAP_MS = 12 * HOUR_MS;

/** Files that cannot be one night, named (the dialog shows them in the user's language). */
export class NotOneNightError extends RecordingFormatError {
  constructor(
    readonly files: readonly string[],
    field: string,
    problem: string,
  ) {
    super(files[files.length - 1], field, problem);
  }
}

/** A file of a night as the sanity rule reads it (a parsed file, or one listed on a stored night). */
export interface NightPart {
  fileName: string;
  startMs: number;
  stopMs: number;
  meta?: { patient?: unknown };
  /** A stored night's file: its header fields sit beside its times. */
  patient?: unknown;
}

const FIELD_NAMES = { code: 'patient code', birth: 'birth date', name: 'patient name', sex: 'sex' } as const;

/** EDF+ patient subfields (code, sex, birth date, name) when the field follows the convention; X is unknown. */
function edfPlusPatient(field: unknown): { code: string; sex: string; birth: string; name: string } | null {
  if (typeof field !== 'string') return null;
  const [code, sex, birth, name] = field.trim().split(/\s+/);
  if (!name || !/^[MFX]$/i.test(sex) || !(/^X$/i.test(birth) || /^\d{2}-[A-Z]{3}-\d{4}$/i.test(birth))) return null;
  return { code, sex, birth, name };
}

/** The subfield two files' EDF+ patient fields both know and disagree on, or null. */
function otherPerson(a: NightPart, b: NightPart): keyof typeof FIELD_NAMES | null {
  const pa = edfPlusPatient(a.meta?.patient ?? a.patient);
  const pb = edfPlusPatient(b.meta?.patient ?? b.patient);
  if (!pa || !pb) return null;
  for (const key of ['code', 'birth', 'name', 'sex'] as const) {
    const x = pa[key].toUpperCase();
    const y = pb[key].toUpperCase();
    if (x !== 'X' && y !== 'X' && x !== y) return key;
  }
  return null;
}

const hours = (ms: number) => (ms / HOUR_MS).toFixed(1);

/**
 * Files that can be one night: together within {@link MAX_NIGHT_MS}, no {@link MAX_NIGHT_GAP_MS}
 * without any file, and no two EDF+ headers naming different people (code, birth date, name
 * or sex both known and different). Throws NotOneNightError naming the files concerned.
 */
export function checkOneNight(parts: readonly NightPart[]): void {
  if (parts.length < 2) return;
  const sorted = [...parts].sort((a, b) => a.startMs - b.startMs || (a.fileName < b.fileName ? -1 : 1));
  const first = sorted[0];
  for (const p of sorted) {
    const span = Math.max(p.stopMs, first.stopMs) - first.startMs;
    if (span > MAX_NIGHT_MS) {
      throw new NotOneNightError([first.fileName, p.fileName], 'start date/time', `together with ${first.fileName} it spans ${hours(span)} h, more than the ${MAX_NIGHT_MS / HOUR_MS} h of one night`);
    }
  }
  let reach = first;
  for (const p of sorted.slice(1)) {
    if (p.startMs - reach.stopMs > MAX_NIGHT_GAP_MS) {
      throw new NotOneNightError([reach.fileName, p.fileName], 'start date/time', `it starts ${hours(p.startMs - reach.stopMs)} h after ${reach.fileName} ends, more than the ${MAX_NIGHT_GAP_MS / HOUR_MS} h a night may go without data`);
    }
    if (p.stopMs > reach.stopMs) reach = p;
  }
  checkOnePerson(sorted);
}

/** Longest span the nights of one upload may cover: a year of a device's card. */
const MAX_UPLOAD_SPAN_MS = 366 * 24 * HOUR_MS;

/**
 * The nights an upload's files make (a card's DATALOG folder holds many): split where no file
 * covers more than {@link MAX_NIGHT_GAP_MS} (between two nights' sleep), each part then one
 * night by {@link checkOneNight}, earliest first, within a year of each other. Files naming two
 * people are refused whatever their nights (one upload is one person's). A single night is one
 * part, as before.
 */
export function splitNights<T extends NightPart>(parts: readonly T[]): T[][] {
  const sorted = [...parts].sort((a, b) => a.startMs - b.startMs || (a.fileName < b.fileName ? -1 : 1));
  const nights: T[][] = [];
  let reach = -Infinity;
  for (const p of sorted) {
    if (nights.length === 0 || p.startMs - reach > MAX_NIGHT_GAP_MS) nights.push([]);
    nights[nights.length - 1]!.push(p);
    reach = Math.max(reach, p.stopMs);
  }
  if (nights.length > 1) {
    // Nights years apart are no card's: refused as files that are not one night, as before.
    if (Math.max(...sorted.map((p) => p.stopMs)) - sorted[0]!.startMs > MAX_UPLOAD_SPAN_MS) checkOneNight(sorted);
    checkOnePerson(sorted);
  }
  for (const night of nights) checkOneNight(night);
  return nights;
}

function checkOnePerson(sorted: readonly NightPart[]): void {
  for (let i = 0; i < sorted.length; i++) {
    for (let j = i + 1; j < sorted.length; j++) {
      const field = otherPerson(sorted[i], sorted[j]);
      if (field) throw new NotOneNightError([sorted[i].fileName, sorted[j].fileName], 'patient', `its ${FIELD_NAMES[field]} differs from that of ${sorted[i].fileName}: files of two people are not one night`);
    }
  }
}
