import type { Queryable } from '../db/adapter';
import type { HistoryKind } from '../../contract/questionnaire-rules';
import type { HistoryEntry } from '../../contract/patient-notes';

const ISO = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
const ENTRY_COLUMNS = `h.id, h.kind, h.entry_ms::float8 as timestamp, h.symptom_medication_value,
  h.created_by, trim(c.first_name || ' ' || c.last_name) as created_by_name,
  h.updated_by, trim(u.first_name || ' ' || u.last_name) as updated_by_name,
  ${ISO('h.created_date')} as created_date, ${ISO('h.updated_date')} as updated_date`;
const ENTRY_FROM = 'patient_history_entries h join users c on c.id = h.created_by join users u on u.id = h.updated_by';

/** A patient's live entries of one kind, newest first. */
export function historyOf(db: Queryable, patientId: number, kind: HistoryKind): Promise<HistoryEntry[]> {
  return db.query<HistoryEntry>(
    `select ${ENTRY_COLUMNS} from ${ENTRY_FROM} where h.patient_id = $1 and h.kind = $2 and h.delete_flag = 0 order by h.entry_ms desc, h.id desc`,
    [patientId, kind],
  );
}

/** The live entry `entryId` of the patient (undefined: none, or removed). */
export async function findLiveEntry(db: Queryable, patientId: number, entryId: number): Promise<{ id: number; kind: HistoryKind } | undefined> {
  const [row] = await db.query<{ id: number; kind: HistoryKind }>('select id, kind from patient_history_entries where id = $1 and patient_id = $2 and delete_flag = 0', [entryId, patientId]);
  return row;
}

/** A new history entry of the patient, written by the user. */
export interface NewHistoryEntry {
  patientId: number;
  kind: HistoryKind;
  timestamp: number;
  value: string;
  userId: number;
}

/** Adds an entry to a patient's history. */
export async function insertHistoryEntry(db: Queryable, e: NewHistoryEntry): Promise<void> {
  await db.query(
    'insert into patient_history_entries (patient_id, kind, entry_ms, symptom_medication_value, created_by, updated_by) values ($1, $2, $3, $4, $5, $5)',
    [e.patientId, e.kind, e.timestamp, e.value, e.userId],
  );
}

/** Changes a live entry's time and value. */
export async function updateHistoryEntry(db: Queryable, entryId: number, timestamp: number, value: string, userId: number): Promise<void> {
  await db.query(
    `update patient_history_entries set entry_ms = $2, symptom_medication_value = $3, updated_by = $4, updated_date = now()
         where id = $1 and delete_flag = 0`,
    [entryId, timestamp, value, userId],
  );
}

/** Removes an entry, keeping it with who removed it and when: a removal is part of the record. */
export async function removeHistoryEntry(db: Queryable, entryId: number, userId: number): Promise<void> {
  await db.query('update patient_history_entries set delete_flag = 1, updated_by = $2, updated_date = now() where id = $1', [entryId, userId]);
}
