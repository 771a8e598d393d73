// GET /physician/triage's answer: the one definition the server fills and serialises and the
// dashboard reads.
import { Type, type Static } from '@sinclair/typebox';
import { Enum, Nullable } from './common';

export const TriageNight = Type.Object({
  night: Type.Number(),
  recording_id: Type.Integer(),
  /** Whether the night's analysis (and SpO2 statistics) are stored yet. */
  analysed: Type.Boolean(),
  /** Absent for paid memberships (spec 2 §1); null without an analysis or a breathing signal. */
  ahi: Type.Optional(Nullable(Type.Number())),
  odi: Type.Optional(Nullable(Type.Number())),
  index_basis: Nullable(Enum(['sleep', 'monitoring'])),
  /** 'no_breathing_signal': AHI is null for want of a breathing signal (shown "–" with the reason). */
  ahi_basis: Type.Optional(Nullable(Enum(['breathing_signal', 'no_breathing_signal', 'no_breathing_signal_in_sleep']))),
  lowest_spo2: Nullable(Type.Number()),
  hours: Nullable(Type.Number()),
});
export type TriageNight = Static<typeof TriageNight>;

export const TriagePatient = Type.Object({
  patient_id: Type.Integer(),
  patient_code: Type.String(),
  name: Type.String(),
  /** At Risk and under care (server/patients/flagged.ts); null while at_risk is not known. */
  flagged: Nullable(Type.Boolean()),
  /** 0 none … 3 severe (docs/decisions/0107-triage-order.md); null without an analysed last night. */
  attention: Nullable(Type.Integer()),
  last: Nullable(TriageNight),
  /** The nights of the last TRIAGE_NIGHTS days up to the last one, oldest first. */
  nights: Type.Array(TriageNight),
});
export type TriagePatient = Static<typeof TriagePatient>;

export const Triage = Type.Object({
  patients: Type.Array(TriagePatient),
  /** Nights of the table not analysed yet (POST /physician/triage/prepare analyses a few). */
  pending: Type.Integer(),
  /** Nights a sparkline spans. */
  nights: Type.Integer(),
});
export type Triage = Static<typeof Triage>;

/** POST /physician/triage/prepare: nights analysed by this call, and those still to analyse. */
export const TriagePrepared = Type.Object({ prepared: Type.Integer(), remaining: Type.Integer() });
