import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { errorText } from '../../api/messages';
import { formatClock, formatNightDate } from '../../charts/core/format';
import { Alert } from '../../ui/Alert';
import { Dialog } from '../../ui/Dialog';
import type { NightInfo, PatientInfo } from '../night/types';
import { AgreementTables } from './AgreementTables';
import { SummaryTables, useNightSummary } from './SummaryPanel';
import { ReportForm } from '../reports/ReportForm';

/** The SpO2 line of the report (spec 2 §2, §9: a red line at 90). */
const REPORT_SPO2_LINE = 90;
const W = 760;
const H = 180;
const PAD = { left: 36, right: 8, top: 8, bottom: 22 };
const HOUR_MS = 3_600_000;

/** Min and max of each of `columns` equal slices of the series (missing values dropped). */
function envelope(ts: readonly number[], values: readonly (number | null)[], columns: number): Array<{ t: number; lo: number; hi: number }> {
  const out: Array<{ t: number; lo: number; hi: number }> = [];
  if (ts.length === 0) return out;
  const t0 = ts[0]!;
  const span = Math.max(1, ts[ts.length - 1]! - t0);
  let bucket = -1;
  for (let i = 0; i < ts.length; i++) {
    const v = values[i];
    if (v === null || v === undefined || !Number.isFinite(v) || v <= 0) continue;
    const b = Math.min(columns - 1, Math.floor(((ts[i]! - t0) / span) * columns));
    if (b !== bucket) {
      out.push({ t: ts[i]!, lo: v, hi: v });
      bucket = b;
    } else {
      const last = out[out.length - 1]!;
      last.lo = Math.min(last.lo, v);
      last.hi = Math.max(last.hi, v);
    }
  }
  return out;
}

function Spo2Chart({ patientId, night }: { patientId: number; night: NightInfo }) {
  const { t } = useTranslation();
  const data = useQuery({
    queryKey: ['patient', patientId, 'report-spo2', night.recording_id],
    queryFn: async ({ signal }) =>
      (await call('GET /analytics/patient/type=:type', { params: { type: 'SPO2' }, query: { patient_id: patientId, recording_date: night.recording_date } }, { signal })).data,
  });
  if (data.isError) return <Alert tone="error">{errorText(t, data.error)}</Alert>;
  if (!data.data) return <p className="muted" role="status">{t('common.loading')}</p>;
  const series = data.data.SPO2;
  if (!series || series.ts.length === 0) return <p className="muted" data-testid="report-no-spo2">{t('night.noData', { channel: t('night.channels.SPO2') })}</p>;
  const cols = envelope(series.ts.map((s) => s * 1000), series.dataset, W - PAD.left - PAD.right);
  const t0 = night.recording_start_time;
  const t1 = night.recording_stop_time;
  const lo = Math.min(80, ...cols.map((c) => c.lo));
  const x = (ms: number) => PAD.left + ((ms - t0) / Math.max(1, t1 - t0)) * (W - PAD.left - PAD.right);
  const y = (v: number) => PAD.top + (H - PAD.top - PAD.bottom) * (1 - (v - lo) / (100 - lo));
  const hours: number[] = [];
  for (let h = Math.ceil(t0 / HOUR_MS) * HOUR_MS; h <= t1; h += HOUR_MS) hours.push(h);
  return (
    <svg direction="ltr" className="report-spo2" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={t('report.spo2')} data-testid="report-spo2">
      {[lo, REPORT_SPO2_LINE, 100].map((v) => (
        <text key={v} x={PAD.left - 4} y={y(v) + 4} textAnchor="end" className="report-axis">{v.toFixed(0)}</text>
      ))}
      {cols.map((c) => <line key={c.t} x1={x(c.t)} x2={x(c.t)} y1={y(c.hi)} y2={y(c.lo) + 0.5} className="report-trace" />)}
      <line x1={PAD.left} x2={W - PAD.right} y1={y(REPORT_SPO2_LINE)} y2={y(REPORT_SPO2_LINE)} className="report-line-90" data-testid="report-line-90" />
      {hours.map((h) => <text key={h} x={x(h)} y={H - 6} textAnchor="middle" className="report-axis">{formatClock(h, night.timezone)}</text>)}
    </svg>
  );
}

/**
 * The night report (spec 2 §2 "generate report", the Report dialog): the patient and
 * night, the summary tables, the device's scoring and agreement where the night has it, and the SpO2 chart with its line at 90, ready to print or save
 * as PDF from the browser's print dialog.
 */
export function NightReport({ open, onClose, patient, night, nights = [night], pdf = true }: { open: boolean; onClose: () => void; patient: PatientInfo; night: NightInfo; nights?: readonly NightInfo[]; pdf?: boolean }) {
  const { t, i18n } = useTranslation();
  const summary = useNightSummary(patient.patient_id, open ? night : null);
  const name = [patient.first_name, patient.last_name].filter(Boolean).join(' ') || patient.patient_code;
  return (
    <Dialog
      open={open}
      title={t('report.title')}
      onClose={onClose}
      testId="report-dialog"
      wide
      actions={
        <>
          <button type="button" className="button" onClick={onClose}>{t('common.close')}</button>
          <button type="button" className="button button-primary" disabled={!summary.data} onClick={() => window.print()} data-testid="report-print">{t('report.print')}</button>
        </>
      }
    >
      {/* The PDF made on the server (issue 17): type, language, dates, progress and download. */}
      {open && pdf && <ReportForm patientId={patient.patient_id} patientCode={patient.patient_code} view="single" nights={nights} checked={[night.night]} />}
      <article className="report-sheet" data-testid="report-sheet">
        <header className="report-head">
          <h3>{t('report.heading', { name })}</h3>
          <p className="muted">
            {t('report.meta', { code: patient.patient_code, device: night.device_id, date: formatNightDate(night.night, i18n.language) })}
          </p>
        </header>
        {summary.isError && <Alert tone="error">{errorText(t, summary.error)}</Alert>}
        {summary.data ? <SummaryTables night={night} summary={summary.data} /> : <p className="muted" role="status">{t('common.loading')}</p>}
        {/* The device's own scoring, apart from Nocturne's, and their agreement (issue 12). */}
        <AgreementTables patientId={patient.patient_id} night={open ? night : null} />
        <h4>{t('report.spo2')}</h4>
        {open && <Spo2Chart patientId={patient.patient_id} night={night} />}
      </article>
    </Dialog>
  );
}
