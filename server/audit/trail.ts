import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Queryable } from '../db/adapter';
import type { AccessRow } from '../../contract/audit';

/** One access as written: the row the screens list (contract/audit.ts), less what the database adds, with who asked and the request's id. */
export type TrailEntry = Omit<AccessRow, 'id' | 'patient_code'> & { user_id: number | null; request_id: string };

/** Rows written per statement, and the longest an access waits before it is written (fewer, larger writes: the embedded database writes on the event loop). */
const BATCH_ROWS = 1000;
const FLUSH_MS = 1000;
/** Entries kept while the database refuses them (an outage): beyond this the oldest are dropped, and the drop is said once. */
const MAX_PENDING = 50_000;

const COLUMNS = 'at_ms bigint, user_id integer, user_email text, user_role text, ip text, method text, route text, patient_id integer, recording_id integer, detail text, status integer, request_id text';

/**
 * The access trail's writer. Accesses are queued in memory and written in batches (one
 * statement per 1,000 rows, at most a second after the access), so a request never waits on the
 * trail and its cost per request is a push onto an array; the queue is written on shutdown.
 */
export class AuditTrail {
  private pending: TrailEntry[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private warned = false;
  /**
   * Whether accesses are recorded: always in a server; bench:trail switches it between rounds
   * of one process (bench/load-trail.ts) so the trail's cost is measured on the same process.
   */
  recording = true;

  constructor(
    private readonly db: Queryable,
    private readonly warn: (line: string) => void = (line) => console.error(line),
  ) {}

  add(entry: TrailEntry): void {
    this.pending.push(entry);
    if (this.pending.length > MAX_PENDING) {
      this.pending.splice(0, this.pending.length - MAX_PENDING);
      this.say(`Access trail: the database refused writes; kept the newest ${MAX_PENDING} accesses.`);
    }
    if (this.pending.length >= BATCH_ROWS) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS);
  }

  /** Writes every queued access (in order, one batch at a time). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.writing = this.writing.then(() => this.writeAll());
    return this.writing;
  }

  private async writeAll(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.slice(0, BATCH_ROWS);
      try {
        await this.db.query(`insert into audit_trail (${columnNames}) select ${columnNames} from jsonb_to_recordset($1::jsonb) as t(${COLUMNS})`, [JSON.stringify(batch)]);
        this.pending.splice(0, batch.length);
        this.warned = false;
      } catch (err) {
        // Kept for the next flush (the database may be back by then).
        this.say(`Access trail: ${batch.length} accesses not written yet (${(err as Error).message}); retrying.`);
        this.timer ??= setTimeout(() => void this.flush(), 5_000);
        return;
      }
    }
  }

  private say(line: string): void {
    if (this.warned) return;
    this.warned = true;
    this.warn(line);
  }
}

const columnNames = COLUMNS.split(',').map((c) => c.trim().split(' ')[0]).join(', ');

/** A positive integer from a request's value, else null. */
function idOf(value: unknown): number | null {
  const n = typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 && n <= 2_147_483_647 ? n : null;
}

/** The request's value under `key` in its parameters, query or JSON body. */
function valueOf(request: FastifyRequest, key: string): unknown {
  for (const part of [request.params, request.query, request.body]) {
    if (part && typeof part === 'object' && !Array.isArray(part) && key in part) return (part as Record<string, unknown>)[key];
  }
  return undefined;
}

/** The route's own parameters (a report's id, a decision): what the route pattern leaves out. */
function detailOf(request: FastifyRequest): string | null {
  const params = request.params && typeof request.params === 'object' ? Object.entries(request.params as Record<string, unknown>) : [];
  const parts = params.filter(([, v]) => typeof v === 'string' || typeof v === 'number').map(([k, v]) => `${k}=${String(v).slice(0, 64)}`);
  const others = request.accessSubject?.otherRecordings;
  if (others?.length) parts.push(`recordings=${[request.accessSubject!.recordingId, ...others].join(',')}`);
  return parts.length > 0 ? parts.join('&') : null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The patient (and night) a route found its request to concern, where the request names it otherwise (see {@link noteAccessOf}). */
    accessSubject: { patientId: number; recordingId: number | null; otherRecordings?: readonly number[] } | null;
  }
}

/**
 * Tells the access trail whose data a request read or changed, for a route whose request does
 * not carry `patient_id` (an annotation, report or notification by its own id, a patient by
 * `id`, a multipart upload): the trail records what the route found. `otherRecordings`: further
 * nights the request made or read (an upload of several nights, decision 1021), named in the
 * entry's detail (`recordings=…`) beside the first in its recording column.
 */
export function noteAccessOf(request: FastifyRequest, patientId: number, recordingId: number | null = null, otherRecordings: readonly number[] = []): void {
  request.accessSubject = { patientId, recordingId, ...(otherRecordings.length ? { otherRecordings } : {}) };
}

/**
 * Records every signed-in request to the API (reads and writes, whatever their outcome) with
 * the patient and recording it names, after the answer is sent.
 */
export function recordAccesses(app: FastifyInstance, trail: AuditTrail, prefix: string): void {
  app.addHook('onResponse', (request, reply, done) => {
    const noted = request.accessSubject;
    const user = request.user;
    const route = request.routeOptions.url;
    if (trail.recording && user && route?.startsWith(prefix)) {
      trail.add({
        at_ms: Date.now(),
        user_id: user.id,
        user_email: user.email,
        user_role: user.is_annotator ? 'annotator' : user.role,
        ip: request.ip,
        method: request.method,
        route: route.slice(prefix.length),
        // The /patient/ calls of the spec name the patient `user_id` where they have no patient_id (comments).
        patient_id: idOf(valueOf(request, 'patient_id')) ?? (route.startsWith(`${prefix}/patient/`) ? idOf(valueOf(request, 'user_id')) : null) ?? noted?.patientId ?? null,
        recording_id: idOf(valueOf(request, 'recording_id')) ?? noted?.recordingId ?? null,
        detail: detailOf(request),
        status: reply.statusCode,
        request_id: String(request.id),
      });
    }
    done();
  });
}
