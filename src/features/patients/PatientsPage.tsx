import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { errorText } from '../../api/messages';
import type { PatientSummary } from '../../../contract/answers';
import { ADMIN_REQUESTS_PATH, editPatientPath, PATHS, viewPatientInfoPath } from '../../routes';
import { Alert } from '../../ui/Alert';
import { usePatientRows } from '../patient-admin/api';
import { displayDay } from '../patient-admin/logic/dates';
import { browserZone } from '../../format';
import { defaultFilters, filterPatients, type ListFilters } from '../patient-admin/logic/listFilters';
import { useClinic } from '../patient-admin/session';
import type { PatientRow } from '../patient-admin/types';
import { ArchiveDialog } from './ArchiveDialog';
import { PatientFilters } from './PatientFilters';
import { PatientsTable } from './PatientsTable';
import '../../styles/patient-admin.css';

/** /app/patients: current patients with filters and search, or the past-patients archive. */
export function PatientsPage() {
  const { t } = useTranslation();
  const clinic = useClinic();
  const queryClient = useQueryClient();
  const [archive, setArchive] = useState(false);
  const [filters, setFilters] = useState<ListFilters>(defaultFilters);
  const [archiving, setArchiving] = useState<PatientRow | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const query = usePatientRows(archive);
  const rows = query.data ?? [];
  const shown = useMemo(() => {
    const now = Date.now();
    const today = new Date(now);
    today.setHours(0, 0, 0, 0);
    return filterPatients(rows, filters, now, today.getTime());
  }, [rows, filters]);
  const byId = new Map(rows.map((r) => [String(r.patient_id), r]));
  const canWrite = !clinic.isAnnotator;

  const actions = (p: PatientSummary) => <RowActions patientId={p.patient_id} row={byId.get(String(p.patient_id))} archive={archive} canWrite={canWrite} onArchive={setArchiving} />;

  return (
    <div className="page">
      <ListHead archive={archive} onArchive={setArchive} />
      {notice && (
        <Alert tone="success" testId="patients-notice">
          {notice}
        </Alert>
      )}
      <PatientFilters value={filters} onChange={setFilters} />
      {query.isPending ? (
        <p className="muted loading" role="status" data-testid="patients-loading">
          {t('patients.loading')}
        </p>
      ) : query.isError ? (
        <>
          <Alert tone="error" testId="patients-error">
            {t('patients.error', { message: errorText(t, query.error) })}
          </Alert>
          <button type="button" className="button" onClick={() => void query.refetch()}>
            {t('common.retry')}
          </button>
        </>
      ) : (
        <>
          <p className="muted" data-testid="patients-count">
            {shown.length === rows.length ? t('patients.count', { count: rows.length }) : t('patientAdmin.list.shown', { shown: shown.length, total: rows.length })}
          </p>
          <PatientsTable patients={shown} actions={actions} />
        </>
      )}
      <ArchiveDialog
        patient={archiving}
        onClose={() => setArchiving(null)}
        onDone={(code) => {
          setArchiving(null);
          setNotice(t('patientAdmin.archive.done', { code }));
          void queryClient.invalidateQueries({ queryKey: ['physician', 'patients'] });
        }}
      />
    </div>
  );
}

/** Current or past patients, and the admin's requests or the physician's Add patient. */
function ListHead({ archive, onArchive }: { archive: boolean; onArchive: (past: boolean) => void }) {
  const { t } = useTranslation();
  const clinic = useClinic();
  const canWrite = !clinic.isAnnotator;
  return (
    <div className="list-head">
      <div className="tabs" role="tablist">
        <button type="button" role="tab" aria-selected={!archive} className={`button button-quiet${!archive ? ' is-on' : ''}`} onClick={() => onArchive(false)} data-testid="tab-current">
          {t('patientAdmin.list.current')}
        </button>
        <button type="button" role="tab" aria-selected={archive} className={`button button-quiet${archive ? ' is-on' : ''}`} onClick={() => onArchive(true)} data-testid="tab-past">
          {t('patientAdmin.list.past')}
        </button>
      </div>
      {clinic.isAdmin && (
        <Link href={ADMIN_REQUESTS_PATH} data-testid="admin-requests-link">
          {t('patientAdmin.list.adminRequests')}
        </Link>
      )}
      {canWrite && !clinic.isAdmin && (
        <Link href={PATHS.addPatient} className="button button-primary" data-testid="add-patient-link">
          {t('patientAdmin.list.addPatient')}
        </Link>
      )}
    </div>
  );
}

/** A patient row's links: info, edit (read-only for annotators), the return day in the archive, archiving. */
function RowActions({ patientId, row, archive, canWrite, onArchive }: { patientId: number | string; row: PatientRow | undefined; archive: boolean; canWrite: boolean; onArchive: (row: PatientRow) => void }) {
  const { t, i18n } = useTranslation();
  return (
    <span className="row-actions">
      <Link href={viewPatientInfoPath(patientId)} data-testid="patient-info-link">
        {t('patientAdmin.list.info')}
      </Link>
      <Link href={editPatientPath(patientId)} data-testid="patient-edit-link">
        {canWrite ? t('patientAdmin.list.edit') : t('patientAdmin.edit.readOnly')}
      </Link>
      {archive && row?.phys_device_return_date && (
        <span className="muted" data-testid="patient-returned">
          {t('patientAdmin.list.returnedOn', { date: displayDay(Date.parse(row.phys_device_return_date), browserZone(), i18n.language) })}
        </span>
      )}
      {canWrite && !archive && row && (
        <button type="button" className="button-link" onClick={() => onArchive(row)} data-testid="patient-archive">
          {t('patientAdmin.list.archive')}
        </button>
      )}
    </span>
  );
}
