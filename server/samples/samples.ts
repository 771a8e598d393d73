import { randomInt } from 'node:crypto';
import type { Queryable } from '../db/adapter';
import { ApiError, notFound } from '../errors';
import { isLiveRecording, type RecordingRow } from '../recordings/store';
import type { SampleListRow } from '../../contract/samples';

/** The system account that owns every sample patient (spec 1 §2: "created by the system user id 2112"). */
export const SAMPLE_PATIENT_CREATOR = 2112;

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A fresh code for a sample patient: SMP and 8 random characters, so nothing of the source shows in it. */
function sampleCode(): string {
  let code = 'SMP';
  for (let i = 0; i < 8; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

/** The practice's sample patients with their nights, newest first. */
export function listSamples(db: Queryable, practiceId: number, sampleId?: number): Promise<SampleListRow[]> {
  return db.query<SampleListRow>(
    `select p.id as patient_id, p.patient_code, p.first_name as name, p.created_by,
            to_char(p.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as "createdAt",
            count(r.id)::int as night_count,
            coalesce(array_agg(r.night_key::float8 order by r.night_key) filter (where r.id is not null), '{}') as nights
     from patients p left join recordings r on r.patient_id = p.id
     where p.sample_practice_id = $1 and ($2::int is null or p.id = $2)
     group by p.id order by p.created_at desc, p.id desc`,
    [practiceId, sampleId ?? null],
  );
}

/** Creates an empty sample patient of the practice named `name`; 409 when the practice has one of that name. */
export async function createSample(tx: Queryable, practiceId: number, name: string): Promise<number> {
  const taken = async () => (await tx.query('select 1 from patients where sample_practice_id = $1 and lower(first_name) = lower($2)', [practiceId, name])).length > 0;
  const refuse = () => new ApiError(409, 'sample_name_taken', 'A sample patient of this name exists: pick it from the list.', { fieldRule: { field: 'name', rule: 'taken' } });
  if (await taken()) throw refuse();
  // A random code cannot collide in practice; a few attempts make sure. The unique index on
  // the practice's names (migration 024) settles two annotators naming one at the same time.
  for (let attempt = 0; attempt < 5; attempt++) {
    const [row] = await tx.query<{ id: number }>(
      `insert into patients (patient_code, physician_id, created_by, first_name, sample_practice_id)
       values ($1, $2, $2, $3, $4) on conflict do nothing returning id`,
      [sampleCode(), SAMPLE_PATIENT_CREATOR, name, practiceId],
    );
    if (row) return row.id;
    if (await taken()) throw refuse();
  }
  throw new Error('no free sample patient code after 5 attempts');
}

/** The names and code of a sample's source patient, which a new sample's name may not contain (undefined: no such patient). */
export async function sourcePatientNames(tx: Queryable, patientId: number): Promise<{ first_name: string; last_name: string; patient_code: string } | undefined> {
  const [source] = await tx.query<{ first_name: string; last_name: string; patient_code: string }>('select first_name, last_name, patient_code from patients where id = $1', [patientId]);
  return source;
}

/** The practice's sample patient by id, locked for the copy; 404 for anything else. */
export async function sampleOfPractice(tx: Queryable, practiceId: number, sampleId: number): Promise<number> {
  const [row] = await tx.query<{ id: number }>('select id from patients where id = $1 and sample_practice_id = $2 for update', [sampleId, practiceId]);
  if (!row) throw notFound('sample_patient');
  return row.id;
}

/**
 * Copies a night into a sample patient: the recording's times and time zone, and every
 * channel with its samples, stored chunks and binary form byte for byte. Nothing else goes
 * with it: no device id, no file names or header fields (recording_meta), no file or device
 * events, no annotations. Returns the new recording's id; 409 when the sample already has a
 * night on that date or the night is still recording.
 */
export async function copyNightToSample(tx: Queryable, source: RecordingRow, sampleId: number, by: number): Promise<number> {
  if (isLiveRecording(source)) throw new ApiError(409, 'night_still_recording', 'This night is still recording; add it once it has ended.');
  const [exists] = await tx.query('select 1 from recordings where patient_id = $1 and night_key = $2', [sampleId, source.night_key]);
  if (exists) throw new ApiError(409, 'sample_night_exists', 'This sample patient already has a night on this date.');
  const [rec] = await tx.query<{ id: number }>(
    `insert into recordings (patient_id, device_id, timezone, start_ms, stop_ms, night_key, source, recording_meta, created_by)
     select $1, null, timezone, start_ms, stop_ms, night_key, source, jsonb_build_object('timezone', timezone, 'sample', true), $3
     from recordings where id = $2 returning id`,
    [sampleId, source.id, by],
  );
  const channels = await tx.query<{ id: number }>('select id from recording_channels where recording_id = $1 order by id', [source.id]);
  for (const c of channels) {
    const [copy] = await tx.query<{ id: number }>(
      `insert into recording_channels (recording_id, code, label, unit, sample_rate, t0_ms, storage, scale, offset_value, sample_count,
         missing_codes, transducer, prefiltering, edf_range, valid_count)
       select $1, code, label, unit, sample_rate, t0_ms, storage, scale, offset_value, sample_count, missing_codes, transducer, prefiltering, edf_range, valid_count
       from recording_channels where id = $2 returning id`,
      [rec.id, c.id],
    );
    await tx.query('insert into recording_chunks (channel_id, seq, data) select $1, seq, data from recording_chunks where channel_id = $2', [copy.id, c.id]);
    await tx.query('insert into recording_channel_wire (channel_id, part, gzip) select $1, part, gzip from recording_channel_wire where channel_id = $2', [copy.id, c.id]);
  }
  return rec.id;
}
