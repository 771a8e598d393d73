/**
 * What the double-scoring routes do at length (decision 0989): the scorers' sets of a round,
 * its agreement, its disagreements, the consensus written as the night's marks of record, and
 * an annotator's agreement with consensus over their last nights.
 */
import type { Db, Queryable } from '../db/adapter';
import type { Agreement, Disagreement, DisagreementOption, DisagreementsAnswer, QualityNight, RoundScorer, ScoringRound } from '../../contract/scoring-rounds';
import { EPOCH_S } from '../../contract/scoring-rounds';
import { agreementOf, epochGrid, epochStages, pooledF1, respiratoryEvents, stageAgreement, eventCategoryOf, type IndexHours, type ScoredMark, type ScorerMarks } from './agreement';
import { consensusOf, disagreementsOf, type Disagreements } from './consensus';
import { automaticRecordMarks, consensusMarks, findRound, roundDecisions, roundMarks, roundScorers, setStatus, type RoundRow, type ScorerRow } from './repository';
import { analysisOf } from '../analytics/analyse';
import { analyticsSettings } from '../analytics/settings';
import { indexFigures, round2 } from '../analytics/figures';
import { loadDeviceEvents } from '../annotations/device';
import { listCategories } from '../annotations/repository';
import { recordHistory } from '../annotations/shared';
import { findRecording, type RecordingRow } from '../recordings/store';
import { ApiError } from '../errors';
import type { NightAnalysis } from '../../engine/detect';

const userKey = (id: number) => `user:${id}`;
const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

/** The night's grid of 30-s epochs. */
const gridOf = (round: Pick<RoundRow, 'start_ms' | 'stop_ms'>) => epochGrid(Number(round.start_ms), Number(round.stop_ms));

/** Each human scorer's set, in the order assigned. */
async function humanSets(db: Queryable, round: RoundRow, scorers?: readonly ScorerRow[]): Promise<ScorerMarks[]> {
  const all = await roundMarks(db, round.id);
  return (scorers ?? (await roundScorers(db, round.id))).map((s) => ({ key: userKey(s.user_id), marks: all.filter((m) => m.createdBy === s.user_id) }));
}

/** The round as every answer shows it; a blind caller is told the size of their own set only. */
export async function presentRound(db: Queryable, round: RoundRow, callerId: number): Promise<ScoringRound> {
  const scorers = await roundScorers(db, round.id);
  const blind = round.status === 'scoring' && scorers.some((s) => s.user_id === callerId);
  let undecided = 0;
  if (round.status === 'agreement') undecided = (await undecidedItems(db, round)).length;
  return {
    round_id: round.id,
    patient_id: round.patient_id,
    recording_id: round.recording_id,
    night: round.night_key,
    device_id: round.device_id,
    status: round.status,
    show_automatic: round.show_automatic,
    created_by: round.created_by,
    created_by_name: round.created_by_name,
    created_at: iso(round.created_at)!,
    scorers: scorers.map((s) => ({ key: userKey(s.user_id), kind: 'human', user_id: s.user_id, name: s.name, submitted_at: iso(s.submitted_at), marks: blind && s.user_id !== callerId ? 0 : s.marks })),
    blind,
    undecided,
    finished_at: iso(round.finished_at),
    finished_by_name: round.finished_by_name,
  };
}

/** Where the human scorers differ, and the decisions taken so far. */
async function itemsOf(db: Queryable, round: RoundRow) {
  const d = disagreementsOf(gridOf(round), await humanSets(db, round));
  const decisions = new Map((await roundDecisions(db, round.id)).map((r) => [r.item, r]));
  return { d, decisions };
}

async function undecidedItems(db: Queryable, round: RoundRow) {
  const { d, decisions } = await itemsOf(db, round);
  return d.items.filter((i) => !decisions.has(i.item));
}

/** GET /scoring/rounds/disagreements: every disagreement with each scorer's marks and its decision. */
export async function disagreementsAnswer(db: Queryable, round: RoundRow): Promise<DisagreementsAnswer & { disagreements: Disagreements }> {
  const { d, decisions } = await itemsOf(db, round);
  const items: Disagreement[] = d.items.map((i) => ({
    item: i.item,
    kind: i.kind,
    category: i.category,
    start_ms: i.startMs,
    end_ms: i.endMs,
    options: i.options.map((o): DisagreementOption => ({ scorer: o.scorer, marks: o.marks.map((m) => ({ start_ms: m.startMs, end_ms: m.endMs, label: m.label, label_name: m.labelName, kpi: m.kpi })) })),
    decision: decisions.get(i.item)?.decision ?? null,
    decided_by_name: decisions.get(i.item)?.decided_by_name ?? null,
  }));
  return { round_id: round.id, items, agreed: d.agreed, disagreements: d };
}

