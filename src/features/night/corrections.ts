// Manual corrections of a night (Actions, spec 2 §2): the calls, their query, and the pure
// shaping the panel and the charts need. The server applies them when it analyses the night.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DateTime } from 'luxon';
import type { AddCorrectionBody, Correction, CorrectionKind, NightCorrections } from '../../../contract/corrections';
import { call } from '../../api/client';

export type { CorrectionKind };

export type { Correction, NightCorrections };

/** What the panel fills in; the night is the hook's (contract/corrections.ts AddCorrectionBody). */
type CorrectionInput = Pick<AddCorrectionBody, 'kind' | 'start_ms' | 'end_ms' | 'reason'>;

export { MIN_CORRECTION_MS } from '../../../engine/detect/window';

const key = (patientId: number, night: number) => ['patient', patientId, 'corrections', night] as const;

/** Night figures that follow a correction: refetched after one is made or undone. */
const FOLLOWERS = new Set(['summary', 'agreement', 'trend', 'actigraph', 'report-spo2', 'corrections']);

export function useNightCorrections(patientId: number, night: number) {
  return useQuery({
    queryKey: key(patientId, night),
    queryFn: async ({ signal }) => (await call('GET /analytics/patient/corrections', { query: { patient_id: patientId, night } }, { signal })).data,
  });
}

/** Make a correction or undo one; the night's figures (summary, trend, …) are fetched again. */
export function useCorrectionWrite(patientId: number, night: number) {
  const client = useQueryClient();
  const settle = async (data: NightCorrections | null | undefined) => {
    if (data) client.setQueryData(key(patientId, night), data);
    await client.invalidateQueries({ predicate: (q) => q.queryKey[0] === 'patient' && q.queryKey[1] === patientId && FOLLOWERS.has(String(q.queryKey[2])) && q.queryKey[2] !== 'corrections' });
    await client.invalidateQueries({ queryKey: ['dashboard'] });
  };
  const add = useMutation({
    mutationFn: async (input: CorrectionInput) => (await call('POST /analytics/patient/corrections', { body: { patient_id: patientId, night, ...input } })).data,
    onSuccess: settle,
  });
  const undo = useMutation({
    mutationFn: async (id: number) => (await call('POST /analytics/patient/corrections/undo', { body: { patient_id: patientId, night, id } })).data,
    onSuccess: settle,
  });
  return { add, undo };
}

/** The spans the charts shade: before bed-in, the invalid spans, after bed-out (none when the night is not corrected). */
export function excludedSpans(c: NightCorrections | null | undefined): Array<{ startMs: number; endMs: number }> {
  // Outside the files' lights markers is left out of the analysis too (decision 1023): shaded alike.
  if (!c?.corrected && c?.window.bed_times_from !== 'lights') return [];
  const out = [{ startMs: c.recording_start_time, endMs: c.window.bed_in_time }];
  for (const s of c.window.invalid_spans) out.push({ startMs: s.start_ms, endMs: s.end_ms });
  out.push({ startMs: c.window.bed_out_time, endMs: c.recording_stop_time });
  return out.filter((s) => s.endMs > s.startMs);
}

/**
 * A clock time ("HH:mm" or "HH:mm:ss") in the night's zone as the instant within the
 * recording: the night spans two dates, so the time is looked for on the date the recording
 * starts and on the next. Null when neither falls within [startMs, stopMs].
 */
export function clockToMs(clock: string, zone: string, startMs: number, stopMs: number): number | null {
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(clock.trim());
  if (!m) return null;
  const [h, min, s] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
  if (h > 23 || min > 59 || s > 59) return null;
  const first = DateTime.fromMillis(startMs, { zone }).startOf('day');
  for (let day = 0; day < 2; day++) {
    const t = first.plus({ days: day }).set({ hour: h, minute: min, second: s, millisecond: 0 }).toMillis();
    if (t >= startMs - 999 && t <= stopMs) return Math.max(startMs, t);
  }
  return null;
}

/** An instant as the clock field shows it ("HH:mm:ss" in the night's zone). */
export const msToClock = (ms: number, zone: string) => DateTime.fromMillis(ms, { zone }).toFormat('HH:mm:ss');
