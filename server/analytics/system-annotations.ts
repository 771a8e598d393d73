import type { Db } from '../db/adapter';
import type { DetectedEvent } from '../../engine/detect';
import type { RecordingRow } from '../recordings/store';
import { recordHistory } from '../annotations/shared';
import { round2 } from './figures';

const DESAT_COLOR = '#EE814C';
const LABEL = { apnea: 1, desaturation: 2, hypopnea: 3 } as const;
const COLOR = { apnea: '#DA7171', hypopnea: '#7FB3D5' } as const;

/** What one generation of system annotations writes. */
export interface SystemAnnotations {
  patient: { id: number; physician_id: number };
  recording: RecordingRow;
  type: 'system' | 'desaturation';
  events: readonly DetectedEvent[];
  breathingSource: string | null;
  userId: number;
}

/** An event's comment: the SpO2 drop of a desaturation, else the kind, source and amplitude of an apnea or hypopnea. */
function commentOf(e: DetectedEvent, kind: 'apnea' | 'hypopnea' | 'desaturation', breathingSource: string | null): string {
  if (kind === 'desaturation') return `SpO2 ${round2(e.baseline ?? null)} → ${round2(e.nadir ?? null)} %`;
  return `${kind === 'apnea' ? 'Apnea' : 'Hypopnea'} (${breathingSource}), amplitude ${Math.round((e.amplitude ?? 0) * 100)} % of baseline`;
}

/** Replaces the night's earlier detector output of this type (edited ones, system-edit, stay); how many were written. */
export function replaceSystemAnnotations(db: Db, g: SystemAnnotations): Promise<number> {
  const { patient, recording, type, userId } = g;
  return db.transaction(async (tx) => {
    const old = await tx.query<{ annotation_map_id: number; version: number }>(
      `update annotations set delete_flag = 1, updated_by = $3, updated_date = now(), version = version + 1
       where recording_id = $1 and type = $2 and delete_flag = 0 and scoring_round_id is null returning annotation_map_id, version`,
      [recording.id, type, userId],
    );
    for (const o of old) await recordHistory(tx, { annotationId: o.annotation_map_id, action: 'delete', version: o.version, by: userId, previous: null, current: { delete_flag: 1, reason: 'regenerated' } });
    for (const e of g.events) {
      const kind = e.kind === 'desaturation' ? 'desaturation' : e.kind;
      await tx.query(
        `insert into annotations (patient_id, recording_id, night, device_id, type, kpi, start_ms, end_ms, comment, label, color_code, doctor_id, created_by, updated_by)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13)`,
        [patient.id, recording.id, recording.night_key, recording.device_id, type, type === 'system' ? 'AP_timing' : 'DSAT', Math.round(e.onsetMs), Math.round(e.onsetMs + Math.max(1000, e.durationMs)), commentOf(e, kind, g.breathingSource),
          LABEL[kind], kind === 'desaturation' ? DESAT_COLOR : COLOR[kind], patient.physician_id, userId],
      );
    }
    return g.events.length;
  });
}
