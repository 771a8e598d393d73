/** Year of birth from a year number, an ISO date or a date-time; null when unreadable. */
export function birthYear(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'number') return value > 999 && value < 10000 ? value : new Date(value).getUTCFullYear();
  const match = /^(\d{4})/.exec(value.trim());
  return match ? Number(match[1]) : null;
}

export type GenderKey = 'male' | 'female' | 'other';

/** Normalises the server's gender spelling (M, male, Female…) to a catalogue key. */
export function genderKey(value: string | null): GenderKey | null {
  if (!value) return null;
  const v = value.trim().toLowerCase();
  if (v === 'm' || v === 'male') return 'male';
  if (v === 'f' || v === 'female') return 'female';
  return 'other';
}

/** "First Last", or null when the patient is known by code only. */
export function fullName(p: { first_name: string | null; last_name: string | null }): string | null {
  const name = [p.first_name, p.last_name].filter((s) => s && s.trim()).join(' ');
  return name || null;
}

export type RiskKey = 'notKnown' | 'stable' | 'atRisk' | 'control';

/** The at_risk code as spec 1 §3 gives it: null Not Known, 0 Stable, 1 At Risk, 2 Control. */
export function riskKey(value: number | null | undefined): RiskKey {
  if (value === 0) return 'stable';
  if (value === 1) return 'atRisk';
  if (value === 2) return 'control';
  return 'notKnown';
}
