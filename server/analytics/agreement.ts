/**
 * Agreement, shown (issue 12 point 4): for a night with device- or PSG-scored events,
 * Nocturne's respiratory events against the reference, matched one-to-one
 * (engine/detect/agreement.ts), with both AHIs per hour of the same basis.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../context';
import { authenticate, currentUser } from '../context';
import { visiblePatient } from '../patients/access';
import { nightOf } from '../annotations/annotations';
import { isDeviceRespiratory, loadDeviceEvents, type DeviceEventRow } from '../annotations/device';
import { matchEvents, DEFAULT_MATCH_TOLERANCE_MS } from '../../engine/detect/agreement';
import { isValidAt, type NightAnalysis } from '../../engine/detect';
import { analysisOf } from './analyse';
import { indexFigures } from './figures';
import { analyticsSettings } from './settings';
import { analyticsEndpoints } from '../../contract/endpoints/analytics';
import type { NightAgreement } from '../../contract/analytics';
import { nightSessions, type NightFileMeta, type NightSession } from '../recordings/sessions';
import { deviceSummaryFor } from '../recordings/device-summaries';
import { scoredByAll } from '../recordings/vendors';

const round2 = (v: number | null) => (v === null || !Number.isFinite(v) ? null : Math.round(v * 100) / 100);
const perHour = (count: number, hours: number) => (hours > 0 ? round2(count / hours) : null);

/** The hours AHI is counted over: sleep with a breathing signal when the night has staging, else the monitoring time (REI), as the detectors decided. */
function indexHours(a: NightAnalysis): { basis: 'sleep' | 'monitoring'; hours: number } {
  const { ahiHoursH } = indexFigures(a);
  return { basis: a.kpis.indexBasis, hours: ahiHoursH };
}

/** Device events counted by kind, and by what AHI counts. */
function deviceCounts(rows: readonly Pick<DeviceEventRow, 'kind'>[]) {
  const byKind: Record<string, number> = {};
  for (const r of rows) byKind[r.kind] = (byKind[r.kind] ?? 0) + 1;
  const apneas = rows.filter((r) => r.kind.endsWith('apnea')).length;
  const hypopneas = rows.filter((r) => r.kind === 'hypopnea').length;
  return { by_kind: byKind, apneas, hypopneas, desaturations: byKind.desaturation ?? 0, total: rows.length };
}

/**
 * The device's recording time, h: the sum of the night's sessions (the device scores only
 * while it records), within the corrected window when there is one.
 */
function deviceHours(sessions: readonly NightSession[], fallback: { startMs: number; stopMs: number }, window?: NightAnalysis['window']): number {
  const spans = sessions.length > 0 ? sessions.map((s) => [s.start, s.end]) : [[fallback.startMs, fallback.stopMs]];
  let ms = 0;
  for (const [a, b] of spans) {
    const from = window ? Math.max(a, window.bedInMs) : a;
    const to = window ? Math.min(b, window.bedOutMs) : b;
    if (to > from) ms += to - from;
  }
  return ms / 3_600_000;
}

/** The rule Nocturne scored hypopneas by: AASM (flow drop with a desaturation or arousal) or, without oximetry, the flow-only rule. */
const nocturneRule = (a: NightAnalysis) => (a.respiratory.some((e) => e.flowOnly) || a.kpis.odi === null ? 'flow_only' : 'aasm');

/** Device and Nocturne events of one kind, matched one to one. */
function byKind(reference: { onsetMs: number; durationMs: number }[], detected: { onsetMs: number; durationMs: number }[], compared: boolean) {
  const m = matchEvents(reference, detected);
  return { device: reference.length, nocturne: detected.length, matched: m.matched, missed: m.missed, extra: m.extra, sensitivity: compared ? round2(m.sensitivity) : null, ppv: compared ? round2(m.ppv) : null };
}

/** What the agreement table needs beside the events: the device's recording time and, when known, its own summary AHI. */
export interface DeviceBasis {
  /** The night's sessions (their sum is the device's recording time). */
  sessions: readonly NightSession[];
  startMs: number;
  stopMs: number;
  /** The device's own AHI for that day (ResMed STR.edf), null when there is none. */
  summaryAhi: number | null;
}

