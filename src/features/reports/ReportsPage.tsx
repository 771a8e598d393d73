import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { errorText } from '../../api/messages';
import { Alert } from '../../ui/Alert';
import { useAction } from '../../ui/useAction';
import { patientDetailPath } from '../../routes';
import { useFormat } from '../../format';
import { downloadReport, listReports, REPORT_POLL_MS, retryReport } from './api';
import '../../styles/reports.css';

/** /app/reports: the practice's generated reports with their status, retry and download (issue 17 point 5). */
export function ReportsPage() {
  const { t } = useTranslation();
  const f = useFormat();
  const queryClient = useQueryClient();
  const { problem, run } = useAction();
  const reports = useQuery({
    queryKey: ['reports'],
    queryFn: listReports,
    // Keeps asking while a report is being made.
    refetchInterval: (q) => ((q.state.data ?? []).some((j) => j.status === 'queued' || j.status === 'running') ? REPORT_POLL_MS : false),
  });
  // A download or a retry, then the list again; a failure shows as the page's problem.
  const act = (work: () => Promise<unknown>) =>
    run(async () => {
      await work();
      await queryClient.invalidateQueries({ queryKey: ['reports'] });
    });
  return (
    <section className="card reports-page" data-testid="reports-page" aria-labelledby="reports-title">
      <h2 id="reports-title">{t('reports.title')}</h2>
      <p className="muted">{t('reports.intro')}</p>
      {problem && <Alert tone="error" testId="reports-problem">{problem}</Alert>}
      {reports.isError && <Alert tone="error">{errorText(t, reports.error)}</Alert>}
      {reports.data && reports.data.length === 0 && <p className="muted" data-testid="reports-empty">{t('reports.empty')}</p>}
      {reports.data && reports.data.length > 0 && (
        <table className="reports-table" data-testid="reports-table">
          <thead>
            <tr>
              <th scope="col">{t('reports.columns.created')}</th>
              <th scope="col">{t('reports.columns.patient')}</th>
              <th scope="col">{t('reports.columns.type')}</th>
              <th scope="col">{t('reports.columns.dates')}</th>
              <th scope="col">{t('reports.columns.status')}</th>
              <th scope="col">{t('reports.columns.file')}</th>
            </tr>
          </thead>
          <tbody>
            {reports.data.map((j) => (
              <tr key={j.id} data-testid={`report-row-${j.id}`} data-status={j.status}>
                <td>{f.instant(j.created_at)}</td>
                <td><Link href={patientDetailPath(j.patient_id)}>{j.patient_code}</Link></td>
                <td>{t(`reports.types.${j.report_type}` as 'reports.types.en')} · {j.language.toUpperCase()}</td>
                <td>{j.dates.length === 1 ? f.isoDay(j.dates[0]!) : `${f.isoDay(j.dates[0]!)} – ${f.isoDay(j.dates.at(-1)!)} (${j.dates.length})`}</td>
                <td>
                  {t(`reports.status.${j.status}`)}
                  {j.status === 'running' && j.step && ` · ${t(`reports.steps.${j.step}` as 'reports.steps.process_kpis')}`}
                  {j.status === 'failed' && <div className="error-text">{j.error}</div>}
                </td>
                <td>
                  {j.status === 'done' && (
                    <button type="button" className="button button-small" onClick={() => act(() => downloadReport(j))} data-testid="reports-download">
                      {t('reports.downloadShort')}
                    </button>
                  )}
                  {j.status === 'failed' && (
                    <button type="button" className="button button-small" onClick={() => act(() => retryReport(j.id))} data-testid="reports-retry">
                      {t('reports.retry')}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
