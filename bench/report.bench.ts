// `npm run bench:report`: a PDF report from request to file (POST /reports, the server's
// worker, status polled, file downloaded) for a 10-hour night and for a 90-night trend, on
// PGlite, ≥ 5 rounds each; and the server's RSS during a report above idle. Results under
// `report` in bench/results/api.json. The 90 nights are 6 simulated nights repeated on
// later dates (their stored analyses and channel statistics copied, as for nights already
// analysed on arrival); the single night's first (cold) round analyses it from its samples.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { readConfig } from '../server/config';
import { openPglite } from '../server/db/pglite';
import type { Db } from '../server/db/adapter';
import { prepare } from '../server/start';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../server/seed';
import { simulateForPatient } from '../server/simulator/simulated';
import { percentile } from './timing';

const ROUNDS = Number(process.env.ROUNDS ?? 5);

async function columns(db: Db, table: string): Promise<string[]> {
  return (await db.query<{ column_name: string; is_identity: string }>(
    `select column_name, is_identity from information_schema.columns where table_name = $1 and table_schema = current_schema() order by ordinal_position`,
    [table],
  )).filter((c) => c.is_identity !== 'YES').map((c) => c.column_name);
}

/** Copies a recording to a night `days` later: its row, channel rows, stored analyses and statistics. */
async function copyNight(db: Db, recordingId: number, days: number): Promise<void> {
  const shift = days * 86_400;
  const rec = (await columns(db, 'recordings')).filter((c) => !['start_ms', 'stop_ms', 'night_key'].includes(c));
  const [{ id }] = await db.query<{ id: number }>(
    `insert into recordings (${rec.join(', ')}, start_ms, stop_ms, night_key) select ${rec.join(', ')}, start_ms + $2::bigint * 1000, stop_ms + $2::bigint * 1000, night_key + $2::bigint from recordings where id = $1 returning id`,
    [recordingId, shift],
  );
  const ch = (await columns(db, 'recording_channels')).filter((c) => !['recording_id', 't0_ms'].includes(c));
  await db.query(`insert into recording_channels (${ch.join(', ')}, recording_id, t0_ms) select ${ch.join(', ')}, $2, t0_ms + $3::bigint * 1000 from recording_channels where recording_id = $1`, [recordingId, id, shift]);
  for (const table of ['night_analyses', 'night_channel_stats']) {
    const cols = (await columns(db, table)).filter((c) => c !== 'recording_id');
    await db.query(`insert into ${table} (${cols.join(', ')}, recording_id) select ${cols.join(', ')}, $2 from ${table} where recording_id = $1`, [recordingId, id]);
  }
}

