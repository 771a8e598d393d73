// Serialised answers kept per patient and query (issue 18 point 4): the trend of 90 nights is
// ~140 KB of JSON whose making (row parsing, JSON, GC) is most of its time. An answer is kept
// under the revision of what it was made of (migration 028: triggers give the patient's scope a
// new revision with every committed change of an input row), read from the database in one
// query before the answer is made, so a change by any process on the same database makes the
// kept answer unreachable. The dashboard's triage table is kept the same way per practice
// (migration 029, scope 'practice:<id>'). Callers authorise first, then look up. Bounded in
// memory: least recently used answers go first.
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { Queryable } from '../db/adapter';

const gzipAsync = promisify(gzip);

/** Bytes of answers kept per process (JSON and gzip counted). */
const ANSWER_CACHE_BYTES = 32 * 1024 * 1024;

/** What a patient's trend is made of, as of one moment: its practice (whose settings apply) and the revisions. */
export interface PatientRevision {
  /** The practice whose analytics settings apply (a sample patient's: the practice it is shown to). */
  physicianId: number;
  /** Changes with every change of the patient's row, nights, channels, stored analyses, statistics or corrections, or the practice's settings. */
  rev: string;
}

/** The patient's revision in one query (null: no such patient). Read it before reading what the answer is made of. */
export async function patientRevision(db: Queryable, patientId: number): Promise<PatientRevision | null> {
  const [row] = await db.query<{ physician_id: number; patient_rev: string | number | null; settings_rev: string | number | null }>(
    `select coalesce(p.sample_practice_id, p.physician_id) as physician_id,
       (select rev from data_revisions where scope = 'patient:' || p.id) as patient_rev,
       (select rev from data_revisions where scope = 'settings:' || coalesce(p.sample_practice_id, p.physician_id)) as settings_rev
     from patients p where p.id = $1`,
    [patientId],
  );
  if (!row) return null;
  return { physicianId: Number(row.physician_id), rev: `${row.patient_rev ?? 0}.${row.settings_rev ?? 0}` };
}

/**
 * The practice's revision (migration 029: every committed change of a row the dashboard's triage
 * table reads for the practice gives it a new one), in one query: '0' while nothing has changed
 * since the migration. Read it before reading what the answer is made of.
 */
export async function practiceRevision(db: Queryable, physicianId: number): Promise<string> {
  const [row] = await db.query<{ rev: string | number }>(`select rev from data_revisions where scope = 'practice:' || $1::int`, [physicianId]);
  return String(row?.rev ?? 0);
}

/** One kept answer: its JSON, its gzip once asked for, and its entity tag. */
export interface KeptAnswer {
  rev: string;
  json: Buffer;
  gzip: Buffer | null;
  etag: string;
}

/** Answers by key (patient or practice, and query), least recently used first; at most maxBytes in all. */
export class AnswerCache {
  private readonly entries = new Map<string, KeptAnswer>();
  private size = 0;
  hits = 0;
  misses = 0;

  constructor(private readonly maxBytes = ANSWER_CACHE_BYTES) {}

  /** Bytes kept now. */
  get bytes(): number {
    return this.size;
  }

  /** The answer kept under key at revision rev, or null (a kept answer of another revision is dropped). */
  get(key: string, rev: string): KeptAnswer | null {
    const entry = this.entries.get(key);
    if (!entry || entry.rev !== rev) {
      if (entry) this.delete(key);
      this.misses++;
      return null;
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.hits++;
    return entry;
  }

  /** Keeps a serialised answer made at revision rev. */
  set(key: string, rev: string, json: Buffer): KeptAnswer {
    const entry: KeptAnswer = { rev, json, gzip: null, etag: `"${createHash('sha1').update(json).digest('base64url')}"` };
    this.delete(key);
    if (json.byteLength > this.maxBytes) return entry;
    this.entries.set(key, entry);
    this.size += json.byteLength;
    this.evict();
    return entry;
  }

  /** The answer's gzip, made once per kept answer. */
  async gzipOf(key: string, entry: KeptAnswer): Promise<Buffer> {
    if (entry.gzip) return entry.gzip;
    const zipped = await gzipAsync(entry.json);
    // Counted only while the entry is still the one kept under its key.
    if (this.entries.get(key) === entry && entry.gzip === null) {
      entry.gzip = zipped;
      this.size += zipped.byteLength;
      this.evict();
    }
    return zipped;
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.size -= entry.json.byteLength + (entry.gzip?.byteLength ?? 0);
  }

  private evict(): void {
    for (const key of this.entries.keys()) {
      if (this.size <= this.maxBytes) break;
      this.delete(key);
    }
  }
}
