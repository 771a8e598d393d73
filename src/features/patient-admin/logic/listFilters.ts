import { DAY_MS } from './dates';

/** The patient list's filters and search (spec 1 §2), pure so they are tested without a browser. */
export interface ListPatient {
  patient_code: string;
  email_id?: string | null;
  device_id?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  at_risk?: number | null;
  date_of_birth?: string | number | null;
  device_allocation_date?: number | string | null;
  device_deallocation_date?: number | string | null;
  recorded_last_night?: boolean | null;
  /** The server's one definition of a flagged patient (server/patients/flagged.ts). */
  flagged?: boolean | null;
}

export type StatusFilter = 'all' | 'active' | 'inactive' | 'flagged';
export type AvailabilityFilter = 'any' | 'today' | 'week' | 'days15' | 'month' | 'custom';

export interface ListFilters {
  status: StatusFilter;
  minAge: string;
  maxAge: string;
  availability: AvailabilityFilter;
  /** YYYY-MM-DD for 'custom'. */
  customDate: string;
  search: string;
}

export const defaultFilters: ListFilters = { status: 'all', minAge: '', maxAge: '', availability: 'any', customDate: '', search: '' };

/** Availability presets (spec 1 §9): today, 1 week, 15 days, 1 month, in days after today. */
const AVAILABILITY_DAYS: Record<Exclude<AvailabilityFilter, 'any' | 'custom'>, number> = { today: 0, week: 7, days15: 15, month: 30 };

const norm = (s: string | null | undefined) => (s ?? '').toLowerCase().replace(/\s+/g, '');

/** Search: case-insensitive, whitespace ignored, on device id or e-mail (and, as a convenience, the patient code). */
export function matchesSearch(p: ListPatient, query: string): boolean {
  const q = norm(query);
  if (!q) return true;
  return [p.device_id, p.email_id, p.patient_code].some((field) => norm(field).includes(q));
}

const num = (v: number | string | null | undefined) => (v === null || v === undefined || v === '' ? null : Number(v));

/** A patient holds a deployed device now (allocation started, not yet returned). */
function isDeployed(p: ListPatient, now: number): boolean {
  const from = num(p.device_allocation_date);
  return !!p.device_id && from !== null && from <= now;
}

/** Age in whole years from the year of birth (only the year is known). */
function ageOf(p: ListPatient, currentYear: number): number | null {
  const m = /^(\d{4})/.exec(String(p.date_of_birth ?? ''));
  return m ? currentYear - Number(m[1]) : null;
}

/** The end (epoch ms) of the availability window; null when the filter is off. */
function availabilityLimit(f: Pick<ListFilters, 'availability' | 'customDate'>, todayStart: number): number | null {
  if (f.availability === 'any') return null;
  if (f.availability === 'custom') return f.customDate ? Date.parse(`${f.customDate}T00:00:00`) + DAY_MS : null;
  return todayStart + (AVAILABILITY_DAYS[f.availability] + 1) * DAY_MS;
}

/**
 * Applies the list filters. Status: active = deployed with data last night, inactive =
 * deployed without, flagged = the server's `flagged` (At Risk, device not returned). Device availability: the patient's device comes
 * back (return date) by the end of the chosen window, so it can be booked again.
 */
export function filterPatients<T extends ListPatient>(patients: readonly T[], f: ListFilters, now: number, todayStart: number): T[] {
  const year = new Date(now).getFullYear();
  const minAge = f.minAge === '' ? null : Number(f.minAge);
  const maxAge = f.maxAge === '' ? null : Number(f.maxAge);
  const limit = availabilityLimit(f, todayStart);
  return patients.filter((p) => {
    if (f.status === 'active' && !(isDeployed(p, now) && p.recorded_last_night)) return false;
    if (f.status === 'inactive' && !(isDeployed(p, now) && !p.recorded_last_night)) return false;
    if (f.status === 'flagged' && !p.flagged) return false;
    if (minAge !== null || maxAge !== null) {
      const age = ageOf(p, year);
      if (age === null) return false;
      if (minAge !== null && age < minAge) return false;
      if (maxAge !== null && age > maxAge) return false;
    }
    if (limit !== null) {
      const back = num(p.device_deallocation_date);
      if (!p.device_id || back === null || back > limit) return false;
    }
    return matchesSearch(p, f.search);
  });
}
