import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { errorText } from '../../../api/messages';
import { Alert } from '../../../ui/Alert';
import { editPatientPath, patientDetailPath } from '../../../routes';
import { birthYear, fullName, genderKey } from '../logic/format';
import { useDiseases, usePatientDetails } from '../api';
import { displayDay } from '../logic/dates';
import { vitalsFromJson } from '../logic/vitals';
import { useClinic } from '../session';
import { VitalsEditor } from '../ui/VitalsEditor';
import { Facts } from './Block';
import { usePatientRow } from './EditPatientPage';
import { MedicalFacts } from './MedicalBlock';
import '../../../styles/patient-admin.css';
import { countryName } from '../../../builtInNames';

/** /app/view_patient_info/id={id}: everything known about a patient, read-only, for every role. */
export function ViewPatientInfoPage({ patientId }: { patientId: number }) {
  const { t, i18n } = useTranslation();
  const clinic = useClinic();
  const details = usePatientDetails(patientId);
  const diseases = useDiseases();
  const { row } = usePatientRow(patientId);
  if (details.isPending) return <p className="muted loading" role="status">{t('common.loading')}</p>;
  if (details.isError) {
    return (
      <div className="page">
        <Alert tone="error" testId="info-error">
          {errorText(t, details.error)}
        </Alert>
      </div>
    );
  }
  const info = details.data;
  const g = genderKey(info.gender);
  const zone = row?.timezone || clinic.zoneOf(info.country);
  const dash = t('patients.unknown');
  return (
    <div className="page edit-page" data-testid="patient-info">
      <div className="edit-head">
        <h2 className="mono">{info.patient_code}</h2>
        <Link href={patientDetailPath(patientId)}>{t('patientAdmin.info.detail')}</Link>
        {!clinic.isAnnotator && (
          <Link href={editPatientPath(patientId)} data-testid="info-edit-link">
            {t('patientAdmin.list.edit')}
          </Link>
        )}
      </div>
      <section className="card">
        <h3>{t('patientAdmin.info.title')}</h3>
        <Facts
          testId="info-facts"
          items={[
            [t('patientAdmin.info.name'), fullName(info) ?? dash],
            [t('patientAdmin.fields.yearOfBirth'), birthYear(info.date_of_birth) ?? dash],
            [t('patientAdmin.fields.gender'), g ? t(`patients.gender.${g}`) : dash],
            [t('patientAdmin.info.email'), info.email_id || dash],
            [t('patientAdmin.info.country'), info.country ? countryName(i18n.language, info.country) : dash],
            [t('patientAdmin.fields.timezone'), zone],
            [t('patientAdmin.device.deviceId'), row?.device_id ?? t('patients.noDevice')],
            [t('patientAdmin.device.allocation'), row?.device_allocation_date ? displayDay(Number(row.device_allocation_date), zone, i18n.language) : dash],
            [t('patientAdmin.device.return'), row?.device_deallocation_date ? displayDay(Number(row.device_deallocation_date), zone, i18n.language) : dash],
          ]}
        />
      </section>
      <section className="card">
        <h3>{t('patientAdmin.edit.medical')}</h3>
        <MedicalFacts info={info} diseases={diseases.data ?? []} />
      </section>
      <section className="card">
        <h3>{t('patientAdmin.vitals.title')}</h3>
        <VitalsEditor value={vitalsFromJson(info.vital_parameters)} error={null} readOnly />
      </section>
    </div>
  );
}
