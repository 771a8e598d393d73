import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { patientDetailPath } from '../../routes';
import type { PatientSummary } from '../../../contract/answers';
import { birthYear, fullName, genderKey, riskKey, type RiskKey } from '../patient-admin/logic/format';

const RISK_LABEL = {
  notKnown: 'patients.risk.notKnown',
  stable: 'patients.risk.stable',
  atRisk: 'patients.risk.atRisk',
  control: 'patients.risk.control',
} as const satisfies Record<RiskKey, string>;

/** The patient list as a table; the empty state sits inside it so the columns stay visible. */
export function PatientsTable({ patients, actions }: { patients: readonly PatientSummary[]; actions?: (p: PatientSummary) => ReactNode }) {
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
            {actions && <th scope="col">{t('patientAdmin.list.actions')}</th>}
          </tr>
        </thead>
        <tbody>
          {patients.length === 0 ? (
            <tr>
              <td colSpan={actions ? 7 : 6} className="table-empty" data-testid="patients-empty">
                {t('patients.empty')}
              </td>
            </tr>
          ) : (
            patients.map((p) => {
              const gender = genderKey(p.gender);
              return (
                <tr key={p.patient_id} data-testid="patient-row">
                  <td className="mono">
                    <Link href={patientDetailPath(p.patient_id)} data-testid="patient-link">{p.patient_code}</Link>
                  </td>
                  <td>
                    <Link href={patientDetailPath(p.patient_id)}>{fullName(p) ?? dash}</Link>
                  </td>
                  <td>{gender ? t(`patients.gender.${gender}`) : dash}</td>
                  <td className="num">{birthYear(p.date_of_birth) ?? dash}</td>
                  {p.device_id ? <td className="mono">{p.device_id}</td> : <td className="muted">{t('patients.noDevice')}</td>}
                  <td>
                    <span className={`badge badge-${riskKey(p.at_risk)}`}>{t(RISK_LABEL[riskKey(p.at_risk)])}</span>
                  </td>
                  {actions && <td>{actions(p)}</td>}
                </tr>
              );
            })
          )}
        </tbody>
      </table>
    </div>
  );
}
