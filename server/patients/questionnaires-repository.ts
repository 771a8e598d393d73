import type { Queryable } from '../db/adapter';
import type { Answers } from '../../contract/questionnaire-rules';
import type { QuestionnaireAnswers } from '../../contract/questionnaires';

/** Keeps the screening answers that cleared an allocation (inside the caller's transaction). */
export async function saveScreening(tx: Queryable, patientId: number, deviceUserMapId: number | null, answers: Answers, userId: number): Promise<void> {
  await tx.query('insert into questionnaire_answers (patient_id, questionnaire, device_user_map_id, answers, answered_by) values ($1, $2, $3, $4, $5)', [
    patientId, 'screening', deviceUserMapId, JSON.stringify(answers), userId,
  ]);
}

/** A patient's questionnaires, newest first; `day` (yyyy-mm-dd in the patient's zone) keeps those answered that day. */
export function answersOf(db: Queryable, patientId: number, zone: string, day: string | null): Promise<QuestionnaireAnswers[]> {
  return db.query<QuestionnaireAnswers>(
    `select q.id, q.questionnaire, q.answers, q.answered_by, trim(u.first_name || ' ' || u.last_name) as answered_by_name,
            to_char(q.answered_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as answered_at,
            d.device_id, q.checkup_date_id, to_char(c.checkup_date, 'YYYY-MM-DD') as checkup_date
     from questionnaire_answers q
     join users u on u.id = q.answered_by
     left join device_allocations a on a.device_user_map_id = q.device_user_map_id
     left join devices d on d.device_master_id = a.device_master_id
     left join checkup_dates c on c.checkup_date_id = q.checkup_date_id
     where q.patient_id = $1 and ($3::text is null or to_char(q.answered_at at time zone $2, 'YYYY-MM-DD') = $3)
     order by q.answered_at desc, q.id desc`,
    [patientId, zone, day],
  );
}

/** A check-up of the patient with whether it is marked complete; null when the patient has no such check-up. */
export async function findCheckup(db: Queryable, checkupDateId: number, patientId: number) {
  const [checkup] = await db.query<{ mark_as_complete_flag: number }>('select mark_as_complete_flag from checkup_dates where checkup_date_id = $1 and patient_id = $2', [checkupDateId, patientId]);
  return checkup ?? null;
}

/** Keeps the check-up questionnaire's answers. */
export async function saveCheckupAnswers(db: Queryable, patientId: number, checkupDateId: number, answers: Answers, userId: number): Promise<void> {
  await db.query('insert into questionnaire_answers (patient_id, questionnaire, checkup_date_id, answers, answered_by) values ($1, $2, $3, $4, $5)', [
    patientId, 'checkup', checkupDateId, JSON.stringify(answers), userId,
  ]);
}
