import { useTranslation } from 'react-i18next';
import type { PatientSummary } from '../../api/types';
import { birthYear, fullName, genderKey } from './format';

/** The patient list as a table; the empty state sits inside it so the columns stay visible. */
export function PatientsTable({ patients }: { patients: readonly PatientSummary[] }) {
  const { t } = useTranslation();
  const dash = t('patients.unknown');
  return (
    <div className="table-wrap">
      <table className="table" data-testid="patients-table">
        <caption className="visually-hidden">{t('patients.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('patients.columns.code')}</th>
            <th scope="col">{t('patients.columns.name')}</th>
            <th scope="col">{t('patients.columns.gender')}</th>
            <th scope="col">{t('patients.columns.yearOfBirth')}</th>
            <th scope="col">{t('patients.columns.device')}</th>
            <th scope="col">{t('patients.columns.status')}</th>
          </tr>
        </thead>
        <tbody>
          {patients.length === 0 ? (
            <tr>
              <td colSpan={6} className="table-empty" data-testid="patients-empty">
                {t('patients.empty')}
              </td>
            </tr>
          ) : (
            patients.map((p) => {
              const gender = genderKey(p.gender);
              return (
                <tr key={p.patient_id} data-testid="patient-row">
                  <td className="mono">{p.patient_code}</td>
                  <td>{fullName(p) ?? dash}</td>
                  <td>{gender ? t(`patients.gender.${gender}`) : dash}</td>
                  <td className="num">{birthYear(p.date_of_birth) ?? dash}</td>
                  {p.device_id ? <td className="mono">{p.device_id}</td> : <td className="muted">{t('patients.noDevice')}</td>}
                  <td>{p.at_risk && <span className="badge badge-risk">{t('patients.atRisk')}</span>}</td>
                </tr>
              );
            })
          )}
        </tbody>
      </table>
    </div>
  );
}
