// GET /physician/triage's answer: the one definition the server fills and the dashboard
// reads (types only).

export interface TriageNight {
  night: number;
  recording_id: number;
  /** Whether the night's analysis (and SpO2 statistics) are stored yet. */
  analysed: boolean;
  ahi?: number | null;
  odi?: number | null;
  index_basis: 'sleep' | 'monitoring' | null;
  /** 'no_breathing_signal': AHI is null for want of a breathing signal (shown "–" with the reason). */
  ahi_basis?: 'breathing_signal' | 'no_breathing_signal' | null;
  lowest_spo2: number | null;
  hours: number | null;
}

export interface TriagePatient {
  patient_id: number;
  patient_code: string;
  name: string;
  flagged: boolean;
  /** 0 none … 3 severe (docs/decisions/0107-triage-order.md); null without an analysed last night. */
  attention: number | null;
  last: TriageNight | null;
  /** The nights of the last TRIAGE_NIGHTS days up to the last one, oldest first. */
  nights: TriageNight[];
}

export interface Triage {
  patients: TriagePatient[];
  /** Nights of the table not analysed yet (POST /physician/triage/prepare analyses a few). */
  pending: number;
  /** Nights a sparkline spans. */
  nights: number;
}
