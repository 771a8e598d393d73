// `npm run validate`, real nights through the real import path (issue 31 point 10): every real
// recording in ../shared/data/real (or VALIDATE_REAL_DIR) imported as a physician uploads it
// (importFiles into an in-memory database: parse, assemble, store) and scored as the screens
// score it (analysisOf), against the events the device scored (EVE files) and its own figures:
// - each ResMed night as one upload ("merged": every session of the night in one upload, as the
//   import does it today) and each mask session on its own ("per session": the sessions'
//   figures summed), per night and pooled;
// - the device's daily summary (STR.edf): days read and stored, its AHI;
// - the Sleep-EDF PSG with its expert hypnogram and HMC's hypnogram: TST, SE, the index basis.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { matchEvents } from '../engine/detect';
import { openPglite } from '../server/db/pglite';
import { migrate } from '../server/db/migrate';
import { seedDemo } from '../server/seed';
import type { Db } from '../server/db/adapter';
import { analysisOf } from '../server/analytics/analyse';
import { analyticsSettings } from '../server/analytics/settings';
import { isDeviceRespiratory, loadDeviceEvents } from '../server/annotations/device';
import { importFiles } from '../server/recordings/import';
import { readDeviceSummary } from '../server/recordings/edf/str';
import { nightDate } from '../server/recordings/night-key';
import { findRecording } from '../server/recordings/store';
import { ApiError } from '../server/errors';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
/** The shared real recordings: ../shared/data/real beside the repository (VALIDATE_REAL_DIR overrides). */
export const REAL_DIR = process.env.VALIDATE_REAL_DIR ?? path.join(ROOT, '..', 'shared', 'data', 'real');
const TIMEZONE = 'UTC';

const r2 = (x: number | null) => (x === null || !Number.isFinite(x) ? null : Math.round(x * 100) / 100);
const r3 = (x: number | null) => (x === null || !Number.isFinite(x) ? null : Math.round(x * 1000) / 1000);

/** A ResMed file: its date and time stamp and kind (BRP, PLD, SA2, EVE, CSL). */
const RESMED = /^snore_resmed_(\d{8})_(\d{6})_(BRP|PLD|SA2|EVE|CSL)\.edf$/;
const stampMs = (d: string, t: string) => Date.UTC(+d.slice(0, 4), +d.slice(4, 6) - 1, +d.slice(6, 8), +t.slice(0, 2), +t.slice(2, 4), +t.slice(4, 6));

interface Session {
  startMs: number;
  files: string[];
}

/**
 * The ResMed files in the folder as nights of sessions: a session is the files stamped within
 * 60 s of each other (EVE/CSL a few seconds before BRP/PLD/SA2); a night is the sessions whose
 * start belongs to the same evening (before noon: the evening before, the night key's rule).
 */
export function resmedNights(names: readonly string[]): Array<{ night: string; sessions: Session[] }> {
  const files = names.flatMap((n) => {
    const m = RESMED.exec(n);
    return m ? [{ name: n, ms: stampMs(m[1]!, m[2]!) }] : [];
  }).sort((a, b) => a.ms - b.ms);
  const sessions: Session[] = [];
  let lastMs = -Infinity;
  for (const f of files) {
    if (f.ms - lastMs > 60_000) sessions.push({ startMs: f.ms, files: [] });
    sessions.at(-1)!.files.push(f.name);
    lastMs = f.ms;
  }
  const nights = new Map<string, Session[]>();
  for (const s of sessions) {
    const evening = new Date(s.startMs - 12 * 3_600_000).toISOString().slice(0, 10).replaceAll('-', '');
    nights.set(evening, [...(nights.get(evening) ?? []), s]);
  }
  return [...nights].map(([night, list]) => ({ night, sessions: list }));
}

interface Scored {
  reference: number;
  detected: number;
  matched: number;
  /** Device events over the sessions' flow time (the device's own recording time), /h. */
  device_events: number;
  device_hours: number;
  nocturne_events: number;
  monitoring_h: number;
  nocturne_index: number | null;
  index_basis: string;
  recording_h: number;
  sessions_scored: number;
}

/** An upload the import refused: its code and message (reported, not scored). */
interface Refused {
  refused: string;
}

const isRefused = (x: Scored | Refused): x is Refused => 'refused' in x;

