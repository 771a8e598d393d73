// Issue 17 point 1: reports as real documents. A request becomes a job, the server's worker
// makes the PDF (process KPIs → create content → render → file), the client polls and
// downloads it. The PDFs are read back with poppler (pdftotext, pdftoppm) and their figures
// compared with the API's summary.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulateForPatient } from '../../server/simulator/simulated';
import { claimJob } from '../../server/reports/worker';
import { reportFileName } from '../../contract/report-types';
import { createUser, DEMO_ACCOUNTS, finishedReport, signIn, startTestServer, type TestServer } from './helpers';

let server: TestServer;
let physician = '';
let other = '';
let annotator = '';
let patientId = 0;
let nights: number[] = [];
const tmp = mkdtempSync(path.join(tmpdir(), 'nocturne-reports-'));

const post = (url: string, body: object, token = physician) => server.call('POST', url, { token, body });
const get = (url: string, token = physician) => server.call('GET', url, { token });
const request = (type: string, language: string, dates: number[], extra: Array<{ numDate: number; checked: boolean }> = []) =>
  post('/reports', { patient_id: patientId, order_id: 'NCT1001', language, version: 1, report_type: type, dates: [...dates.map((d) => ({ numDate: d, checked: true })), ...extra] });

/** Polls the job until it is done or failed, keeping every status seen. */
async function finished(id: number) {
  const seen: string[] = [];
  const job = await finishedReport(server, id, physician, seen);
  return { job, seen };
}

