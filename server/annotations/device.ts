/**
 * Device-scored events (ResMed EVE, PSG scoring …) as read-only annotations of type `device`:
 * the shape of get-annotations (spec 2 §3) plus where they came from. They live in
 * device_events, not in annotations, so no annotation call can edit or delete them.
 */
import type { Queryable } from '../db/adapter';
import { listChannels, type RecordingRow } from '../recordings/store';
import type { NightEvent } from '../recordings/model';
import { nightDate } from '../recordings/night-key';
import { exportedDeviceText, scoredByOf, scoredKindOf } from '../recordings/vendors';
import { formatDuration, formatUtc } from './format';

export interface DeviceEventRow {
  id: number;
  recording_id: number;
  onset_ms: number;
  duration_ms: number;
  kind: string;
  text: string;
  vendor: string;
  file_name: string;
}

/** Device events shorter than this are drawn this long (a 0-s mark still needs a band). */
const MIN_SPAN_MS = 1000;
/** Built-in categories (migrations 007, 009): Apnea 1, Desaturation 2, Hypoapnea 3. */
const LABEL_OF: Record<string, number> = { obstructive_apnea: 1, central_apnea: 1, mixed_apnea: 1, apnea: 1, hypopnea: 3, desaturation: 2 };
/** One colour for every device event, apart from the palette users pick from. */
const DEVICE_COLOR = '#5D6D7E';
const BREATHING = ['NC_PSG', 'Y_DIST', 'THRX_PSG', 'ABD_PSG'];
const OXIMETRY = ['SPO2', 'SPO2_PSG'];

/** The device events of some recordings, by onset. */
export function loadDeviceEvents(db: Queryable, recordingIds: number[]): Promise<DeviceEventRow[]> {
  if (recordingIds.length === 0) return Promise.resolve([]);
  return db.query<DeviceEventRow>('select * from device_events where recording_id = any($1::int[]) order by onset_ms, id', [recordingIds]);
}

/** True for the events AHI counts (apneas of every type, hypopneas). */
export const isDeviceRespiratory = (kind: string) => kind.endsWith('apnea') || kind === 'hypopnea';

/** The channel a device event is drawn on: the night's breathing trace (oximetry for desaturations). */
function kpiOf(kind: string, codes: readonly string[]): string {
  const prefer = kind === 'desaturation' ? [...OXIMETRY, ...BREATHING] : [...BREATHING, ...OXIMETRY];
  return prefer.find((c) => codes.includes(c)) ?? codes[0] ?? 'AHI';
}

/** Device events of the given nights in the annotation shape, read-only, with their origin. */
export async function deviceAnnotations(db: Queryable, patientId: number, doctorId: number, nights: RecordingRow[]) {
  const rows = await loadDeviceEvents(
    db,
    nights.map((n) => n.id),
  );
  if (rows.length === 0) return [];
  const channels = await listChannels(
    db,
    nights.map((n) => n.id),
  );
  const byId = new Map(nights.map((n) => [n.id, n]));
  return rows.map((e) => {
    const night = byId.get(e.recording_id)!;
    const start = Number(e.onset_ms);
    const end = start + Math.max(MIN_SPAN_MS, Number(e.duration_ms));
    const kpi = kpiOf(
      e.kind,
      channels.filter((c) => c.recording_id === e.recording_id).map((c) => c.code),
    );
    return {
      // Negative ids: never an annotations row, so update/delete calls cannot reach them.
      annotation_map_id: -e.id,
      type: 'device' as const,
      night: Number(night.night_key),
      kpi,
      kpiList: [kpi],
      start_time: formatUtc(start),
      end_time: formatUtc(end),
      start_date: formatUtc(start),
      end_date: formatUtc(end),
      start_ms: start,
      end_ms: end,
      duration: formatDuration(end - start),
      comment: e.text,
      label: LABEL_OF[e.kind] ?? 1,
      color_code: DEVICE_COLOR,
      patient_id: patientId,
      doctor_id: doctorId,
      created_by: null,
      updated_by: null,
      created_date: null,
      updated_date: null,
      delete_flag: 0,
      device_id: night.device_id,
      recording_date: nightDate(Number(night.night_key)),
      recording_id: e.recording_id,
      version: 1,
      read_only: true,
      device_kind: e.kind,
      vendor: e.vendor,
      scored_by: scoredByOf(e.vendor),
      file_name: e.file_name,
    };
  });
}

/**
 * A night's file events for an EDF+ export: the device-scored ones at their real time with
 * their origin ({@link exportedDeviceText}), in place of the file's own marks (a ResMed mark
 * sits at the event's end, which no reader of the export could know); every other file
 * annotation as written.
 */
export function exportFileEvents(fileEvents: readonly NightEvent[], device: readonly DeviceEventRow[]): NightEvent[] {
  const kept = device.length > 0 ? fileEvents.filter((e) => scoredKindOf(e.text) === null) : [...fileEvents];
  const scored = device.map((e) => ({
    onsetMs: Number(e.onset_ms),
    durationMs: Number(e.duration_ms),
    text: exportedDeviceText({ text: e.text, vendor: e.vendor, fileName: e.file_name }),
  }));
  return [...kept, ...scored];
}