/** Imports the files as one upload for the patient and scores the night as the screens do. */
async function importAndScore(db: Db, patientId: number, physicianId: number, dir: string, files: readonly string[]): Promise<Scored | Refused> {
  await db.query('delete from recordings where patient_id = $1', [patientId]);
  let result;
  try {
    result = await importFiles(db, { patientId, deviceId: null, createdBy: null, timezone: TIMEZONE, files: files.map((name) => ({ name, bytes: new Uint8Array(readFileSync(path.join(dir, name))) })) });
  } catch (err) {
    if (err instanceof ApiError) return { refused: `${err.code}: ${err.message}` };
    throw err;
  }
  const recording = (await findRecording(db, patientId, result.recordingId))!;
  const analysis = await analysisOf(db, recording, await analyticsSettings(db, physicianId));
  const device = (await loadDeviceEvents(db, [recording.id])).filter((e) => isDeviceRespiratory(e.kind));
  const detected = analysis.respiratory.filter((e) => e.kind === 'apnea' || e.kind === 'hypopnea');
  const m = matchEvents(device.map((e) => ({ onsetMs: Number(e.onset_ms), durationMs: Number(e.duration_ms) })), detected);
  // The device's own recording time: the flow (BRP) files' spans, summed over sessions.
  const deviceHours = files.filter((f) => f.endsWith('_BRP.edf')).reduce((h, f) => {
    const meta = (result.night.meta.files as Array<{ fileName: string; startMs: number; stopMs: number }> | undefined)?.find((x) => x.fileName === f);
    return h + (meta ? (meta.stopMs - meta.startMs) / 3_600_000 : 0);
  }, 0);
  return {
    reference: device.length,
    detected: detected.length,
    matched: m.matched,
    device_events: device.length,
    device_hours: deviceHours,
    nocturne_events: detected.length,
    monitoring_h: analysis.kpis.monitoringH,
    nocturne_index: analysis.kpis.ahi,
    index_basis: analysis.kpis.indexBasis,
    recording_h: (Number(recording.stop_ms) - Number(recording.start_ms)) / 3_600_000,
    sessions_scored: 1,
  };
}

/** The agreement and index figures of one night or a pool. */
function row(s: Omit<Scored, 'index_basis' | 'recording_h' | 'nocturne_index'> & { nocturne_index?: number | null }) {
  const deviceAhi = s.device_hours > 0 ? s.device_events / s.device_hours : null;
  const rei = s.nocturne_index ?? (s.monitoring_h > 0 ? s.nocturne_events / s.monitoring_h : null);
  return {
    device_events: s.reference,
    found: s.matched,
    missed: s.reference - s.matched,
    extra: s.detected - s.matched,
    sensitivity: s.reference > 0 ? r3(s.matched / s.reference) : null,
    ppv: s.detected > 0 ? r3(s.matched / s.detected) : null,
    nocturne_rei: r2(rei),
    device_ahi: r2(deviceAhi),
    rei_minus_device: rei !== null && deviceAhi !== null ? r2(rei - deviceAhi) : null,
    monitoring_h: r2(s.monitoring_h),
    device_h: r2(s.device_hours),
  };
}

const sum = (xs: readonly Scored[]): Scored => ({
  reference: xs.reduce((a, x) => a + x.reference, 0),
  detected: xs.reduce((a, x) => a + x.detected, 0),
  matched: xs.reduce((a, x) => a + x.matched, 0),
  device_events: xs.reduce((a, x) => a + x.device_events, 0),
  device_hours: xs.reduce((a, x) => a + x.device_hours, 0),
  nocturne_events: xs.reduce((a, x) => a + x.nocturne_events, 0),
  monitoring_h: xs.reduce((a, x) => a + x.monitoring_h, 0),
  nocturne_index: null,
  index_basis: 'monitoring',
  recording_h: xs.reduce((a, x) => a + x.recording_h, 0),
  sessions_scored: xs.reduce((a, x) => a + x.sessions_scored, 0),
});

