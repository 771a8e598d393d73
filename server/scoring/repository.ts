/** SQL of double scoring (decision 0989): rounds, their scorers and decisions, and the marks of each set. */
import type { Queryable } from '../db/adapter';
import type { Annotator, Assignment, Decision, RoundStatus } from '../../contract/scoring-rounds';
import type { ScoredMark } from './agreement';
import { ApiError, notFound } from '../errors';
import { actingPhysicianId, type UserRow } from '../auth/users';

export interface RoundRow {
  id: number;
  patient_id: number;
  recording_id: number;
  night_key: number;
  device_id: string | null;
  start_ms: number;
  stop_ms: number;
  created_by: number;
  created_by_name: string;
  created_at: Date;
  show_automatic: boolean;
  status: RoundStatus;
  finished_at: Date | null;
  finished_by_name: string | null;
}

export interface ScorerRow {
  user_id: number;
  name: string;
  position: number;
  submitted_at: Date | null;
  marks: number;
}

const NAME = (u: string) => `trim(coalesce(${u}.first_name, '') || ' ' || coalesce(${u}.last_name, ''))`;

const ROUND_SQL = `select sr.id, sr.patient_id, sr.recording_id, r.night_key, r.device_id, r.start_ms, r.stop_ms, sr.created_by, ${NAME('cu')} as created_by_name,
    sr.created_at, sr.show_automatic, sr.status, sr.finished_at, case when fu.id is null then null else ${NAME('fu')} end as finished_by_name
  from scoring_rounds sr join recordings r on r.id = sr.recording_id join users cu on cu.id = sr.created_by left join users fu on fu.id = sr.finished_by`;

/** Numbers as numbers (bigint columns come back as strings from PostgreSQL). */
const asRound = (r: RoundRow): RoundRow => ({ ...r, id: Number(r.id), patient_id: Number(r.patient_id), recording_id: Number(r.recording_id), night_key: Number(r.night_key), start_ms: Number(r.start_ms), stop_ms: Number(r.stop_ms) });

/** A round by id (locked for the transaction with `lock`), or null. */
export async function findRound(db: Queryable, roundId: number, lock = false): Promise<RoundRow | null> {
  if (lock) await db.query('select id from scoring_rounds where id = $1 for update', [roundId]);
  const [row] = await db.query<RoundRow>(`${ROUND_SQL} where sr.id = $1`, [roundId]);
  return row ? asRound(row) : null;
}

/** The night's latest round (any status), or null. */
export async function latestRound(db: Queryable, recordingId: number): Promise<RoundRow | null> {
  const [row] = await db.query<RoundRow>(`${ROUND_SQL} where sr.recording_id = $1 order by sr.id desc limit 1`, [recordingId]);
  return row ? asRound(row) : null;
}

/** The round's human scorers in the order assigned, with how many live marks each set has. */
export function roundScorers(db: Queryable, roundId: number): Promise<ScorerRow[]> {
  return db.query<ScorerRow>(
    `select s.user_id, ${NAME('u')} as name, s.position, s.submitted_at,
            (select count(*)::int from annotations a where a.scoring_round_id = s.round_id and a.created_by = s.user_id and a.delete_flag = 0) as marks
       from scoring_round_scorers s join users u on u.id = s.user_id where s.round_id = $1 order by s.position`,
    [roundId],
  );
}

/** Active annotators of a practice (who may be assigned its nights). */
export function practiceAnnotators(db: Queryable, physicianId: number): Promise<Annotator[]> {
  return db.query(`select u.id, ${NAME('u')} as name, u.email from users u where u.is_annotator and u.physician_id = $1 and u.status = 'active' order by u.last_name, u.first_name, u.id`, [physicianId]);
}