/** Nocturne against the night's reference scoring: the numbers the summary's agreement table shows. */
function agreementOf(analysis: NightAnalysis, allDevice: readonly DeviceEventRow[], paid: boolean, basisOfDevice: DeviceBasis): Omit<NightAgreement, 'night'> {
  // A corrected night is compared over its window: the device's events outside it are not counted either.
  const w = analysis.window;
  const device = w ? allDevice.filter((e) => isValidAt(w, Number(e.onset_ms))) : allDevice;
  const reference = device
    .filter((e) => isDeviceRespiratory(e.kind))
    .map((e) => ({ onsetMs: Number(e.onset_ms), durationMs: Number(e.duration_ms) }));
  const detected = analysis.respiratory.filter((e) => e.kind === 'apnea' || e.kind === 'hypopnea');
  const m = matchEvents(reference, detected);
  const { basis, hours } = indexHours(analysis);
  // Without a breathing signal (during sleep) Nocturne could score no apnea: nothing is compared.
  const nocturneBasis = indexFigures(analysis).ahiBasis;
  const compared = nocturneBasis === 'breathing_signal';
  const counts = deviceCounts(device);
  const vendors = [...new Set(device.map((e) => e.vendor))];
  const files = [...new Set(device.map((e) => e.file_name))];
  // Spec 2 §1: paid memberships get no AHI items.
  // The reference's AHI as its source reports it: a device's summary value, else its events over
  // its own recording time; a scorer's (a PSG's scoring file) on a staged night, per hour of sleep.
  const scoredBy = scoredByAll(vendors);
  const deviceAhiBasis: NightAgreement['device_ahi_basis'] = basisOfDevice.summaryAhi !== null ? 'device_summary' : scoredBy === 'scorer' && analysis.kpis.tstH > 0 ? 'scorer_sleep_time' : 'device_recording_time';
  const ownHours = deviceAhiBasis === 'scorer_sleep_time' ? analysis.kpis.tstH : deviceHours(basisOfDevice.sessions, basisOfDevice, w);
  const ahi = paid
    ? {}
    : { nocturne_ahi: perHour(detected.length, hours), device_ahi: basisOfDevice.summaryAhi !== null ? round2(basisOfDevice.summaryAhi) : perHour(reference.length, ownHours), device_ahi_basis: deviceAhiBasis };
  const deviceOf = (apnea: boolean) => device.filter((e) => isDeviceRespiratory(e.kind) && e.kind.endsWith('apnea') === apnea).map((e) => ({ onsetMs: Number(e.onset_ms), durationMs: Number(e.duration_ms) }));
  return {
    has_reference: device.length > 0,
    vendors,
    files,
    device: counts,
    nocturne: { apneas: detected.filter((e) => e.kind === 'apnea').length, hypopneas: detected.filter((e) => e.kind === 'hypopnea').length },
    matched: m.matched,
    missed: m.missed,
    extra: m.extra,
    sensitivity: compared ? round2(m.sensitivity) : null,
    ppv: compared ? round2(m.ppv) : null,
    tolerance_s: DEFAULT_MATCH_TOLERANCE_MS / 1000,
    index_basis: basis,
    nocturne_basis: nocturneBasis,
    index_hours: round2(hours),
    device_hours: round2(ownHours),
    // Each kind compared on its own, and the rule each side scored by.
    by_kind: {
      apneas: byKind(deviceOf(true), detected.filter((e) => e.kind === 'apnea'), compared),
      hypopneas: byKind(deviceOf(false), detected.filter((e) => e.kind === 'hypopnea'), compared),
    },
    rules: { device: scoredBy, nocturne: nocturneRule(analysis) },
    ...ahi,
  };
}

/** GET /analytics/patient/agreement: the agreement table of one night. */
export function agreementRoutes(server: FastifyInstance, ctx: AppContext) {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();
  const auth = authenticate(ctx);
  app.get(
    '/analytics/patient/agreement',
    { preHandler: auth, schema: analyticsEndpoints['GET /analytics/patient/agreement'] },
    async (request) => {
      const user = currentUser(request);
      const patient = await visiblePatient(ctx.db, user, request.query.patient_id, 'read');
      const recording = await nightOf(ctx.db, patient, request.query);
      const device = await loadDeviceEvents(ctx.db, [recording.id]);
      const analysis = await analysisOf(ctx.db, recording, await analyticsSettings(ctx.db, patient.physician_id));
      const files = Array.isArray(recording.recording_meta?.files) ? (recording.recording_meta.files as NightFileMeta[]) : [];
      // summaryAhi: the device's daily summary (ResMed STR.edf) of this night's day, when one was imported.
      // The device's sessions: its EDF files' (an oximeter export beside them is not the device recording).
      const summaryAhi = (await deviceSummaryFor(ctx.db, patient.id, Number(recording.night_key)))?.ahi ?? null;
      const basis: DeviceBasis = { sessions: nightSessions(files.filter((f) => !String(f.format ?? '').includes('csv'))), startMs: Number(recording.start_ms), stopMs: Number(recording.stop_ms), summaryAhi };
      return { data: { night: Number(recording.night_key), ...agreementOf(analysis, device, user.membership_type === 'paid', basis) } };
    },
  );
}
