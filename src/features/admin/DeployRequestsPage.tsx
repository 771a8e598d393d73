import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../api/messages';
import { Alert } from '../../ui/Alert';
import { adminApi, adminKeys } from '../patient-admin/api';
import { displayDay } from '../patient-admin/logic/dates';
import { useClinic } from '../patient-admin/session';

/** /app/admin/requests: past-date deployment requests, approved or denied by an admin (spec 1 §1, §6). */
export function DeployRequestsPage() {
  const { t, i18n } = useTranslation();
  const clinic = useClinic();
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: adminKeys.deployRequests, queryFn: async () => (await adminApi.deployRequests()).data.requests, enabled: clinic.isAdmin });
  const decide = useMutation({
    mutationFn: ({ id, decision }: { id: number; decision: 'approve' | 'deny' }) => adminApi.decideRequest(id, decision),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.deployRequests }),
  });
  if (!clinic.isAdmin) return <Alert tone="info" testId="requests-admins-only">{t('patientAdmin.requests.onlyAdmins')}</Alert>;
  // The requested days are calendar days (in the patient's zone, from the server), not instants:
  // read in the admin's zone they moved a day (issue 16 point 4).
  const day = (iso: string) => displayDay(Date.parse(`${iso}T12:00:00Z`), 'UTC', i18n.language);
  return (
    <div className="page" data-testid="deploy-requests">
      <h2>{t('patientAdmin.requests.title')}</h2>
      {query.isError && <Alert tone="error">{errorText(t, query.error)}</Alert>}
      {decide.isError && <Alert tone="error" testId="request-decide-error">{errorText(t, decide.error)}</Alert>}
      <div className="table-wrap">
        <table className="table" data-testid="requests-table">
          <thead>
            <tr>
              <th scope="col">{t('patientAdmin.requests.columns.patient')}</th>
              <th scope="col">{t('patientAdmin.requests.columns.device')}</th>
              <th scope="col">{t('patientAdmin.requests.columns.dates')}</th>
              <th scope="col">{t('patientAdmin.requests.columns.by')}</th>
              <th scope="col">{t('patientAdmin.requests.columns.status')}</th>
            </tr>
          </thead>
          <tbody>
            {(query.data ?? []).length === 0 ? (
              <tr>
                <td colSpan={5} className="table-empty">
                  {t('patientAdmin.requests.empty')}
                </td>
              </tr>
            ) : (
              (query.data ?? []).map((r) => (
                <tr key={r.id} data-testid="request-row">
                  <td className="mono">{r.patient_code}</td>
                  <td className="mono">{r.device_id}</td>
                  <td>
                    <span data-testid="request-dates">{day(r.allocation_day)} → {day(r.deallocation_day)}</span>
                  </td>
                  <td>{r.requested_by}</td>
                  <td>
                    {r.status === 'pending' ? (
                      <span className="row-actions">
                        <button type="button" className="button button-primary" disabled={decide.isPending} onClick={() => decide.mutate({ id: r.id, decision: 'approve' })} data-testid="request-approve">
                          {t('patientAdmin.requests.approve')}
                        </button>
                        <button type="button" className="button" disabled={decide.isPending} onClick={() => decide.mutate({ id: r.id, decision: 'deny' })} data-testid="request-deny">
                          {t('patientAdmin.requests.deny')}
                        </button>
                      </span>
                    ) : (
                      t(`patientAdmin.requests.status.${r.status}`)
                    )}
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}
