// The dashboard's triage table (issue 14 point 6): rows shaped from stored analyses and
// whole-night statistics, sorted by what needs attention. Pure: the route does the reading.
import type { NightKpis } from '../../engine/detect';
import type { WindowStats } from '../../engine/types';
import { hoursRecorded, indexFigures, lowestSpo2 } from './figures';
import type { TriageNight, TriagePatient } from '../../contract/triage';

export type { TriageNight, TriagePatient } from '../../contract/triage';

/** Nights a sparkline spans, ending at the patient's last night. */
export const TRIAGE_NIGHTS = 14;

/** One night of the table, as read by the route's one query. */
export interface TriageNightRow {
  patient_id: number;
  patient_code: string;
  first_name: string | null;
  last_name: string | null;
  flagged: boolean;
  recording_id: number | null;
  night_key: number | null;
  kpis: NightKpis | null;
  spo2_stats: WindowStats | null;
  /** The PSG's reference oximeter (SPO2_PSG): the night's SpO2 where the oximeter has none valid (figures.ts spo2Stats). */
  spo2_psg_stats: WindowStats | null;
  has_spo2: boolean;
  has_spo2_psg: boolean;
}

/** Whether a night's row has all the table needs: its analysis, and the statistics of each SpO2 channel it has. */
export function isPrepared(r: TriageNightRow): boolean {
  return r.kpis !== null && (!r.has_spo2 || r.spo2_stats !== null) && (!r.has_spo2_psg || r.spo2_psg_stats !== null);
}

/** The night's lowest SpO2 as its summary gives it: the oximeter's, else the PSG's. */
function lowestOf(r: TriageNightRow): number | null {
  const stats = new Map<string, WindowStats>();
  if (r.spo2_stats) stats.set('SPO2', r.spo2_stats);
  if (r.spo2_psg_stats) stats.set('SPO2_PSG', r.spo2_psg_stats);
  return lowestSpo2(stats);
}

/** AHI/REI and ODI severity (AASM: 5 mild, 15 moderate, 30 severe events per hour). */
const INDEX_STEPS = [5, 15, 30] as const;
/** Lowest SpO2 severity: below 90, 85, 80 %. */
const SPO2_STEPS = [90, 85, 80] as const;

const indexLevel = (v: number | null | undefined) => (v === null || v === undefined ? 0 : INDEX_STEPS.filter((s) => v >= s).length);
const spo2Level = (v: number | null) => (v === null ? 0 : SPO2_STEPS.filter((s) => v < s).length);

/** A night's attention level: the worst of its AHI/REI, ODI and lowest-SpO2 severities. */
export function attentionOf(n: TriageNight): number | null {
  if (!n.analysed) return null;
  return Math.max(indexLevel(n.ahi), indexLevel(n.odi), spo2Level(n.lowest_spo2));
}

/** One night's figures from the stored rows; `withIndices` false drops AHI and ODI (paid memberships, spec 2 §1). */
function triageNight(r: TriageNightRow, withIndices: boolean): TriageNight {
  const analysed = isPrepared(r);
  const index = r.kpis ? indexFigures({ kpis: r.kpis }) : null;
  return {
    night: r.night_key!,
    recording_id: r.recording_id!,
    analysed,
    ...(withIndices ? { ahi: index?.ahi ?? null, odi: index?.odi ?? null } : {}),
    index_basis: index?.indexBasis ?? null,
    ahi_basis: index?.ahiBasis ?? null,
    lowest_spo2: lowestOf(r),
    hours: r.kpis ? hoursRecorded({ kpis: r.kpis }) : null,
  };
}

const nullsLast = (a: number | null | undefined, b: number | null | undefined, dir: 1 | -1) => {
  if (a === null || a === undefined) return b === null || b === undefined ? 0 : 1;
  if (b === null || b === undefined) return -1;
  return (a - b) * dir;
};

/**
 * Triage order: attention level (highest first; patients without an analysed night last),
 * then flagged before not, then AHI/REI (highest first), then lowest SpO2 (lowest first),
 * then patient code.
 */
export function compareTriage(a: TriagePatient, b: TriagePatient): number {
  return (
    nullsLast(a.attention, b.attention, -1) ||
    Number(b.flagged) - Number(a.flagged) ||
    nullsLast(a.last?.ahi, b.last?.ahi, -1) ||
    nullsLast(a.last?.lowest_spo2, b.last?.lowest_spo2, 1) ||
    a.patient_code.localeCompare(b.patient_code)
  );
}

/** Groups the query's rows (ordered by patient, then night) into the sorted table. */
export function triageTable(rows: readonly TriageNightRow[], withIndices: boolean): TriagePatient[] {
  const byPatient = new Map<number, TriagePatient>();
  for (const r of rows) {
    let p = byPatient.get(r.patient_id);
    if (!p) {
      const name = [r.first_name, r.last_name].filter(Boolean).join(' ');
      p = { patient_id: r.patient_id, patient_code: r.patient_code, name, flagged: r.flagged, attention: null, last: null, nights: [] };
      byPatient.set(r.patient_id, p);
    }
    if (r.recording_id !== null) p.nights.push(triageNight(r, withIndices));
  }
  for (const p of byPatient.values()) {
    p.last = p.nights.at(-1) ?? null;
    p.attention = p.last ? attentionOf(p.last) : null;
  }
  return [...byPatient.values()].sort(compareTriage);
}
