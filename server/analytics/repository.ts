import type { Queryable } from '../db/adapter';

/** The category labels of a night's live annotations of record (a scorer's marks of a double-scoring round left out). */
export function labelsOfRecord(db: Queryable, recordingId: number): Promise<{ label: string }[]> {
  return db.query<{ label: string }>(
    `select c.label from annotations a join annotation_categories c on c.label_id = a.label where a.recording_id = $1 and a.delete_flag = 0 and a.scoring_round_id is null`,
    [recordingId],
  );
}
