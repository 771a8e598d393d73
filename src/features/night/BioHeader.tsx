import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { birthYear, fullName, genderKey } from '../patient-admin/logic/format';
import type { PatientInfo } from './types';
import { formatNumber } from '../../format';

/** BMI = weight / height² (m), 2 decimals, 0 when either is missing (spec 2 §9). */
export function bmiOf(weightKg: number | null, heightCm: number | null): number {
  if (!weightKg || !heightCm) return 0;
  return Math.round((weightKg / (heightCm / 100) ** 2) * 100) / 100;
}

/**
 * Patient bio header (spec 1 §2): name or code, device id, and an info panel with
 * gender, year of birth, weight, height, BMI, device and the information link.
 * Sample patients show only their name.
 */
export function BioHeader({ patient }: { patient: PatientInfo }) {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState(false);
  const name = fullName(patient) ?? patient.patient_code;
  const dash = t('patients.unknown');
  if (patient.is_sample_patient) {
    return (
      <header className="bio-header" data-testid="bio-header">
        <h2 className="bio-name">{name}</h2>
      </header>
    );
  }
  const gender = genderKey(patient.gender);
  const bmi = patient.bmi ?? bmiOf(patient.weight, patient.height);
  return (
    <header className="bio-header" data-testid="bio-header">
      <h2 className="bio-name">{name}</h2>
      <span className="bio-meta mono">{patient.patient_code}</span>
      <span className="bio-meta">{t('night.bio.device', { id: patient.device_id ?? dash })}</span>
      <button type="button" className="button button-ghost bio-toggle" aria-expanded={open} onClick={() => setOpen(!open)} data-testid="bio-info-toggle">
        {t('night.bio.info')}
      </button>
      {open && (
        <dl className="bio-panel" data-testid="bio-panel">
          <dt>{t('night.bio.gender')}</dt>
          <dd>{gender ? t(`patients.gender.${gender}`) : dash}</dd>
          <dt>{t('night.bio.yearOfBirth')}</dt>
          <dd>{birthYear(patient.date_of_birth) ?? dash}</dd>
          <dt>{t('night.bio.weight')}</dt>
          <dd>{patient.weight ?? dash}</dd>
          <dt>{t('night.bio.height')}</dt>
          <dd>{patient.height ?? dash}</dd>
          <dt>{t('night.bio.bmi')}</dt>
          <dd>{formatNumber(bmi, i18n.language, 2)}</dd>
          <dt>{t('night.bio.deviceLabel')}</dt>
          <dd className="mono">{patient.device_id ?? dash}</dd>
          <dd className="bio-link">
            <Link href={`/app/view_patient_info/id=${patient.patient_id}`}>{t('night.bio.infoLink')}</Link>
          </dd>
        </dl>
      )}
    </header>
  );
}