/** Every real recording of the folder through the import path (see the file's comment). */
export async function importPathValidation(dir = REAL_DIR) {
  const names = readdirSync(dir).sort();
  const db = await openPglite(null);
  try {
    await migrate(db);
    await seedDemo(db);
    const [{ id: patientId, physician_id: physicianId }] = await db.query<{ id: number; physician_id: number }>(`select id, physician_id from patients where patient_code = 'NCT1005'`);
    const nights = [];
    const mergedAll: Scored[] = [];
    const sessionsAll: Scored[] = [];
    for (const { night, sessions } of resmedNights(names)) {
      const all = sessions.flatMap((s) => s.files);
      const merged = await importAndScore(db, patientId, physicianId, dir, all);
      const perSession: Array<Scored | Refused> = [];
      // A session without a flow file (none here) has nothing to score.
      for (const s of sessions) if (s.files.some((f) => f.endsWith('_BRP.edf'))) perSession.push(await importAndScore(db, patientId, physicianId, dir, s.files));
      const scored = perSession.filter((x): x is Scored => !isRefused(x));
      const split = sum(scored);
      // A refused upload has nothing stored to score: the pool says how many nights it lacks.
      if (!isRefused(merged)) mergedAll.push(merged);
      if (scored.length > 0) sessionsAll.push(split);
      nights.push({
        night,
        first_file: all[0]!.slice('snore_resmed_'.length, 'snore_resmed_'.length + 15),
        sessions: sessions.length,
        files: all.length,
        merged: isRefused(merged) ? { refused: merged.refused } : { ...row(merged), index_basis: merged.index_basis, recording_h: r2(merged.recording_h) },
        per_session: { ...row(split), sessions_scored: split.sessions_scored, ...(perSession.some(isRefused) ? { refused: perSession.filter(isRefused).map((x) => x.refused) } : {}) },
      });
    }
    const str = names.filter((n) => /STR\.edf$/i.test(n)).map((n) => {
      const s = readDeviceSummary(new Uint8Array(readFileSync(path.join(dir, n))), n, TIMEZONE);
      const ahis = s.days.map((d) => d.ahi).filter((v): v is number => v !== null);
      return { file: n, days_read: s.daysRead, days_with_therapy: s.days.length, first_day: s.days[0]?.day ?? null, last_day: s.days.at(-1)?.day ?? null, mean_device_ahi: r2(ahis.reduce((a, b) => a + b, 0) / Math.max(1, ahis.length)), max_device_ahi: ahis.length ? Math.max(...ahis) : null };
    });
    const staging = [];
    for (const files of [['sleepedf_SC4001E0_short_psg.edf', 'sleepedf_SC4001EC_hypnogram.edf'], ['hmc_SN001_hypnogram_test_edfann.edf']]) {
      if (!files.every((f) => names.includes(f))) continue;
      await db.query('delete from recordings where patient_id = $1', [patientId]);
      const result = await importFiles(db, { patientId, deviceId: null, createdBy: null, timezone: TIMEZONE, files: files.map((name) => ({ name, bytes: new Uint8Array(readFileSync(path.join(dir, name))) })) });
      const recording = (await findRecording(db, patientId, result.recordingId))!;
      const a = await analysisOf(db, recording, await analyticsSettings(db, physicianId));
      staging.push({ files: files.join(' + '), night: nightDate(result.nightKey), tst_h: a.kpis.tstH, tbt_h: a.kpis.tbtH, sleep_efficiency: a.sleep.sleepEfficiency, sol_min: a.sleep.solS === null ? null : r2(a.sleep.solS / 60), index_basis: a.kpis.indexBasis, ahi_basis: a.kpis.ahiBasis, breathing: a.breathingSource });
    }
    const pooledMerged = sum(mergedAll);
    const pooledSessions = sum(sessionsAll);
    return {
      dir,
      nights,
      pooled: { merged: { ...row(pooledMerged), nights: mergedAll.length, nights_refused: nights.length - mergedAll.length }, per_session: { ...row(pooledSessions), nights: sessionsAll.length, nights_refused: nights.length - sessionsAll.length } },
      goals: {
        sensitivity: 'pooled ≥ 0.90 of device-scored apneas and hypopneas found',
        rei: "each night's REI within ±1 event/h of the device's AHI (its events over its own recording time)",
        merged_met: mergedAll.length === nights.length && (row(pooledMerged).sensitivity ?? 0) >= 0.9 && nights.every((n) => 'rei_minus_device' in n.merged && (n.merged.rei_minus_device === null || Math.abs(n.merged.rei_minus_device) <= 1)),
        per_session_met: sessionsAll.length === nights.length && (row(pooledSessions).sensitivity ?? 0) >= 0.9 && nights.every((n) => n.per_session.rei_minus_device === null || Math.abs(n.per_session.rei_minus_device) <= 1),
      },
      device_summaries: str,
      staging,
    };
  } finally {
    await db.close();
  }
}