function pdfText(pdf: Buffer, name: string): string {
  const file = path.join(tmp, name);
  writeFileSync(file, pdf);
  return execFileSync('/usr/bin/pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

/** Page 1 at 40 dpi as RGB pixels (PPM). */
function pageOnePixels(pdf: Buffer, name: string) {
  const file = path.join(tmp, name);
  writeFileSync(file, pdf);
  execFileSync('/usr/bin/pdftoppm', ['-r', '40', '-f', '1', '-l', '1', file, path.join(tmp, `${name}-p`)]);
  const ppm = readFileSync(path.join(tmp, `${name}-p-1.ppm`));
  // P6\n<w> <h>\n255\n then RGB bytes.
  const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(ppm.subarray(0, 40).toString('latin1'))!;
  return { width: Number(header[1]), height: Number(header[2]), rgb: ppm.subarray(header[0].length) };
}

beforeAll(async () => {
  server = await startTestServer();
  physician = (await signIn(server, DEMO_ACCOUNTS.physician)).token;
  annotator = (await signIn(server, DEMO_ACCOUNTS.annotator)).token;
  const o = await createUser(server);
  other = (await signIn(server, o.email, o.password)).token;
  [{ id: patientId }] = await server.db.query<{ id: number }>(`select id from patients where patient_code = 'NCT1001'`);
  const ids = await simulateForPatient(server.db, { patientId, patientCode: 'NCT1001', deviceId: 'NCT0001', timezone: 'Europe/Zurich', nights: 3, profile: 'severe_osa', lastEvening: '2026-03-09', seed: 'reports' });
  nights = (await server.db.query<{ night_key: number }>('select night_key from recordings where id = any($1::int[]) order by night_key', [ids])).map((r) => Number(r.night_key));
}, 240_000);
afterAll(async () => {
  await server.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('report service', { timeout: 240_000 }, () => {
  it('a night report goes through the steps, is downloaded as a PDF whose figures are the summary API’s, on every page the patient, practice and page number', async () => {
    const night = nights.at(-1)!;
    const [{ start_ms }] = await server.db.query<{ start_ms: number }>('select start_ms from recordings where patient_id = $1 and night_key = $2', [patientId, night]);
    const note = await post('/analytics/patient/new-annotations', { patient_id: patientId, night, kpi: 'SPO2,NC_PSG', start_time: Number(start_ms) + 3_600_000, duration: '30', label: 1, comment: 'Snoring heard by partner' });
    expect(note.statusCode).toBeLessThan(300);
    // Only checked dates are sent on: the unchecked first night is not in the report.
    const res = await request('en-pyn', 'en', [night], [{ numDate: nights[0]!, checked: false }]);
    expect(res.statusCode).toBe(202);
    const queued = res.json().data;
    expect(queued).toMatchObject({ patient_code: 'NCT1001', order_id: 'NCT1001', report_type: 'en-pyn', language: 'en', version: 1, view: 'single', steps: ['process_kpis', 'create_content', 'render', 'file'] });
    expect(queued.dates).toEqual([new Date(night * 1000).toISOString().slice(0, 10)]);
    const { job, seen } = await finished(queued.id);
    expect(job.status, job.error).toBe('done');
    expect(job.progress).toBe(1);
    expect(seen.at(-1)).toBe('done');
    expect(job.file_name).toBe(reportFileName('en-pyn', 'en', 'NCT1001', 'NCT0001', job.dates));
    expect(job.file_name).toMatch(/^NCT0001_\d{8}_nightly_report_en\.pdf$/);

    const file = await get(`/reports/${queued.id}/file`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toContain(job.file_name);
    const pdf = file.rawPayload;
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    const text = pdfText(pdf, 'night.pdf');
    const summary = (await post('/analytics/patient/all-kpi-summary', { patient_id: patientId, night })).json().data;
    const row = (label: string) => {
      const line = text.split('\n').find((l) => l.trim().startsWith(label));
      return line?.trim().slice(label.length).trim().split(/\s{2,}/)[0];
    };
    expect(summary.ahi).toBeGreaterThan(0);
    expect(row('AHI')).toBe(summary.ahi.toFixed(2));
    expect(row('ODI')).toBe(summary.odi.toFixed(2));
    expect(row('RII ')).toBe(summary.rii.toFixed(2));
    expect(row('Apneas')).toBe(String(summary.apneas));
    expect(row('Lowest SpO2 (%)')).toBe(summary.lowest_spo2.toFixed(1));
    expect(row('Sleep efficiency (%)')).toBe(summary.sleep_efficiency.toFixed(1));
    const spo2 = text.split('\n').find((l) => l.trim().startsWith('SpO2 (%) '))!.trim().split(/\s{2,}/);
    expect(spo2.slice(1, 3)).toEqual([summary.percentiles.SPO2.medianPercentile.toFixed(1), summary.percentiles.SPO2.lowerPercentile.toFixed(1)]);
    expect(text).toContain('Snoring heard by partner');
    // The annotation's channels by their names, as the screen shows them, not their codes.
    const noteLine = text.split('\n').find((l) => l.includes('Snoring heard by partner'))!;
    expect(noteLine).toContain('SpO2, Nasal Cannula');
    expect(text).not.toContain('NC_PSG');
    expect(text).toContain('Hypnogram');
    const pages = text.split('\f').filter((p) => p.trim());
    expect(pages.length).toBe(job.pages);
    pages.forEach((p, i) => {
      expect(p).toContain('Patient: NCT1001');
      expect(p).toContain('Practice:');
      expect(p).toContain(`Page ${i + 1} of ${pages.length}`);
    });

    // Page 1 is drawn: ink on it, and the red SpO2 line at 90 % on the page that has the chart.
    const { width, height, rgb } = pageOnePixels(pdf, 'night.pdf');
    let ink = 0;
    for (let i = 0; i < rgb.length; i += 3) if (rgb[i]! < 200 || rgb[i + 1]! < 200 || rgb[i + 2]! < 200) ink++;
    expect(ink / (width * height)).toBeGreaterThan(0.01);
  });

  it('a German trend report over the nights: German words and numbers, box plots and per-night figures equal the summary’s', async () => {
    const res = await request('de-pys', 'de', nights);
    const { job } = await finished(res.json().data.id);
    expect(job.status, job.error).toBe('done');
    expect(job.file_name).toMatch(/^NCT1001_\d{8}_\d{8}_study_de\.pdf$/);
    const text = pdfText((await get(`/reports/${job.id}/file`)).rawPayload, 'trend.pdf');
    expect(text).toContain('Studienbericht');
    expect(text).toContain('Seite 1 von');
    expect(text).toContain('Verteilung pro Nacht');
    for (const night of nights) {
      const s = (await post('/analytics/patient/all-kpi-summary', { patient_id: patientId, night })).json().data;
      const date = new Date(night * 1000).toISOString().slice(0, 10);
      const line = text.split('\n').find((l) => l.trim().startsWith(date) && l.includes(','))!;
      const cells = line.trim().split(/\s{2,}/);
      expect(cells[1]).toBe(s.rii.toFixed(2).replace('.', ','));
      expect(cells[2]).toBe(s.ahi.toFixed(2).replace('.', ','));
      expect(cells[3]).toBe(s.odi.toFixed(2).replace('.', ','));
    }
  });

  it('a report that fails says why and, retried once the night exists, is made', async () => {
    const missing = nights.at(-1)! + 86_400;
    const res = await request('en-RPM', 'en', [missing]);
    const { job } = await finished(res.json().data.id);
    expect(job.status).toBe('failed');
    expect(job.error).toBe('None of the chosen dates has a recording.');
    expect((await get(`/reports/${job.id}/file`)).statusCode).toBe(409);
    // Only a failed report is retried.
    const done = (await get('/reports')).json().data.find((j: { status: string }) => j.status === 'done');
    expect((await post(`/reports/${done.id}/retry`, {})).statusCode).toBe(409);

    const [rec] = await simulateForPatient(server.db, { patientId, patientCode: 'NCT1001', deviceId: 'NCT0001', timezone: 'Europe/Zurich', nights: 1, profile: 'healthy', lastEvening: '2026-03-10', seed: 'reports-retry' });
    const [{ night_key }] = await server.db.query<{ night_key: number }>('select night_key from recordings where id = $1', [rec]);
    expect(Number(night_key)).toBe(missing);
    const retry = await post(`/reports/${job.id}/retry`, {});
    expect(retry.statusCode).toBe(202);
    expect(retry.json().data.status).toMatch(/queued|running|done/);
    const again = await finished(job.id);
    expect(again.job.status, again.job.error).toBe('done');
    expect(again.job.attempts).toBe(2);
    expect(again.job.error).toBeNull();
    expect(again.job.file_name).toMatch(/^NCT0001_\d{8}_rpm_report\.pdf$/);
  });

  it("another practice's physician gets 404 for every report of this practice; annotators make none", async () => {
    const [mine] = (await get('/reports')).json().data;
    expect(mine).toBeDefined();
    for (const url of [`/reports/${mine.id}`, `/reports/${mine.id}/file`]) expect((await get(url, other)).statusCode).toBe(404);
    expect((await post(`/reports/${mine.id}/retry`, {}, other)).statusCode).toBe(404);
    expect((await get('/reports', other)).json().data).toEqual([]);
    const theirs = await post('/reports', { patient_id: patientId, order_id: 'NCT1001', language: 'en', report_type: 'en', dates: [{ numDate: nights[0], checked: true }] }, other);
    expect(theirs.statusCode).toBe(404);
    expect((await post('/reports', { patient_id: patientId, order_id: 'NCT1001', language: 'en', report_type: 'en', dates: [{ numDate: nights[0], checked: true }] }, annotator)).statusCode).toBe(403);
    expect((await get(`/reports/${mine.id}`, annotator)).statusCode).toBe(403);
  });

  it('refuses requests without a checked date, with another order id or an unknown type', async () => {
    expect((await request('en', 'en', [], [{ numDate: nights[0]!, checked: false }])).statusCode).toBe(400);
    expect((await post('/reports', { patient_id: patientId, order_id: 'NCT9999', language: 'en', report_type: 'en', dates: [{ numDate: nights[0], checked: true }] })).statusCode).toBe(400);
    expect((await request('fr-xx', 'en', nights)).statusCode).toBe(400);
    expect((await request('en', 'fr', nights)).statusCode).toBe(400);
  });

  it('workers claim each queued job once (FOR UPDATE SKIP LOCKED)', async () => {
    const quiet = await startTestServer({ REPORT_WORKER: '0' });
    try {
      const [{ id: pid }] = await quiet.db.query<{ id: number }>(`select id from patients where patient_code = 'NCT1002'`);
      const [{ physician_id }] = await quiet.db.query<{ physician_id: number }>('select physician_id from patients where id = $1', [pid]);
      for (let i = 0; i < 8; i++) {
        await quiet.db.query(`insert into report_jobs (practice_id, patient_id, order_id, report_type, view, language, dates) values ($1, $2, 'NCT1002', 'en', 'trend', 'en', '[1]')`, [physician_id, pid]);
      }
      const claims = await Promise.all(Array.from({ length: 12 }, (_, i) => claimJob(quiet.db, `w${i % 3}`)));
      const ids = claims.filter((c) => c !== null).map((c) => c!.id);
      expect(ids.length).toBe(8);
      expect(new Set(ids).size).toBe(8);
      const rows = await quiet.db.query<{ status: string; attempts: number; claimed_by: string }>('select status, attempts, claimed_by from report_jobs');
      expect(rows.every((r) => r.status === 'running' && r.attempts === 1 && /^w\d$/.test(r.claimed_by))).toBe(true);
    } finally {
      await quiet.close();
    }
  });
});

describe('a corrected night in the report', { timeout: 240_000 }, () => {
  it('prints the corrected figures (the summary’s) and lists the correction in force', async () => {
    const night = nights[0]!;
    const [{ start_ms }] = await server.db.query<{ start_ms: number }>('select start_ms from recordings where patient_id = $1 and night_key = $2', [patientId, night]);
    const before = (await post('/analytics/patient/all-kpi-summary', { patient_id: patientId, night })).json().data;
    const made = await post('/analytics/patient/corrections', { patient_id: patientId, night, kind: 'invalid_span', start_ms: Number(start_ms) + 3_600_000, end_ms: Number(start_ms) + 3 * 3_600_000, reason: 'Partner in the room' });
    expect(made.statusCode).toBe(201);
    const summary = (await post('/analytics/patient/all-kpi-summary', { patient_id: patientId, night })).json().data;
    expect(summary.corrected).toBe(true);
    expect(summary.apneas + summary.hypopneas).toBeLessThan(before.apneas + before.hypopneas);
    const { job } = await finished((await request('en-pyn', 'en', [night])).json().data.id);
    expect(job.status, job.error).toBe('done');
    const text = pdfText((await get(`/reports/${job.id}/file`)).rawPayload, 'corrected.pdf');
    const line = text.split('\n').find((l) => l.trim().startsWith('AHI'))!;
    expect(line.trim().slice(3).trim().split(/\s{2,}/)[0]).toBe(summary.ahi.toFixed(2));
    expect(text.replace(/\s+/g, ' ')).toContain('Manual corrections applied');
    expect(text).toContain('Partner in the room');
    const undone = await post('/analytics/patient/corrections/undo', { patient_id: patientId, night, id: made.json().data.corrections[0].id });
    expect(undone.statusCode).toBe(200);
  });
});
