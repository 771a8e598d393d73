/**
 * Device summaries (issue 31 point 7): a therapy device's own daily figures (ResMed STR.edf,
 * edf/str.ts) stored per patient-day, never as a night. A day's row belongs to the night that
 * began that evening: the device's noon-to-noon day and the night key's noon cut-off agree.
 */
import { open, readFile } from 'node:fs/promises';
import type { Db, Queryable } from '../db/adapter';
import { ApiError } from '../errors';
import { RecordingFormatError } from './model';
import { nightDate } from './night-key';
import { isDeviceSummary, readDeviceSummary, type DeviceDay } from './edf/str';
import type { DeviceSummaryDay, DeviceSummaryImport } from '../../contract/deviceSummaries';

/** Bytes enough for the headers of an EDF of up to 255 signals. */
const HEAD_BYTES = 256 * 256;

/** Splits an upload's files on disk into device summaries (by content) and the night's files. */
export async function splitDeviceSummaries<F extends { name: string; path: string }>(files: readonly F[]): Promise<{ summaries: F[]; rest: F[] }> {
  const summaries: F[] = [];
  const rest: F[] = [];
  for (const f of files) {
    const handle = await open(f.path, 'r');
    try {
      const head = new Uint8Array(HEAD_BYTES);
      const { bytesRead } = await handle.read(head, 0, HEAD_BYTES, 0);
      (isDeviceSummary(head.subarray(0, bytesRead)) ? summaries : rest).push(f);
    } finally {
      await handle.close();
    }
  }
  return { summaries, rest };
}

/** Summary files read (their days), not stored yet. */
export interface ReadSummaries {
  read: Array<{ name: string; days: DeviceDay[]; daysRead: number }>;
}

/** Reads summary files; one that cannot be read refuses them all (400 naming the file and field), before anything is stored. */
export async function readDeviceSummaries(files: ReadonlyArray<{ name: string; path: string }>, timezone: string): Promise<ReadSummaries> {
  const read: ReadSummaries['read'] = [];
  for (const f of files) {
    try {
      const s = readDeviceSummary(new Uint8Array(await readFile(f.path)), f.name, timezone);
      read.push({ name: f.name, days: s.days, daysRead: s.daysRead });
    } catch (err) {
      if (err instanceof RecordingFormatError) throw new ApiError(400, 'invalid_recording_file', err.message);
      throw err;
    }
  }
  return { read };
}

/** Stores summary files' days for the patient, in one transaction. */
export async function storeDeviceSummaries(db: Db, patientId: number, createdBy: number | null, { read }: ReadSummaries): Promise<DeviceSummaryImport> {
  const days = read.flatMap((r) => r.days.map((d) => ({ ...d, file: r.name }))).sort((a, b) => a.day.localeCompare(b.day));
  await db.transaction(async (tx) => {
    for (const d of days) {
      await tx.query(
        `insert into device_summaries (patient_id, day, vendor, file_name, ahi, hi, ai, oai, cai, uai, usage_min, mask_sessions, created_by)
         values ($1, $2, 'resmed', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
         on conflict (patient_id, day) do update set vendor = excluded.vendor, file_name = excluded.file_name, ahi = excluded.ahi, hi = excluded.hi, ai = excluded.ai,
           oai = excluded.oai, cai = excluded.cai, uai = excluded.uai, usage_min = excluded.usage_min, mask_sessions = excluded.mask_sessions,
           created_by = excluded.created_by, created_at = now()`,
        [patientId, d.day, d.file, d.ahi, d.hi, d.ai, d.oai, d.cai, d.uai, d.usageMin, JSON.stringify(d.maskSessions), createdBy],
      );
    }
  });
  return {
    files: read.map((r) => r.name),
    days_read: read.reduce((a, r) => a + r.daysRead, 0),
    days_stored: days.length,
    first_day: days[0]?.day ?? null,
    last_day: days.at(-1)?.day ?? null,
  };
}

type Row = Omit<DeviceSummaryDay, 'day'> & { day: string | Date };

const asDay = (r: Row): DeviceSummaryDay => ({
  ...r,
  day: typeof r.day === 'string' ? r.day.slice(0, 10) : r.day.toISOString().slice(0, 10),
  mask_sessions: typeof r.mask_sessions === 'string' ? (JSON.parse(r.mask_sessions) as DeviceSummaryDay['mask_sessions']) : r.mask_sessions,
});

const COLUMNS = `to_char(day, 'YYYY-MM-DD') as day, vendor, file_name, ahi, hi, ai, oai, cai, uai, usage_min, mask_sessions`;

/**
 * The device's own summary of the day a night belongs to (its AHI and indices, usage, mask
 * on/off), or null when no summary file covered that day. The agreement table uses its AHI as
 * the device's when present. `patientId` must be one the caller may see.
 */
export async function deviceSummaryFor(db: Queryable, patientId: number, nightKey: number): Promise<DeviceSummaryDay | null> {
  const [row] = await db.query<Row>(`select ${COLUMNS} from device_summaries where patient_id = $1 and day = $2::date`, [patientId, nightDate(nightKey)]);
  return row ? asDay(row) : null;
}

/** The stored device days of a patient between two dates (inclusive, YYYY-MM-DD), oldest first. */
export async function deviceSummariesBetween(db: Queryable, patientId: number, fromDay: string, toDay: string): Promise<DeviceSummaryDay[]> {
  const rows = await db.query<Row>(`select ${COLUMNS} from device_summaries where patient_id = $1 and day between $2::date and $3::date order by day`, [patientId, fromDay, toDay]);
  return rows.map(asDay);
}
