import type { Queryable } from '../db/adapter';
import type { DeviceEventRow } from './device';
import type { NightEvent } from '../recordings/model';
import { formatDuration, formatUtc } from './format';
import { visibleMarkSql } from '../scoring/visibility';

interface ExportRow {
  annotation_map_id: number;
  type: string;
  kpi: string;
  start_ms: number;
  end_ms: number;
  comment: string;
  label: number;
  category: string | null;
  color_code: string;
  created_by_email: string;
  updated_by_email: string;
  updated_date: Date;
}

/** A night's live annotations `viewer` may see (decision 0989) with their category names, in time order. */
export function nightAnnotations(db: Queryable, recordingId: number, viewer: number): Promise<ExportRow[]> {
  return db.query<ExportRow>(
    `select a.annotation_map_id, a.type, a.kpi, a.start_ms, a.end_ms, a.comment, a.label, c.label as category, a.color_code,
            cu.email as created_by_email, uu.email as updated_by_email, a.updated_date
     from annotations a
     left join annotation_categories c on c.label_id = a.label
     join users cu on cu.id = a.created_by
     join users uu on uu.id = a.updated_by
     where a.recording_id = $1 and a.delete_flag = 0 and ${visibleMarkSql('a', '$2')}
     order by a.start_ms, a.annotation_map_id`,
    [recordingId, viewer],
  );
}

/** Annotations as EDF+ events: "Category: comment [KPIs]". */
export function annotationEvents(rows: ExportRow[]): NightEvent[] {
  return rows.map((r) => ({
    onsetMs: r.start_ms,
    durationMs: r.end_ms - r.start_ms,
    text: `${r.category ?? `Label ${r.label}`}${r.comment ? `: ${r.comment}` : ''} [${r.kpi}]`,
  }));
}

const cell = (v: string | number) => {
  const s = String(v);
  // Quote what CSV needs quoted, and neutralise leading formula characters for spreadsheets.
  const safe = /^[=+\-@\t\r]/.test(s) && typeof v === 'string' ? `'${s}` : s;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

const HEADER = ['annotation_map_id', 'type', 'start_time', 'end_time', 'duration', 'kpi', 'label', 'category', 'color_code', 'comment', 'created_by', 'updated_by', 'updated_date', 'source', 'vendor', 'file_name'];

/**
 * The night's annotations as CSV (one row each, times in UTC as the spec writes them):
 * Nocturne's and its users' first (source `nocturne`), then the events the device scored
 * (type `device`, source `device`, with the vendor and file they came from; category is
 * the device's kind, comment its own text).
 */
export function annotationsCsv(rows: ExportRow[], device: readonly DeviceEventRow[] = []): string {
  const own = rows.map((r) =>
    [r.annotation_map_id, r.type, formatUtc(r.start_ms), formatUtc(r.end_ms), formatDuration(r.end_ms - r.start_ms), r.kpi, r.label, r.category ?? '', r.color_code, r.comment, r.created_by_email, r.updated_by_email, formatUtc(r.updated_date.getTime()), 'nocturne', '', ''],
  );
  const scored = device.map((e) => {
    const start = Number(e.onset_ms);
    const end = start + Number(e.duration_ms);
    return [-e.id, 'device', formatUtc(start), formatUtc(end), formatDuration(end - start), '', '', e.kind, '', e.text, '', '', '', 'device', e.vendor, e.file_name];
  });
  const lines = [...own, ...scored].map((cells) => cells.map(cell).join(','));
  return [HEADER.join(','), ...lines].join('\r\n') + '\r\n';
}
