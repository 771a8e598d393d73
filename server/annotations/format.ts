/** Channel codes an annotation may name (spec 2 §9 graph and non-graph channels). */
export const KNOWN_KPIS = new Set([
  'SLP_STGS', 'Y_DIST', 'MOV', 'BR', 'BRV', 'HR', 'HRV', 'SPO2', 'PR', 'I', 'Q', 'SA', 'TB', 'bp', 'blood_sugar', 'body_temp',
  'weight', 'NC_PSG', 'THRX_PSG', 'ABD_PSG', 'SPO2_PSG', 'SQB', 'AHI', 'AP_timing', 'DSAT', 'ODI', 'RII',
]);

/** The spec's validation messages (spec 2 §5). */
export const MESSAGES = {
  kpi: 'Please select at least one KPI.',
  duration: 'Please select valid annotation duration.',
  category: 'Please select a category.',
  color: 'Please select a color.',
  title: 'Please enter category.',
  titleLength: 'Category length should not exceed 20 characters.',
} as const;

/**
 * A duration as [[hh:]mm:]ss (hours 0–23, minutes and seconds 0–59) in ms, or null. A
 * lone number of seconds may be of any size the other fields allow (≤ 59).
 */
export function parseDuration(text: string): number | null {
  const m = /^(?:(?:(\d{1,2}):)?(\d{1,2}):)?(\d{1,2})$/.exec(text.trim());
  if (!m) return null;
  const [h, min, s] = [Number(m[1] ?? 0), Number(m[2] ?? 0), Number(m[3])];
  if (h > 23 || min > 59 || s > 59) return null;
  return ((h * 60 + min) * 60 + s) * 1000;
}

/** ms as h:mm:ss (the spec's h:m:s list form, zero-padded like every duration shown). */
export { formatDuration } from '../../engine/duration';

/** ms UTC as YYYY-MM-DD HH:mm:ss (spec 2 §3). */
export function formatUtc(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** YYYY-MM-DD HH:mm:ss (UTC), an ISO string or epoch ms, as ms; null when unreadable. */
export function parseUtc(value: string | number): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  const v = value.trim();
  if (/^\d{12,14}$/.test(v)) return Number(v);
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/.exec(v);
  if (!m) return null;
  const ms = Date.parse(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${m[7] ?? ''}${m[8] ?? 'Z'}`);
  return Number.isNaN(ms) ? null : ms;
}

/** The client escapes backslashes and apostrophes before sending (spec 2 §5); the server keeps plain text. */
export function unescapeText(text: string): string {
  return text.replace(/\\(\\|')/g, '$1');
}

/** A kpi as the client sends it (comma list or array) as codes, IQ expanded to I and Q. */
export function parseKpis(value: string | string[] | undefined): string[] {
  const raw = Array.isArray(value) ? value : (value ?? '').split(',');
  const codes: string[] = [];
  for (const c of raw.map((x) => x.trim()).filter(Boolean)) {
    for (const code of c === 'IQ' ? ['I', 'Q'] : [c]) if (!codes.includes(code)) codes.push(code);
  }
  return codes;
}

/** #rrggbb in upper case, or null. */
export function normaliseColor(value: string | undefined): string | null {
  if (!value) return null;
  const v = value.trim();
  return /^#[0-9a-fA-F]{6}$/.test(v) ? v.toUpperCase() : null;
}
