import { useQuery } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { errorText } from '../../api/messages';
import { ADMIN_REQUESTS_PATH } from '../../routes';
import { Alert } from '../../ui/Alert';
import { formatNightDate } from '../../charts/core/format';
import { adminApi, adminKeys } from '../patient-admin/api';
import { displayDay } from '../patient-admin/logic/dates';
import { browserZone } from '../../format';
import { useClinic } from '../patient-admin/session';
import type { DataCenterStatus } from '../patient-admin/types';
import { FutureBookings } from './FutureBookings';

const STATUS_BADGE: Record<DataCenterStatus, string> = {
  active: 'badge-stable',
  inactive: 'badge-control',
  overdue: 'badge-atRisk',
  pending: 'badge-control',
  available: 'badge-notKnown',
  not_allocated: 'badge-notKnown',
  deployed: 'badge-stable',
  archive_ready: 'badge-control',
};

/** /app/datacenter: every recording device of the physician, its status, patient and last recording. */
export function DataCenterPage() {
  const { t, i18n } = useTranslation();
  const clinic = useClinic();
  const query = useQuery({ queryKey: adminKeys.dataCenter, queryFn: async () => (await adminApi.dataCenter()).data.devices });
  const zone = browserZone();
  const [open, setOpen] = useState<string | null>(null);
  const day = (ms: number | null) => (ms ? displayDay(ms, zone, i18n.language) : t('patients.unknown'));
  return (
    <div className="page" data-testid="datacenter">
      <p className="muted">{t('patientAdmin.dataCenter.intro')}</p>
      {clinic.isAdmin && (
        <p>
          <Link href={ADMIN_REQUESTS_PATH} data-testid="admin-requests-link">
            {t('patientAdmin.list.adminRequests')}
          </Link>
        </p>
      )}
      {query.isError && <Alert tone="error">{t('patientAdmin.dataCenter.error', { message: errorText(t, query.error) })}</Alert>}
      {query.isPending ? (
        <p className="muted loading">{t('common.loading')}</p>
      ) : (
        <div className="table-wrap">
          <table className="table" data-testid="datacenter-table">
            <thead>
              <tr>
                <th scope="col">{t('patientAdmin.dataCenter.columns.device')}</th>
                <th scope="col">{t('patientAdmin.dataCenter.columns.status')}</th>
                <th scope="col">{t('patientAdmin.dataCenter.columns.patient')}</th>
                <th scope="col">{t('patientAdmin.dataCenter.columns.allocation')}</th>
                <th scope="col">{t('patientAdmin.dataCenter.columns.return')}</th>
                <th scope="col">{t('patientAdmin.dataCenter.columns.lastRecording')}</th>
                <th scope="col">{t('patientAdmin.dataCenter.future')}</th>
              </tr>
            </thead>
            <tbody>
              {(query.data ?? []).length === 0 ? (
                <tr>
                  <td colSpan={7} className="table-empty" data-testid="datacenter-empty">
                    {t('patientAdmin.errors.noData')}
                  </td>
                </tr>
              ) : (
                (query.data ?? []).map((d) => (
                  <Fragment key={d.device_master_id}>
                  <tr data-testid="datacenter-row" data-status={d.status}>
                    <td className="mono">{d.device_id}</td>
                    <td>
                      <span className={`badge ${STATUS_BADGE[d.status]}`}>{t(`patientAdmin.dataCenter.status.${d.status}`)}</span>
                      {d.deployed && <span className="muted"> · {t('patientAdmin.dataCenter.deployed')}</span>}
                    </td>
                    <td className="mono">{d.patient_code ?? t('patients.unknown')}</td>
                    <td>{day(d.device_allocation_date)}</td>
                    <td>{day(d.device_deallocation_date)}</td>
                    {/* The night's date, as every other screen dates a night (not the day it stopped). */}
                    <td data-testid="datacenter-last">{d.last_recording ? `${d.last_recording.patient_code} · ${formatNightDate(d.last_recording.night, i18n.language)}` : t('patients.unknown')}</td>
                    <td>
                      <button type="button" className="button-link" aria-expanded={open === d.device_id} onClick={() => setOpen(open === d.device_id ? null : d.device_id)} data-testid="future-toggle">
                        {t('patientAdmin.dataCenter.future')}
                      </button>
                    </td>
                  </tr>
                  {open === d.device_id && (
                    <tr>
                      <td colSpan={7}>
                        <FutureBookings deviceId={d.device_id} canCancel={!clinic.isAnnotator} />
                      </td>
                    </tr>
                  )}
                  </Fragment>
                ))
              )}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