/** Device-scored kinds under the category names the agreement counts them in. */
const DEVICE_NAMES: Readonly<Record<string, string>> = { hypopnea: 'Hypoapnea', desaturation: 'Desaturation', arousal: 'Arousal' };
const deviceName = (kind: string, text: string) => (kind.endsWith('apnea') ? 'Apnea' : (DEVICE_NAMES[kind] ?? text));

/** Nocturne's set: its marks of record, or (none generated) the engine's events of the night's analysis. */
function automaticSet(marks: readonly ScoredMark[], a: NightAnalysis): ScorerMarks {
  if (marks.length > 0) return { key: 'automatic', marks };
  const names = { apnea: 'Apnea', hypopnea: 'Hypoapnea', desaturation: 'Desaturation' } as Record<string, string>;
  const events = [...a.respiratory, ...a.desaturations].filter((e) => names[e.kind]);
  return { key: 'automatic', marks: events.map((e) => ({ startMs: Math.round(e.onsetMs), endMs: Math.round(e.onsetMs + Math.max(1000, e.durationMs)), label: 0, labelName: names[e.kind]!, kpi: e.kind === 'desaturation' ? 'DSAT' : 'AP_timing' })) };
}

/** The hours the night's AHI is counted over, as its summary counts them. */
function indexHoursOf(a: NightAnalysis): IndexHours {
  const index = indexFigures(a);
  const basis = index.indexBasis;
  return { basis, hours: index.ahiHoursH, breathing: index.ahiBasis !== 'no_breathing_signal' };
}

async function nightAnalysis(db: Queryable, round: RoundRow): Promise<{ recording: RecordingRow; analysis: NightAnalysis }> {
  const recording = (await findRecording(db, round.patient_id, round.recording_id))!;
  const [p] = await db.query<{ physician_id: number }>('select coalesce(sample_practice_id, physician_id) as physician_id from patients where id = $1', [round.patient_id]);
  return { recording, analysis: await analysisOf(db, recording, await analyticsSettings(db, p!.physician_id)) };
}

/** GET /scoring/rounds/agreement: the humans, Nocturne, the device (when it scored) and, once adjudicated, the consensus. */
export async function agreementAnswer(db: Queryable, round: RoundRow, callerId: number): Promise<Agreement> {
  const { analysis } = await nightAnalysis(db, round);
  const shown = await presentRound(db, round, callerId);
  const sets = await humanSets(db, round);
  const extra: RoundScorer[] = [];
  const add = (set: ScorerMarks, kind: RoundScorer['kind'], name: string) => {
    sets.push(set);
    extra.push({ key: set.key, kind, user_id: null, name, submitted_at: null, marks: set.marks.length });
  };
  add(automaticSet(await automaticRecordMarks(db, round.recording_id), analysis), 'automatic', 'Nocturne');
  const device = await loadDeviceEvents(db, [round.recording_id]);
  if (device.length > 0) {
    const marks = device.map((e) => ({ startMs: Number(e.onset_ms), endMs: Number(e.onset_ms) + Math.max(1000, Number(e.duration_ms)), label: 0, labelName: deviceName(e.kind, e.text), kpi: 'AP_timing' }));
    add({ key: 'device', marks }, 'device', device[0]!.vendor || 'Device');
  }
  if (round.status === 'adjudicated') add({ key: 'consensus', marks: await consensusMarks(db, round.id) }, 'consensus', 'Consensus');
  const figures = agreementOf(gridOf(round), sets, indexHoursOf(analysis));
  return { round_id: round.id, epoch_s: EPOCH_S, scorers: [...shown.scorers, ...extra], matching_rule: 'overlap_one_to_one', ...figures };
}