/** Stores a round and its scorers; 409 scoring_round_open when the night has an open one. */
export async function insertRound(tx: Queryable, r: { patientId: number; recordingId: number; createdBy: number; showAutomatic: boolean; scorerIds: readonly number[] }): Promise<number> {
  const [open] = await tx.query(`select id from scoring_rounds where recording_id = $1 and status in ('scoring', 'agreement')`, [r.recordingId]);
  const refuse = () => new ApiError(409, 'scoring_round_open', 'This night already has a double-scoring round in progress. Finish or cancel it first.');
  if (open) throw refuse();
  let id: number;
  try {
    [{ id }] = await tx.query<{ id: number }>('insert into scoring_rounds (patient_id, recording_id, created_by, show_automatic) values ($1, $2, $3, $4) returning id', [r.patientId, r.recordingId, r.createdBy, r.showAutomatic]);
  } catch (err) {
    // Two assignments of one night at once: the partial unique index keeps one.
    if ((err as { code?: string }).code === '23505') throw refuse();
    throw err;
  }
  for (const [i, userId] of r.scorerIds.entries()) await tx.query('insert into scoring_round_scorers (round_id, user_id, position) values ($1, $2, $3)', [id, userId, i + 1]);
  return Number(id);
}

/** Marks a scorer's set submitted; when every scorer has, the round shows its agreement. */
export async function submitScorer(tx: Queryable, roundId: number, userId: number): Promise<void> {
  await tx.query('update scoring_round_scorers set submitted_at = now() where round_id = $1 and user_id = $2', [roundId, userId]);
  await tx.query(`update scoring_rounds set status = 'agreement' where id = $1 and not exists (select 1 from scoring_round_scorers where round_id = $1 and submitted_at is null)`, [roundId]);
}

export async function setStatus(tx: Queryable, roundId: number, status: RoundStatus, by: number): Promise<void> {
  await tx.query('update scoring_rounds set status = $2, finished_at = now(), finished_by = $3 where id = $1', [roundId, status, by]);
}

export interface DecisionRow {
  item: string;
  decision: Decision;
  decided_by_name: string;
}

export function roundDecisions(db: Queryable, roundId: number): Promise<DecisionRow[]> {
  return db.query<DecisionRow>(`select d.item, d.decision, ${NAME('u')} as decided_by_name from scoring_decisions d join users u on u.id = d.decided_by where d.round_id = $1`, [roundId]);
}

/** Stores a decision; a later one of the same item replaces it. */
export async function saveDecision(db: Queryable, roundId: number, item: string, decision: Decision, by: number): Promise<void> {
  await db.query(
    `insert into scoring_decisions (round_id, item, decision, decided_by) values ($1, $2, $3, $4)
     on conflict (round_id, item) do update set decision = excluded.decision, decided_by = excluded.decided_by, decided_at = now()`,
    [roundId, item, JSON.stringify(decision), by],
  );
}

interface MarkRow {
  start_ms: number;
  end_ms: number;
  label: number;
  label_name: string | null;
  kpi: string;
  created_by: number;
}

const MARK_SQL = `select a.start_ms, a.end_ms, a.label, c.label as label_name, a.kpi, a.created_by from annotations a left join annotation_categories c on c.label_id = a.label`;

const asMark = (r: MarkRow): ScoredMark & { createdBy: number } => ({
  startMs: Number(r.start_ms),
  endMs: Number(r.end_ms),
  label: Number(r.label),
  labelName: r.label_name ?? '',
  kpi: r.kpi,
  createdBy: Number(r.created_by),
});

/** Every live mark of the round's scorers' sets, with its author. */
export async function roundMarks(db: Queryable, roundId: number) {
  return (await db.query<MarkRow>(`${MARK_SQL} where a.scoring_round_id = $1 and a.delete_flag = 0 order by a.start_ms, a.annotation_map_id`, [roundId])).map(asMark);
}

/** Nocturne's automatic marks of record of a night (system and desaturation). */
export async function automaticRecordMarks(db: Queryable, recordingId: number): Promise<ScoredMark[]> {
  const rows = await db.query<MarkRow>(
    `${MARK_SQL} where a.recording_id = $1 and a.delete_flag = 0 and a.scoring_round_id is null and a.type in ('system', 'desaturation') order by a.start_ms, a.annotation_map_id`,
    [recordingId],
  );
  return rows.map(asMark);
}

/** The live marks of record a round's consensus wrote. */
export async function consensusMarks(db: Queryable, roundId: number): Promise<ScoredMark[]> {
  return (await db.query<MarkRow>(`${MARK_SQL} where a.consensus_round_id = $1 and a.scoring_round_id is null and a.delete_flag = 0 order by a.start_ms`, [roundId])).map(asMark);
}