async function main() {
  const db = await openPglite(null);
  const running = await prepare({ ...readConfig({ SEED_NIGHTS: '0' }), webRoot: null }, db);
  const { app } = running;
  const call = (method: 'GET' | 'POST', url: string, token?: string, payload?: object) =>
    app.inject({ method, url: `/api/v1${url}`, payload, headers: token ? { authorization: `Bearer ${token}` } : {} });
  await call('POST', '/login', undefined, { email: DEMO_ACCOUNTS.physician, password: DEMO_PASSWORD });
  const otp = (await call('GET', `/dev/outbox?email=${DEMO_ACCOUNTS.physician}`)).json().data.messages[0].code;
  const token = (await call('POST', '/verify-otp', undefined, { email: DEMO_ACCOUNTS.physician, otp })).json().data.token as string;
  const patients = await db.query<{ id: number; patient_code: string }>(`select id, patient_code from patients where patient_code in ('NCT1001', 'NCT1003') order by patient_code`);
  const [single, trend] = patients;

  // A 10-hour night for the night report.
  const [longId] = await simulateForPatient(db, { patientId: single!.id, patientCode: single!.patient_code, deviceId: 'NCT0001', timezone: 'Europe/Zurich', nights: 1, profile: 'severe_osa', lastEvening: '2026-03-09', seed: 'bench-report-10h', longNight: true });
  const [long] = await db.query<{ night_key: number; hours: number }>('select night_key, (stop_ms - start_ms) / 3600000.0 as hours from recordings where id = $1', [longId]);

  // 90 nights for the trend report: 6 simulated, each repeated on later dates.
  const base = await simulateForPatient(db, { patientId: trend!.id, patientCode: trend!.patient_code, deviceId: 'NCT0004', timezone: 'Europe/Zurich', nights: 6, profile: 'moderate_osa', lastEvening: '2025-12-06', seed: 'bench-report-trend' });
  const token0 = await call('POST', '/analytics/patient/all-kpi-summary', token, { patient_id: trend!.id, night: (await db.query<{ night_key: number }>('select night_key from recordings where id = $1', [base[0]]))[0]!.night_key });
  if (token0.statusCode !== 200) throw new Error(`summary ${token0.statusCode}`);
  // Analyse and measure the simulated nights once (stored), then copy them forward.
  for (const id of base) {
    const [{ night_key }] = await db.query<{ night_key: number }>('select night_key from recordings where id = $1', [id]);
    await call('POST', '/analytics/patient/all-kpi-summary', token, { patient_id: trend!.id, night: Number(night_key) });
  }
  for (let k = 1; k < 15; k++) for (const id of base) await copyNight(db, id, 6 * k);
  const trendNights = (await db.query<{ night_key: number }>('select night_key from recordings where patient_id = $1 order by night_key', [trend!.id])).map((r) => Number(r.night_key));
  if (trendNights.length !== 90) throw new Error(`expected 90 trend nights, have ${trendNights.length}`);

  async function report(patient: { id: number; patient_code: string }, type: string, dates: number[]) {
    const t = performance.now();
    const res = await call('POST', '/reports', token, { patient_id: patient.id, order_id: patient.patient_code, language: 'en', report_type: type, dates: dates.map((d) => ({ numDate: d, checked: true })) });
    if (res.statusCode !== 202) throw new Error(`request ${res.statusCode}: ${res.body}`);
    const id = res.json().data.id as number;
    for (;;) {
      const job = (await call('GET', `/reports/${id}`, token)).json().data;
      if (job.status === 'failed') throw new Error(`report failed: ${job.error}`);
      if (job.status === 'done') break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const file = await call('GET', `/reports/${id}/file`, token);
    if (file.rawPayload.subarray(0, 4).toString() !== '%PDF') throw new Error('not a PDF');
    return { ms: performance.now() - t, bytes: file.rawPayload.length };
  }

  // RSS sampled every 10 ms while the reports run.
  global.gc?.();
  await new Promise((r) => setTimeout(r, 200));
  const idleRss = process.memoryUsage().rss;
  let peakRss = idleRss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 10);

  const cold = await report(single!, 'en-pyn', [Number(long!.night_key)]);
  const night: number[] = [];
  let nightBytes = 0;
  for (let i = 0; i < ROUNDS; i++) {
    const r = await report(single!, 'en-pyn', [Number(long!.night_key)]);
    night.push(r.ms);
    nightBytes = r.bytes;
  }
  const trendMs: number[] = [];
  let trendBytes = 0;
  for (let i = 0; i < ROUNDS; i++) {
    const r = await report(trend!, 'en-pys', trendNights);
    trendMs.push(r.ms);
    trendBytes = r.bytes;
  }
  clearInterval(sampler);

  const load = (await readFile('/proc/loadavg', 'utf8').catch(() => '')).split(' ').slice(0, 3).join(' ');
  const results = {
    night_10h_hours: Math.round(Number(long!.hours) * 100) / 100,
    night_10h_cold_ms: Math.round(cold.ms),
    night_10h_p50_ms: Math.round(percentile(night, 0.5)),
    night_10h_p95_ms: Math.round(percentile(night, 0.95)),
    night_10h_bytes: nightBytes,
    trend_90_p50_ms: Math.round(percentile(trendMs, 0.5)),
    trend_90_p95_ms: Math.round(percentile(trendMs, 0.95)),
    trend_90_bytes: trendBytes,
    rounds: ROUNDS,
    rss_idle_mb: Math.round(idleRss / 1048576),
    rss_above_idle_mb: Math.round((peakRss - idleRss) / 1048576),
    goals: { night_10h_ms: 2000, trend_90_ms: 5000, rss_above_idle_mb: 300 },
    load_average: load,
    note: 'Measured on the 2-core machine at the load average above; PGlite; the server worker in-process.',
  };
  console.table(results);
  await running.close();
  await mkdir(new URL('./results/', import.meta.url), { recursive: true });
  const file = new URL('./results/api.json', import.meta.url);
  const previous = JSON.parse(await readFile(file, 'utf8').catch(() => '{}')) as Record<string, unknown>;
  await writeFile(file, JSON.stringify({ ...previous, report: results }, null, 2) + '\n');
}

main().catch((err: Error) => {
  console.error(err.stack ?? err.message);
  process.exit(1);
});
