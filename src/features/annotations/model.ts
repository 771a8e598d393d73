/** Annotations on the single-night view (spec 2 §3, §5, §9): pure rules, no React. */

/** The 13-colour palette (spec 2 §3); the first is the default colour of label 1. */
export const PALETTE = [
  '#DA7171', '#EE814C', '#7FB3D5', '#76D7C4', '#F7DC6F', '#BB8FCE', '#85C1E9',
  '#F1948A', '#82E0AA', '#F8C471', '#AEB6BF', '#D7BDE2', '#A3E4D7',
] as const;

export const DEFAULT_DURATION_S = 10;
export const DEFAULT_LABEL = 1;
export const DEFAULT_COLOR = '#DA7171';
export const MAX_CATEGORIES = 12;
export const CATEGORY_TITLE_MAX = 20;
export const EPOCH_MS = 30_000;

type AnnotationType = 'custom' | 'system' | 'system-edit' | 'desaturation' | 'device';

export interface Annotation {
  annotation_map_id: number;
  type: AnnotationType;
  night: number;
  kpi: string;
  kpiList: string[];
  start_ms: number;
  end_ms: number;
  /** The spec's times and last change (the list's compact answer leaves them out: nothing here reads them). */
  start_time?: string;
  end_time?: string;
  duration: string;
  comment: string;
  label: number;
  color_code: string;
  /** Null on a device event (no author). */
  created_by: number | null;
  updated_by: number | null;
  updated_date?: string | null;
  delete_flag: number;
  version: number;
  /** The author's name, as the list call gives it (absent on device events). */
  created_by_name?: string;
  /** Device-scored events (type device): read-only, with the vendor and file they came from. */
  read_only?: boolean;
  vendor?: string;
  /** Who scored a device-scored event: the device, or a scorer (a PSG's scoring file). */
  scored_by?: 'device' | 'scorer';
  file_name?: string;
  device_kind?: string;
}

export interface Category {
  label_id: number;
  label: string;
  color_code: string;
  type: 'custom' | 'built-in';
  /** A built-in's stable code (apnea, desaturation, hypopnea, movement, central_apnea, obstructive_apnea, irregularities); null for a custom one. */
  code?: string | null;
  version: number;
}

/** Spec 2 §5 messages, as catalogue keys. */
const MESSAGE_KEYS = {
  kpi: 'annotations.errors.kpi',
  duration: 'annotations.errors.duration',
  category: 'annotations.errors.category',
  color: 'annotations.errors.color',
  title: 'annotations.errors.title',
  titleLength: 'annotations.errors.titleLength',
} as const;

/** [[hh:]mm:]ss with hours 0–23, minutes and seconds 0–59, as seconds; null otherwise. */
export function parseDuration(text: string): number | null {
  const m = /^(?:(?:(\d{1,2}):)?(\d{1,2}):)?(\d{1,2})$/.exec(text.trim());
  if (!m) return null;
  const h = Number(m[1] ?? 0);
  const min = Number(m[2] ?? 0);
  const s = Number(m[3]);
  if (h > 23 || min > 59 || s > 59) return null;
  return h * 3600 + min * 60 + s;
}

/** Seconds as the three time fields of the popup. */
export function splitSeconds(total: number): { h: string; m: string; s: string } {
  const t = Math.max(0, Math.round(total));
  const pad = (n: number) => String(n).padStart(2, '0');
  return { h: pad(Math.floor(t / 3600)), m: pad(Math.floor((t % 3600) / 60)), s: pad(t % 60) };
}

/** A time field accepts digits only (spec 2 §5); anything else is dropped as typed. */
export const digitsOnly = (value: string, max = 2) => value.replace(/\D/g, '').slice(0, max);

/** Whether a field's value is out of its range (highlighted, not blocked). */
export function outOfRange(value: string, field: 'h' | 'm' | 's'): boolean {
  if (value === '') return false;
  const n = Number(value);
  return field === 'h' ? n > 23 : n > 59;
}

