import { useTranslation } from 'react-i18next';
import { usePatientsQuery } from '../../api/hooks';
import { errorText } from '../../api/messages';
import { Alert } from '../../ui/Alert';
import { PatientsTable } from './PatientsTable';

/** /app/patients: everyone in the physician's care, with their current device. */
export function PatientsPage() {
  const { t } = useTranslation();
  const query = usePatientsQuery();

  if (query.isPending) {
    return (
      <p className="muted loading" role="status" data-testid="patients-loading">
        {t('patients.loading')}
      </p>
    );
  }
  if (query.isError) {
    return (
      <div className="page">
        <Alert tone="error" testId="patients-error">
          {t('patients.error', { message: errorText(t, query.error) })}
        </Alert>
        <button type="button" className="button" onClick={() => void query.refetch()}>
          {t('common.retry')}
        </button>
      </div>
    );
  }
  return (
    <div className="page">
      <p className="muted">{t('patients.count', { count: query.data.length })}</p>
      <PatientsTable patients={query.data} />
    </div>
  );
}