/** The consensus marks of a round whose every disagreement is decided (409 scoring_undecided otherwise). */
async function consensusToWrite(db: Queryable, round: RoundRow, d: Disagreements) {
  const decisions = new Map((await roundDecisions(db, round.id)).map((r) => [r.item, r.decision]));
  const open = d.items.filter((i) => !decisions.has(i.item)).length;
  if (open > 0) throw new ApiError(409, 'scoring_undecided', `${open} disagreements are still to be decided.`, { params: { count: open } });
  const categories = await listCategories(db, round.patient_id);
  const nameOf = (label: number) => categories.find((c) => c.label_id === label)?.label ?? '';
  return { marks: consensusOf(gridOf(round), d, decisions, nameOf), categories };
}

/**
 * POST /scoring/rounds/finish, in one transaction: the night's human marks of record are
 * deleted (kept in their history), the consensus is written as marks of record of the
 * physician who finished, and the round is adjudicated. Every scorer's set stays as it was.
 */
export function finishRound(db: Db, roundId: number, by: number, doctorId: number): Promise<number> {
  return db.transaction(async (tx) => {
    const round = await findRound(tx, roundId, true);
    if (!round || round.status !== 'agreement') throw new ApiError(409, 'scoring_round_closed', 'This round is not waiting for adjudication.');
    const { marks, categories } = await consensusToWrite(tx, round, disagreementsOf(gridOf(round), await humanSets(tx, round)));
    const old = await tx.query<Record<string, unknown> & { annotation_map_id: number; version: number }>(
      `update annotations set delete_flag = 1, updated_by = $2, updated_date = now(), version = version + 1
        where recording_id = $1 and delete_flag = 0 and scoring_round_id is null and type in ('custom', 'system-edit') returning *`,
      [round.recording_id, by],
    );
    for (const o of old) await recordHistory(tx, { annotationId: o.annotation_map_id, action: 'delete', version: o.version, by, previous: null, current: { delete_flag: 1, reason: 'consensus', round_id: round.id } });
    for (const m of marks) {
      const color = categories.find((c) => c.label_id === m.label)?.color_code ?? '#DA7171';
      const [row] = await tx.query<{ annotation_map_id: number }>(
        `insert into annotations (patient_id, recording_id, night, device_id, type, kpi, start_ms, end_ms, comment, label, color_code, doctor_id, created_by, updated_by, consensus_round_id)
         values ($1, $2, $3, $4, 'custom', $5, $6, $7, '', $8, $9, $10, $11, $11, $12) returning *`,
        [round.patient_id, round.recording_id, round.night_key, round.device_id, m.kpi, m.startMs, m.endMs, m.label, color, doctorId, by, round.id],
      );
      await recordHistory(tx, { annotationId: row!.annotation_map_id, action: 'create', version: 1, by, previous: null, current: row });
    }
    await setStatus(tx, round.id, 'adjudicated', by);
    return marks.length;
  });
}

/** Apneas and hypopneas of the night's consensus, when it has an adjudicated round: what its summary counts. */
export async function consensusEvents(db: Queryable, recording: RecordingRow, roundId: number) {
  const set = { key: 'consensus', marks: await consensusMarks(db, roundId) };
  const grid = epochGrid(Number(recording.start_ms), Number(recording.stop_ms));
  const stages = epochStages(grid, set.marks);
  const only = (category: string) => ({ key: set.key, marks: set.marks.filter((m) => eventCategoryOf(m.labelName) === category) });
  return { apneas: respiratoryEvents(grid, only('apnea'), stages), hypopneas: respiratoryEvents(grid, only('hypopnea'), stages) };
}

/** Consensus AHI over the summary's hours (null where the summary's AHI is "–"). */
export const consensusAhi = (events: number, a: NightAnalysis) => {
  const h = indexHoursOf(a);
  return h.breathing && h.hours > 0 ? round2(events / h.hours) : null;
};

/** One adjudicated night of an annotator against its consensus: κ of staging, event F1 pooled over categories. */
export async function qualityNight(db: Queryable, round: RoundRow, userId: number): Promise<QualityNight> {
  const grid = gridOf(round);
  const mine = { key: userKey(userId), marks: (await roundMarks(db, round.id)).filter((m) => m.createdBy === userId) };
  const consensus = { key: 'consensus', marks: await consensusMarks(db, round.id) };
  const kappa = stageAgreement(mine.key, consensus.key, epochStages(grid, mine.marks), epochStages(grid, consensus.marks)).kappa;
  return { round_id: round.id, patient_id: round.patient_id, night: round.night_key, finished_at: iso(round.finished_at)!, kappa, event_f1: pooledF1(mine, consensus) };
}
