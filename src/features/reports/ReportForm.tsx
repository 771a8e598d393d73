import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { errorText } from '../../api/messages';
import { useAction } from '../../ui/useAction';
import { formatNightDate } from '../../charts/core/format';
import { Alert } from '../../ui/Alert';
import type { NightInfo } from '../night/types';
import { defaultLanguage, downloadReport, REPORT_POLL_MS, reportStatus, requestReport, retryReport, SINGLE_NIGHT_TYPES, TREND_TYPES, type ReportJob, type ReportLanguage, type ReportType } from './api';
import { ReportProgress } from './ReportProgress';
import '../../styles/reports.css';

/**
 * The report dialog's form (spec 2 §2, §7): type, language and the dates as checkboxes (only
 * checked ones are sent), then the job's progress with its steps, then the download. A failed
 * report says why and can be retried.
 */
export function ReportForm({ patientId, patientCode, view, nights, checked }: { patientId: number; patientCode: string; view: 'single' | 'trend'; nights: readonly NightInfo[]; checked: readonly number[] }) {
  const { t, i18n } = useTranslation();
  const types = view === 'single' ? SINGLE_NIGHT_TYPES : TREND_TYPES;
  const [type, setType] = useState<ReportType>(view === 'single' ? 'en-pyn' : 'en');
  const [language, setLanguage] = useState<ReportLanguage>(i18n.language.startsWith('de') ? 'de' : 'en');
  const [picked, setPicked] = useState<ReadonlySet<number>>(new Set(checked));
  const [job, setJob] = useState<ReportJob | null>(null);
  const { busy, problem, setProblem, run } = useAction();

  useEffect(() => setPicked(new Set(checked)), [checked.join(',')]);

  const active = job?.status === 'queued' || job?.status === 'running';
  useJobPolling(job, setJob, setProblem);

  const generate = () => {
    if (picked.size === 0) return setProblem(t('reports.pickDate'));
    run(async () => {
      setJob(await requestReport({ patient_id: patientId, order_id: patientCode, language, version: 1, report_type: type, dates: nights.map((n) => ({ numDate: n.night, checked: picked.has(n.night) })) }));
    });
  };

  return (
    <section className="report-form" data-testid="report-form">
      <div className="report-form-row">
        <label className="field-inline">
          <span>{t('reports.type')}</span>
          <select
            value={type}
            onChange={(e) => {
              const next = e.target.value as ReportType;
              setType(next);
              setLanguage(defaultLanguage(next));
            }}
            data-testid="report-type"
          >
            {types.map((x) => <option key={x} value={x}>{t(`reports.types.${x}` as 'reports.types.en')}</option>)}
          </select>
        </label>
        <label className="field-inline">
          <span>{t('reports.language')}</span>
          <select value={language} onChange={(e) => setLanguage(e.target.value as ReportLanguage)} data-testid="report-language">
            <option value="de">{t('reports.languages.de')}</option>
            <option value="en">{t('reports.languages.en')}</option>
          </select>
        </label>
      </div>
      <NightChoice nights={nights} picked={picked} onChange={setPicked} />
      <div className="report-form-row">
        <button type="button" className="button button-primary" disabled={busy || active} onClick={generate} data-testid="report-generate">
          {t('reports.generatePdf')}
        </button>
        {job?.status === 'done' && (
          <button type="button" className="button" disabled={busy} onClick={() => run(() => downloadReport(job))} data-testid="report-download">
            {t('reports.download', { name: job.file_name })}
          </button>
        )}
        {job?.status === 'failed' && (
          <button type="button" className="button" disabled={busy} onClick={() => run(async () => setJob(await retryReport(job.id)))} data-testid="report-retry">
            {t('reports.retry')}
          </button>
        )}
      </div>
      {job && <ReportProgress job={job} />}
      {job?.status === 'failed' && <Alert tone="error" testId="report-failed">{t('reports.failed', { reason: job.error ?? '' })}</Alert>}
      {problem && <Alert tone="error" testId="report-problem">{problem}</Alert>}
    </section>
  );
}

/** Polls a queued or running job until it is done or failed (then the reports list is read again). */
function useJobPolling(job: ReportJob | null, setJob: (j: ReportJob) => void, setProblem: (p: string) => void) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const jobId = job?.id;
  const active = job?.status === 'queued' || job?.status === 'running';
  useEffect(() => {
    if (!jobId || !active) return;
    let stop = false;
    const poll = async () => {
      try {
        const next = await reportStatus(jobId);
        if (!stop) setJob(next);
        if (next.status === 'done' || next.status === 'failed') await queryClient.invalidateQueries({ queryKey: ['reports'] });
      } catch (error) {
        if (!stop) setProblem(errorText(t, error));
      }
    };
    // poll() handles its own failures (shown as the form's problem), so nothing is left to reject.
    const timer = setInterval(() => void poll(), REPORT_POLL_MS);
    return () => {
      stop = true;
      clearInterval(timer);
    };
  }, [jobId, active]);
}

/** The nights to report on, each a checkbox. */
function NightChoice({ nights, picked, onChange }: { nights: readonly NightInfo[]; picked: ReadonlySet<number>; onChange: (next: ReadonlySet<number>) => void }) {
  const { t, i18n } = useTranslation();
  return (
    <fieldset className="report-dates" data-testid="report-dates">
      <legend>{t('reports.dates', { count: picked.size })}</legend>
      {nights.map((n) => (
        <label key={n.night} className="check">
          <input
            type="checkbox"
            checked={picked.has(n.night)}
            onChange={() => {
              const next = new Set(picked);
              if (next.has(n.night)) next.delete(n.night);
              else next.add(n.night);
              onChange(next);
            }}
          />
          {formatNightDate(n.night, i18n.language)}
        </label>
      ))}
    </fieldset>
  );
}
