import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { errorText } from '../../api/messages';
import { Alert } from '../../ui/Alert';
import { AccessTable } from '../admin/AccessTrailPage';

/** "Who opened this patient": the access trail's last 200 entries for the patient, read when unfolded (issue 33 point 8). */
export function AccessLog({ patientId }: { patientId: number }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const log = useQuery({
    queryKey: ['patient', patientId, 'access-log'],
    enabled: open,
    queryFn: async () => (await call('GET /patient/access-log', { query: { patient_id: patientId } })).data.entries,
  });
  return (
    <details className="card access-log" onToggle={(e) => setOpen(e.currentTarget.open)} data-testid="access-log">
      <summary>{t('admin.trail.patientTitle')}</summary>
      {log.isError && <Alert tone="error">{errorText(t, log.error)}</Alert>}
      {log.isPending && open && <p className="muted" role="status">{t('common.loading')}</p>}
      {log.data && <AccessTable rows={log.data} showPatient={false} testId="access-log-table" />}
    </details>
  );
}
