/**
 * Double scoring (issue 36 points 2–3): a physician assigns a night to two or more annotators,
 * who score it blind; once every one has submitted, the night shows their agreement (and the
 * automatic scorers'), the physician adjudicates every disagreement, and the consensus becomes
 * the night's annotations of record. Request schemas and the answers' shapes, shared by the
 * server and the browser.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Enum, Strict, id } from './common';

const ms = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });

/** The night: the patient, the night's key (Unix seconds) or date, and the device when the night has several. */
const nightFields = {
  patient_id: id,
  night: Type.Optional(Type.Integer({ minimum: 0 })),
  recording_date: Type.Optional(Type.String({ maxLength: 20 })),
  device_id: Type.Optional(Type.String({ maxLength: 40 })),
};

/** Most scorers one round may have. */
export const MAX_SCORERS = 6;
/** Length of a scoring epoch (AASM), seconds. */
export const EPOCH_S = 30;

/** GET /scoring/rounds: the night's latest round (null: none). */
export const RoundQuery = Strict(nightFields);
export type RoundQuery = Static<typeof RoundQuery>;

/** GET /scoring/annotators: who may score this patient's nights (the physician's annotators). */
export const AnnotatorsQuery = Strict({ patient_id: id });
export type AnnotatorsQuery = Static<typeof AnnotatorsQuery>;

/** POST /scoring/rounds: assign the night to two or more annotators. */
export const CreateRoundBody = Strict({
  ...nightFields,
  scorer_ids: Type.Array(id, { minItems: 2, maxItems: MAX_SCORERS, uniqueItems: true }),
  /** Scorers see the device's and Nocturne's automatic events while they score. */
  show_automatic: Type.Boolean(),
});
export type CreateRoundBody = Static<typeof CreateRoundBody>;

/** POST /scoring/rounds/submit, /cancel and /finish; GET /scoring/rounds/agreement and /disagreements. */
export const RoundRef = Strict({ round_id: id });
export type RoundRef = Static<typeof RoundRef>;

/** How a disagreement is settled: one scorer's marks, none of them, or a new mark. */
export const Decision = Type.Union([
  Strict({ kind: Type.Literal('scorer'), scorer: Type.String({ maxLength: 40 }) }),
  Strict({ kind: Type.Literal('none') }),
  Strict({ kind: Type.Literal('mark'), start_ms: ms, end_ms: ms, label: id }),
]);
export type Decision = Static<typeof Decision>;

/** POST /scoring/rounds/decide: settle one disagreement (again: the later decision wins). */
export const DecideBody = Strict({ round_id: id, item: Type.String({ minLength: 1, maxLength: 80 }), decision: Decision });
export type DecideBody = Static<typeof DecideBody>;

/** GET /scoring/quality: one annotator's agreement with consensus over their last adjudicated nights. */
export const QualityQuery = Strict({ user_id: Type.Optional(id), nights: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })) });
export type QualityQuery = Static<typeof QualityQuery>;

export const RoundStatus = Enum(['scoring', 'agreement', 'adjudicated', 'cancelled']);
export type RoundStatus = Static<typeof RoundStatus>;

/** A scorer of a round as every answer names them. */
export interface RoundScorer {
  /** 'user:<id>' for an annotator, 'automatic' for Nocturne's detectors, 'device' for the device's own events, 'consensus'. */
  key: string;
  kind: 'human' | 'automatic' | 'device' | 'consensus';
  user_id: number | null;
  name: string;
  /** When a human scorer submitted (ISO), null while scoring; null for the others. */
  submitted_at: string | null;
  /** Marks in this scorer's set (human: their own in the round). */
  marks: number;
}

/** A double-scoring round of one night. */
export interface ScoringRound {
  round_id: number;
  patient_id: number;
  recording_id: number;
  night: number;
  device_id: string | null;
  status: RoundStatus;
  show_automatic: boolean;
  created_by: number;
  created_by_name: string;
  created_at: string;
  /** The human scorers, in the order assigned. */
  scorers: RoundScorer[];
  /**
   * The caller is a scorer of this round and the round is still in 'scoring': they see only their
   * own marks (also after submitting, until every scorer has; decision 0989). While blind, the
   * other scorers' `marks` read 0.
   */
  blind: boolean;
  /** Disagreements still to settle (agreement status only; 0 otherwise). */
  undecided: number;
  finished_at: string | null;
  finished_by_name: string | null;
}

