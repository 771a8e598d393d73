/**
 * Double scoring (issue 36 points 2–3): a physician assigns a night to two or more annotators,
 * who score it blind; once every one has submitted, the night shows their agreement (and the
 * automatic scorers'), the physician adjudicates every disagreement, and the consensus becomes
 * the night's annotations of record. Request schemas and the answers' shapes, shared by the
 * server and the browser.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Enum, Nullable, Strict, id } from './common';
import { Answer } from './answers';

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

const Str = Type.String();
const Num = Type.Number();
const Int = Type.Integer();
const When = Type.String();

/** A scorer of a round as every answer names them. */
export const RoundScorer = Type.Object({
  /** 'user:<id>' for an annotator, 'automatic' for Nocturne's detectors, 'device' for the device's own events, 'consensus'. */
  key: Str,
  kind: Enum(['human', 'automatic', 'device', 'consensus']),
  user_id: Nullable(Int),
  name: Str,
  /** When a human scorer submitted (ISO), null while scoring; null for the others. */
  submitted_at: Nullable(When),
  /** Marks in this scorer's set (human: their own in the round). */
  marks: Int,
});
export type RoundScorer = Static<typeof RoundScorer>;

/** A double-scoring round of one night. */
export const ScoringRound = Type.Object({
  round_id: Int,
  patient_id: Int,
  recording_id: Int,
  night: Num,
  device_id: Nullable(Str),
  status: RoundStatus,
  show_automatic: Type.Boolean(),
  created_by: Int,
  created_by_name: Str,
  created_at: When,
  /** The human scorers, in the order assigned. */
  scorers: Type.Array(RoundScorer),
  /**
   * The caller is a scorer of this round and the round is still in 'scoring': they see only their
   * own marks (also after submitting, until every scorer has; decision 0989). While blind, the
   * other scorers' `marks` read 0.
   */
  blind: Type.Boolean(),
  /** Disagreements still to settle (agreement status only; 0 otherwise). */
  undecided: Int,
  finished_at: Nullable(When),
  finished_by_name: Nullable(Str),
});
export type ScoringRound = Static<typeof ScoringRound>;

export const RoundAnswer = Type.Object({ round: Nullable(ScoringRound) });
export type RoundAnswer = Static<typeof RoundAnswer>;

export const Annotator = Type.Object({ id: Int, name: Str, email: Str });
export type Annotator = Static<typeof Annotator>;

/** GET /scoring/annotators. */
export const AnnotatorsAnswer = Type.Object({ annotators: Type.Array(Annotator) });
export type AnnotatorsAnswer = Static<typeof AnnotatorsAnswer>;

/** POST /scoring/rounds/finish: the adjudicated round and how many consensus marks became marks of record. */
export const FinishAnswer = Type.Object({ round: ScoringRound, consensus_marks: Int });
export type FinishAnswer = Static<typeof FinishAnswer>;

/**
 * Where a night summary's apneas, hypopneas and AHI come from (its `events_source`, beside
 * `events_round_id`): the consensus of the night's latest adjudicated round, or Nocturne's detectors.
 */
export type EventsSource = 'consensus' | 'automatic';

/** A round the caller scores, for their list of assignments. */
export const Assignment = Type.Object({
  round_id: Int,
  patient_id: Int,
  patient_code: Str,
  patient_name: Str,
  night: Num,
  recording_date: Str,
  device_id: Nullable(Str),
  status: RoundStatus,
  submitted_at: Nullable(When),
  created_at: When,
  created_by_name: Str,
});
export type Assignment = Static<typeof Assignment>;

/** GET /scoring/assignments: the rounds the caller scores or scored, newest first. */
export const AssignmentsAnswer = Type.Object({ assignments: Type.Array(Assignment) });
export type AssignmentsAnswer = Static<typeof AssignmentsAnswer>;

/** Why a figure is "–": no stage marks by one side, no common scored epochs, no hour to count per. */
export const AgreementReason = Enum(['no_stage_marks', 'no_common_epochs', 'no_events', 'no_hours', 'no_breathing_signal']);
export type AgreementReason = Static<typeof AgreementReason>;

/** Stage agreement of two scorers over the 30-s epochs both scored. */
export const StageAgreement = Type.Object({
  a: Str,
  b: Str,
  /** Epochs both scored. */
  epochs: Int,
  /** Percent of those epochs with the same stage, 0–100, or null with reason. */
  percent: Nullable(Num),
  /** Cohen's κ over those epochs, or null with reason. */
  kappa: Nullable(Num),
  reason: Nullable(AgreementReason),
});
export type StageAgreement = Static<typeof StageAgreement>;

