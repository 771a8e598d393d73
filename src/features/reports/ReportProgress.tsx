import { useTranslation } from 'react-i18next';
import type { ReportJob } from './api';

/** The job's progress bar with the provider's step names, the current one marked. */
export function ReportProgress({ job }: { job: ReportJob }) {
  const { t } = useTranslation();
  const current = job.status === 'done' ? job.steps.length : job.step ? job.steps.indexOf(job.step) : -1;
  return (
    <div className="report-progress" data-testid="report-progress" data-status={job.status}>
      <progress max={1} value={job.progress} aria-label={t('reports.progress')} />
      <ol className="report-steps">
        {job.steps.map((step, i) => (
          <li key={step} className={i < current ? 'done' : i === current ? 'current' : ''} aria-current={i === current ? 'step' : undefined} data-testid={`report-step-${step}`}>
            {t(`reports.steps.${step}` as 'reports.steps.process_kpis')}
          </li>
        ))}
      </ol>
      <p className="muted" role="status">{t(`reports.status.${job.status}`)}</p>
    </div>
  );
}