/** Backslashes and apostrophes escaped before sending (spec 2 §5). */
export const escapeText = (text: string) => text.replace(/\\/g, '\\\\').replace(/'/g, "\\'");

/**
 * The display filter of spec 2 §5: shown only with a label, a kpi and a valid duration,
 * and when every channel code is known.
 */
export function displayable(a: Pick<Annotation, 'label' | 'kpi' | 'duration'>, knownCodes: ReadonlySet<string>): boolean {
  if (!a.label || !a.kpi) return false;
  const d = /^(\d{1,2}):(\d{1,2}):(\d{1,2})$/.exec(a.duration);
  if (!d || Number(d[1]) > 23 || Number(d[2]) > 59 || Number(d[3]) > 59) return false;
  return a.kpi.split(',').every((c) => knownCodes.has(c));
}

/** Side counts: system (system and system-edit), custom, desaturation, device-scored. */
export function counts(list: readonly Pick<Annotation, 'type'>[]): { system: number; custom: number; desaturation: number; device: number } {
  const c = { system: 0, custom: 0, desaturation: 0, device: 0 };
  for (const a of list) {
    if (a.type === 'custom') c.custom++;
    else if (a.type === 'desaturation') c.desaturation++;
    else if (a.type === 'device') c.device++;
    else c.system++;
  }
  return c;
}

export interface Visibility {
  system: boolean;
  custom: boolean;
  desaturation: boolean;
  device: boolean;
}

export const isVisible = (a: Pick<Annotation, 'type'>, v: Visibility) =>
  a.type === 'custom' ? v.custom : a.type === 'desaturation' ? v.desaturation : a.type === 'device' ? v.device : v.system;

/** Device events cannot be edited or deleted by users. */
export const isReadOnly = (a: Pick<Annotation, 'type' | 'read_only'>) => a.type === 'device' || a.read_only === true;

/** Vendor ids (server/recordings/vendors.ts) as shown to users; an unknown one as written. */
export const vendorName = (vendor: string | undefined) => ({ resmed: 'ResMed', 'edf+': 'EDF+', nsrr: 'NSRR XML', profusion: 'Profusion XML' })[vendor ?? ''] ?? vendor ?? '';

/** Colours a new or edited category may take: not used by another category. */
export function freeColors(categories: readonly Pick<Category, 'label_id' | 'color_code'>[], editing?: number): string[] {
  const used = new Set(categories.filter((c) => c.label_id !== editing).map((c) => c.color_code.toUpperCase()));
  return PALETTE.filter((c) => !used.has(c));
}

/** Category form errors (spec 2 §5), as catalogue keys. */
export function categoryErrors(title: string, color: string | null): string[] {
  const errors: string[] = [];
  if (!color) errors.push(MESSAGE_KEYS.color);
  if (!title.trim()) errors.push(MESSAGE_KEYS.title);
  else if (title.trim().length > CATEGORY_TITLE_MAX) errors.push(MESSAGE_KEYS.titleLength);
  return errors;
}

/** Annotation form errors (spec 2 §5), as catalogue keys. */
export function annotationErrors(kpis: readonly string[], durationS: number | null, label: number | null): string[] {
  const errors: string[] = [];
  if (kpis.length === 0) errors.push(MESSAGE_KEYS.kpi);
  if (durationS === null || durationS <= 0) errors.push(MESSAGE_KEYS.duration);
  if (!label) errors.push(MESSAGE_KEYS.category);
  return errors;
}

/** The list by start: itself when already in that order (the night's list always is), else a sorted copy. */
function byStart<T extends Pick<Annotation, 'start_ms'>>(list: readonly T[]): readonly T[] {
  for (let i = 1; i < list.length; i++) if (list[i - 1].start_ms > list[i].start_ms) return [...list].sort((a, b) => a.start_ms - b.start_ms);
  return list;
}

/** The first index of a list in start order whose start is at or after t (after t when `strictly`). */
export function startIndex(list: readonly Pick<Annotation, 'start_ms'>[], t: number, strictly = false): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid].start_ms < t || (strictly && list[mid].start_ms === t)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first annotation starting after t (strictly or not), or the last starting before t; null when none. */
function around<T extends Pick<Annotation, 'start_ms'>>(list: readonly T[], t: number, direction: 1 | -1, strictly: boolean): T | null {
  const sorted = byStart(list);
  if (direction === 1) return sorted[startIndex(sorted, t, strictly)] ?? null;
  return sorted[startIndex(sorted, t) - 1] ?? null;
}

/** The next (or previous) annotation after time t, by start; null at the end. */
export function neighbour<T extends Pick<Annotation, 'start_ms'>>(list: readonly T[], t: number, direction: 1 | -1): T | null {
  return direction === 1 ? around(list, t + 500, 1, true) : around(list, t - 500, -1, false);
}

/**
 * The next (or previous) annotation starting outside the window: what ] and [ go to when
 * the window is one scoring epoch, so a press always leaves the epoch shown.
 */
export function neighbourOutside<T extends Pick<Annotation, 'start_ms'>>(list: readonly T[], range: { t0: number; t1: number }, direction: 1 | -1): T | null {
  return direction === 1 ? around(list, range.t1, 1, false) : around(list, range.t0, -1, false);
}

/** The 30-s epoch holding time t, aligned to the recording start. */
export function epochAt(t: number, recordingStart: number): { start: number; end: number } {
  const start = recordingStart + Math.floor((t - recordingStart) / EPOCH_MS) * EPOCH_MS;
  return { start, end: start + EPOCH_MS };
}