/** Event agreement of two scorers in one category (one-to-one matching, `a` as reference). */
export const EventAgreement = Type.Object({
  category: Str,
  a: Str,
  b: Str,
  a_count: Int,
  b_count: Int,
  matched: Int,
  /** matched / a_count (null: a has none). */
  sensitivity: Nullable(Num),
  /** matched / b_count (null: b has none). */
  ppv: Nullable(Num),
  /** 2·matched / (a_count + b_count) (null: neither has any). */
  f1: Nullable(Num),
});
export type EventAgreement = Static<typeof EventAgreement>;

export const ScorerIndex = Type.Object({
  scorer: Str,
  /** Apneas and hypopneas in the scorer's set. */
  events: Int,
  /** Per hour of `basis`; null with reason. */
  ahi: Nullable(Num),
  hours: Nullable(Num),
  basis: Nullable(Enum(['sleep', 'monitoring'])),
  reason: Nullable(AgreementReason),
});
export type ScorerIndex = Static<typeof ScorerIndex>;

/** GET /scoring/rounds/agreement (once every scorer has submitted). */
export const Agreement = Type.Object({
  round_id: Int,
  epoch_s: Int,
  scorers: Type.Array(RoundScorer),
  /** The matching rule, as a code the screens explain: one-to-one, overlapping in time, greatest overlap first. */
  matching_rule: Type.Literal('overlap_one_to_one'),
  staging: Type.Array(StageAgreement),
  events: Type.Array(EventAgreement),
  ahi: Type.Array(ScorerIndex),
});
export type Agreement = Static<typeof Agreement>;

/** One scorer's marks inside a disagreement. */
export const DisagreementOption = Type.Object({
  scorer: Str,
  marks: Type.Array(Type.Object({ start_ms: Num, end_ms: Num, label: Int, label_name: Str, kpi: Str })),
});
export type DisagreementOption = Static<typeof DisagreementOption>;

/** A span where the human scorers differ: an event cluster of one category, or a run of epochs. */
export const Disagreement = Type.Object({
  /** Stable key: 'event:<category>:<start_ms>' or 'stage:<start_ms>'. */
  item: Str,
  kind: Enum(['event', 'stage']),
  category: Str,
  start_ms: Num,
  end_ms: Num,
  options: Type.Array(DisagreementOption),
  decision: Nullable(Decision),
  decided_by_name: Nullable(Str),
});
export type Disagreement = Static<typeof Disagreement>;

/** GET /scoring/rounds/disagreements. */
export const DisagreementsAnswer = Type.Object({
  round_id: Int,
  items: Type.Array(Disagreement),
  /** Spans every human scorer agreed on (they enter the consensus as they are). */
  agreed: Int,
});
export type DisagreementsAnswer = Static<typeof DisagreementsAnswer>;

/** One adjudicated night of an annotator against its consensus. */
export const QualityNight = Type.Object({
  round_id: Int,
  patient_id: Int,
  night: Num,
  finished_at: When,
  kappa: Nullable(Num),
  event_f1: Nullable(Num),
});
export type QualityNight = Static<typeof QualityNight>;

/** GET /scoring/quality. */
export const ScorerQuality = Type.Object({
  user_id: Int,
  name: Str,
  nights: Type.Array(QualityNight),
  /** Means over the nights with a value (null: none). */
  mean_kappa: Nullable(Num),
  mean_event_f1: Nullable(Num),
});
export type ScorerQuality = Static<typeof ScorerQuality>;

/** The routes of double scoring (contract/api.ts). */
export const scoringEndpoints = {
  'GET /scoring/rounds': { querystring: RoundQuery, response: { 200: Answer(RoundAnswer) } },
  'GET /scoring/annotators': { querystring: AnnotatorsQuery, response: { 200: Answer(AnnotatorsAnswer) } },
  'POST /scoring/rounds': { body: CreateRoundBody, response: { 201: Answer(RoundAnswer) } },
  'GET /scoring/assignments': { response: { 200: Answer(AssignmentsAnswer) } },
  'POST /scoring/rounds/submit': { body: RoundRef, response: { 200: Answer(RoundAnswer) } },
  'POST /scoring/rounds/cancel': { body: RoundRef, response: { 200: Answer(RoundAnswer) } },
  'GET /scoring/rounds/agreement': { querystring: RoundRef, response: { 200: Answer(Agreement) } },
  'GET /scoring/rounds/disagreements': { querystring: RoundRef, response: { 200: Answer(DisagreementsAnswer) } },
  'POST /scoring/rounds/decide': { body: DecideBody, response: { 200: Answer(DisagreementsAnswer) } },
  'POST /scoring/rounds/finish': { body: RoundRef, response: { 200: Answer(FinishAnswer) } },
  'GET /scoring/quality': { querystring: QualityQuery, response: { 200: Answer(ScorerQuality) } },
};