export interface RoundAnswer {
  round: ScoringRound | null;
}

export interface Annotator {
  id: number;
  name: string;
  email: string;
}

/** GET /scoring/annotators. */
export interface AnnotatorsAnswer {
  annotators: Annotator[];
}

/** POST /scoring/rounds/finish: the adjudicated round and how many consensus marks became marks of record. */
export interface FinishAnswer {
  round: ScoringRound;
  consensus_marks: number;
}

/**
 * Where a night summary's apneas, hypopneas and AHI come from (its `events_source`, beside
 * `events_round_id`): the consensus of the night's latest adjudicated round, or Nocturne's detectors.
 */
export type EventsSource = 'consensus' | 'automatic';

/** A round the caller scores, for their list of assignments. */
export interface Assignment {
  round_id: number;
  patient_id: number;
  patient_code: string;
  patient_name: string;
  night: number;
  recording_date: string;
  device_id: string | null;
  status: RoundStatus;
  submitted_at: string | null;
  created_at: string;
  created_by_name: string;
}

/** GET /scoring/assignments: the rounds the caller scores or scored, newest first. */
export interface AssignmentsAnswer {
  assignments: Assignment[];
}

/** Why a figure is "–": no stage marks by one side, no common scored epochs, no hour to count per. */
export type AgreementReason = 'no_stage_marks' | 'no_common_epochs' | 'no_events' | 'no_hours' | 'no_breathing_signal';

/** Stage agreement of two scorers over the 30-s epochs both scored. */
export interface StageAgreement {
  a: string;
  b: string;
  /** Epochs both scored. */
  epochs: number;
  /** Percent of those epochs with the same stage, 0–100, or null with reason. */
  percent: number | null;
  /** Cohen's κ over those epochs, or null with reason. */
  kappa: number | null;
  reason: AgreementReason | null;
}

/** Event agreement of two scorers in one category (one-to-one matching, `a` as reference). */
export interface EventAgreement {
  category: string;
  a: string;
  b: string;
  a_count: number;
  b_count: number;
  matched: number;
  /** matched / a_count (null: a has none). */
  sensitivity: number | null;
  /** matched / b_count (null: b has none). */
  ppv: number | null;
  /** 2·matched / (a_count + b_count) (null: neither has any). */
  f1: number | null;
}

export interface ScorerIndex {
  scorer: string;
  /** Apneas and hypopneas in the scorer's set. */
  events: number;
  /** Per hour of `basis`; null with reason. */
  ahi: number | null;
  hours: number | null;
  basis: 'sleep' | 'monitoring' | null;
  reason: AgreementReason | null;
}

/** GET /scoring/rounds/agreement (once every scorer has submitted). */
export interface Agreement {
  round_id: number;
  epoch_s: number;
  scorers: RoundScorer[];
  /** The matching rule, as a code the screens explain: one-to-one, overlapping in time, greatest overlap first. */
  matching_rule: 'overlap_one_to_one';
  staging: StageAgreement[];
  events: EventAgreement[];
  ahi: ScorerIndex[];
}

/** One scorer's marks inside a disagreement. */
export interface DisagreementOption {
  scorer: string;
  marks: { start_ms: number; end_ms: number; label: number; label_name: string; kpi: string }[];
}

/** A span where the human scorers differ: an event cluster of one category, or a run of epochs. */
export interface Disagreement {
  /** Stable key: 'event:<category>:<start_ms>' or 'stage:<start_ms>'. */
  item: string;
  kind: 'event' | 'stage';
  category: string;
  start_ms: number;
  end_ms: number;
  options: DisagreementOption[];
  decision: Decision | null;
  decided_by_name: string | null;
}

/** GET /scoring/rounds/disagreements. */
export interface DisagreementsAnswer {
  round_id: number;
  items: Disagreement[];
  /** Spans every human scorer agreed on (they enter the consensus as they are). */
  agreed: number;
}

/** One adjudicated night of an annotator against its consensus. */
export interface QualityNight {
  round_id: number;
  patient_id: number;
  night: number;
  finished_at: string;
  kappa: number | null;
  event_f1: number | null;
}

/** GET /scoring/quality. */
export interface ScorerQuality {
  user_id: number;
  name: string;
  nights: QualityNight[];
  /** Means over the nights with a value (null: none). */
  mean_kappa: number | null;
  mean_event_f1: number | null;
}
