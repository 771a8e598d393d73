// What a night's figures rest on, for the night report (issue 31 point 9): the basis of each
// index, the device's own counts and daily summary, and the agreement of Nocturne's events with
// the device's, read through the same functions as the summary and the agreement table.
import type { Queryable } from '../db/adapter';
import { isDeviceRespiratory, loadDeviceEvents } from '../annotations/device';
import { matchEvents, DEFAULT_MATCH_TOLERANCE_MS } from '../../engine/detect/agreement';
import { isValidAt, type NightAnalysis } from '../../engine/detect';
import type { RecordingRow } from '../recordings/store';
import { scoredByAll } from '../recordings/vendors';
import { indexFigures } from '../analytics/figures';
import { nightSessions, type NightFileMeta, type NightSession } from '../recordings/sessions';

export interface MeasuredContent {
  /** Device-scored events of the night (EVE files, PSG scoring), by what AHI counts; scoredBy: a device's own, or a scorer's (a PSG's scoring file). */
  device: { files: string[]; apneas: number; hypopneas: number; total: number; scoredBy: 'device' | 'scorer' };
  /**
   * Nocturne against the device's respiratory events; null without device events. Not compared
   * ('no_breathing_signal…', the basis Nocturne lacked) when Nocturne could score no apnea.
   */
  agreement: { reference: number; detected: number; matched: number; missed: number; extra: number; sensitivity: number | null; ppv: number | null; toleranceS: number } | { notCompared: 'no_breathing_signal' | 'no_breathing_signal_in_sleep' } | null;
  /** Where the SpO2 the ODI comes from ('SPO2', 'SPO2_PSG'), or null without oximetry. */
  oximetry: string | null;
  /** The night's sessions (several when the mask came off), from its files. */
  sessions: NightSession[];
}

const round2 = (v: number | null) => (v === null || !Number.isFinite(v) ? null : Math.round(v * 100) / 100);

/** The night's device counts and agreement, over the corrected window when there is one. */
export async function measuredOf(db: Queryable, recording: RecordingRow, analysis: NightAnalysis, channelCodes: readonly string[]): Promise<MeasuredContent> {
  const w = analysis.window;
  const rows = (await loadDeviceEvents(db, [recording.id])).filter((e) => !w || isValidAt(w, Number(e.onset_ms)));
  const respiratory = rows.filter((e) => isDeviceRespiratory(e.kind));
  const detected = analysis.respiratory.filter((e) => e.kind === 'apnea' || e.kind === 'hypopnea');
  const m = respiratory.length > 0 ? matchEvents(respiratory.map((e) => ({ onsetMs: Number(e.onset_ms), durationMs: Number(e.duration_ms) })), detected) : null;
  // Without a breathing signal (during sleep) Nocturne could score no apnea: nothing is compared (as the agreement table).
  const basis = indexFigures(analysis).ahiBasis;
  return {
    device: {
      files: [...new Set(rows.map((e) => e.file_name))],
      apneas: rows.filter((e) => e.kind.endsWith('apnea')).length,
      hypopneas: rows.filter((e) => e.kind === 'hypopnea').length,
      total: rows.length,
      scoredBy: scoredByAll([...new Set(rows.map((e) => e.vendor))]),
    },
    agreement: m && basis !== 'breathing_signal' ? { notCompared: basis } : m && { reference: respiratory.length, detected: detected.length, matched: m.matched, missed: m.missed, extra: m.extra, sensitivity: round2(m.sensitivity), ppv: round2(m.ppv), toleranceS: DEFAULT_MATCH_TOLERANCE_MS / 1000 },
    sessions: nightSessions(Array.isArray(recording.recording_meta?.files) ? (recording.recording_meta.files as NightFileMeta[]) : []),
    oximetry: analysis.desaturations.length > 0 || analysis.kpis.odi !== null ? (channelCodes.includes('SPO2') ? 'SPO2' : channelCodes.includes('SPO2_PSG') ? 'SPO2_PSG' : null) : null,
  };
}