/** The night's latest adjudicated round, or null. */
export async function adjudicatedRound(db: Queryable, recordingId: number): Promise<number | null> {
  const [row] = await db.query<{ id: number }>(`select id from scoring_rounds where recording_id = $1 and status = 'adjudicated' order by finished_at desc, id desc limit 1`, [recordingId]);
  return row ? Number(row.id) : null;
}

/** The latest adjudicated round of each of these recordings that has one (recording id → round id). */
export async function adjudicatedRounds(db: Queryable, recordingIds: readonly number[]): Promise<Map<number, number>> {
  if (recordingIds.length === 0) return new Map();
  const rows = await db.query<{ recording_id: number; id: number }>(
    `select distinct on (recording_id) recording_id, id from scoring_rounds where recording_id = any($1::int[]) and status = 'adjudicated' order by recording_id, finished_at desc, id desc`,
    [recordingIds],
  );
  return new Map(rows.map((r) => [Number(r.recording_id), Number(r.id)]));
}

/** The user's last `n` adjudicated rounds as a scorer, newest first. */
export async function adjudicatedRoundsOf(db: Queryable, userId: number, n: number): Promise<RoundRow[]> {
  const rows = await db.query<RoundRow>(
    `${ROUND_SQL} join scoring_round_scorers ss on ss.round_id = sr.id and ss.user_id = $1 where sr.status = 'adjudicated' order by sr.finished_at desc, sr.id desc limit $2`,
    [userId, n],
  );
  return rows.map(asRound);
}

/** The rounds the user scores or scored, newest first. */
export async function assignmentsOf(db: Queryable, userId: number): Promise<Omit<Assignment, 'recording_date'>[]> {
  return assignmentRows(
    db,
    `select sr.id as round_id, sr.patient_id, p.patient_code, ${NAME('p')} as patient_name, r.night_key as night, r.device_id, sr.status, ss.submitted_at, sr.created_at, ${NAME('cu')} as created_by_name
       from scoring_round_scorers ss join scoring_rounds sr on sr.id = ss.round_id join recordings r on r.id = sr.recording_id
       join patients p on p.id = sr.patient_id join users cu on cu.id = sr.created_by
      where ss.user_id = $1 order by sr.id desc limit 200`,
    userId,
  );
}

/** A physician's view of the list: every round of their practice's patients, newest first (no submission of their own). */
export async function practiceRoundsOf(db: Queryable, physicianId: number): Promise<Omit<Assignment, 'recording_date'>[]> {
  return assignmentRows(
    db,
    `select sr.id as round_id, sr.patient_id, p.patient_code, ${NAME('p')} as patient_name, r.night_key as night, r.device_id, sr.status, null as submitted_at, sr.created_at, ${NAME('cu')} as created_by_name
       from scoring_rounds sr join recordings r on r.id = sr.recording_id join patients p on p.id = sr.patient_id join users cu on cu.id = sr.created_by
      where p.physician_id = $1 order by sr.id desc limit 200`,
    physicianId,
  );
}

async function assignmentRows(db: Queryable, sql: string, id: number): Promise<Omit<Assignment, 'recording_date'>[]> {
  const rows = await db.query<{ round_id: number; patient_id: number; patient_code: string; patient_name: string; night: number; device_id: string | null; status: RoundStatus; submitted_at: Date | null; created_at: Date; created_by_name: string }>(sql, [id]);
  return rows.map((r) => ({ ...r, round_id: Number(r.round_id), night: Number(r.night), submitted_at: r.submitted_at ? new Date(r.submitted_at).toISOString() : null, created_at: new Date(r.created_at).toISOString() }));
}

/**
 * The person whose quality the caller may read: themselves, or (for a physician of the
 * practice, not an annotator) an annotator of the practice; anyone else is 404.
 */
export async function annotatorOf(db: Queryable, caller: UserRow, userId: number): Promise<{ id: number; name: string }> {
  const [row] = await db.query<{ id: number; name: string; is_annotator: boolean; physician_id: number | null }>(`select u.id, ${NAME('u')} as name, u.is_annotator, u.physician_id from users u where u.id = $1`, [userId]);
  if (row && row.id === caller.id) return { id: row.id, name: row.name };
  const mayRead = row && row.is_annotator && !caller.is_annotator && caller.role !== 'admin' && row.physician_id === actingPhysicianId(caller);
  if (!mayRead) throw notFound('account');
  return { id: row.id, name: row.name };
}
