/**
 * Blindness of double scoring (decision 0989), one rule for every read of annotations: while a
 * round is being scored, each of its scorers sees only their own marks of the round, plus the
 * automatic marks of record and the device's events when the physician allowed them; everyone
 * else (and a scorer once the round has left 'scoring') sees the marks of record only.
 */
import type { Queryable } from '../db/adapter';
import type { UserRow } from '../auth/users';
import { ApiError, notFound } from '../errors';

/**
 * SQL condition: the annotation `a` is one the user whose id is the parameter `me` may see:
 * a mark of record unless they score its night blind (then only the automatic ones, when
 * shown), or their own mark of a round still being scored.
 */
export function visibleMarkSql(a: string, me: string): string {
  return `((${a}.scoring_round_id is null and not exists (
            select 1 from scoring_rounds sr join scoring_round_scorers ss on ss.round_id = sr.id
             where sr.status = 'scoring' and ss.user_id = ${me} and sr.recording_id = ${a}.recording_id
               and not (sr.show_automatic and ${a}.type in ('system', 'desaturation'))))
        or (${a}.scoring_round_id is not null and ${a}.created_by = ${me}
            and exists (select 1 from scoring_rounds sr where sr.id = ${a}.scoring_round_id and sr.status = 'scoring')))`;
}

/** A round the user scores blind on one night. */
export interface BlindRound {
  roundId: number;
  recordingId: number;
  showAutomatic: boolean;
  submitted: boolean;
}

/** The rounds being scored in which the user is a scorer, by recording (of these recordings, or all). */
export async function blindRounds(db: Queryable, userId: number, recordingIds?: readonly number[]): Promise<Map<number, BlindRound>> {
  const rows = await db.query<{ id: number; recording_id: number; show_automatic: boolean; submitted_at: Date | null }>(
    `select sr.id, sr.recording_id, sr.show_automatic, ss.submitted_at from scoring_rounds sr join scoring_round_scorers ss on ss.round_id = sr.id
      where sr.status = 'scoring' and ss.user_id = $1 and ($2::int[] is null or sr.recording_id = any($2::int[]))`,
    [userId, recordingIds ? [...recordingIds] : null],
  );
  return new Map(rows.map((r) => [Number(r.recording_id), { roundId: Number(r.id), recordingId: Number(r.recording_id), showAutomatic: r.show_automatic, submitted: r.submitted_at !== null }]));
}

/** Whether the user sees the device's events of a night (not while scoring it blind without automatic events). */
export const seesDeviceEvents = (blind: ReadonlyMap<number, BlindRound>, recordingId: number) => {
  const b = blind.get(recordingId);
  return !b || b.showAutomatic;
};

/**
 * The round a new mark of the user on this night belongs to: the round they score blind (null:
 * none, a mark of record). A scorer who submitted adds nothing more (409 scoring_set_frozen).
 */
export async function roundOfNewMark(db: Queryable, user: UserRow, recordingId: number): Promise<number | null> {
  const b = (await blindRounds(db, user.id, [recordingId])).get(recordingId);
  if (!b) {
    await refuseWhileAdjudicated(db, user, recordingId);
    return null;
  }
  if (b.submitted) throw new ApiError(409, 'scoring_set_frozen', 'You submitted your scoring of this night; its marks can no longer change.');
  return b.roundId;
}

/**
 * A scorer of a round waiting for adjudication (all submitted) writes no mark of record: their
 * scoring is in, and Finish replaces the night's human marks of record with the consensus, so
 * such a mark would be lost without a word (409 scoring_set_frozen).
 */
async function refuseWhileAdjudicated(db: Queryable, user: UserRow, recordingId: number): Promise<void> {
  const [r] = await db.query<{ id: number }>(
    `select sr.id from scoring_rounds sr join scoring_round_scorers ss on ss.round_id = sr.id where sr.status = 'agreement' and ss.user_id = $1 and sr.recording_id = $2`,
    [user.id, recordingId],
  );
  if (r) throw new ApiError(409, 'scoring_set_frozen', 'You submitted your scoring of this night and it waits for adjudication: its marks can no longer change, and the consensus will replace the marks of record.');
}

/**
 * Refuses a change the blindness rule does not allow: another scorer's set (404, it is not
 * seen), one's own set once submitted or its round ended (409), and while scoring blind any
 * mark of record (409 scoring_own_marks_only).
 */
export async function guardMarkWrite(db: Queryable, user: UserRow, row: { scoring_round_id: number | null; created_by: number; recording_id: number | null }): Promise<void> {
  if (row.scoring_round_id !== null) {
    if (row.created_by !== user.id) throw notFound('annotation');
    const [r] = await db.query<{ status: string; submitted_at: Date | null }>(
      'select sr.status, ss.submitted_at from scoring_rounds sr join scoring_round_scorers ss on ss.round_id = sr.id where sr.id = $1 and ss.user_id = $2',
      [row.scoring_round_id, user.id],
    );
    if (!r || r.status !== 'scoring' || r.submitted_at !== null) throw new ApiError(409, 'scoring_set_frozen', 'This scoring was submitted or its round has ended; its marks can no longer change.');
    return;
  }
  if (row.recording_id !== null && (await blindRounds(db, user.id, [row.recording_id])).has(row.recording_id)) {
    throw new ApiError(409, 'scoring_own_marks_only', 'While you score this night blind, you can change only your own marks of the round.');
  }
  if (row.recording_id !== null) await refuseWhileAdjudicated(db, user, row.recording_id);
}
