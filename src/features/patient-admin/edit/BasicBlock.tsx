import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { birthYear, genderKey } from '../logic/format';
import { birthYearChoices } from '../logic/measures';
import type { PatientInfo } from '../types';
import { GenderSelect, useFieldError, YearSelect } from '../ui/inputs';
import { Block, Facts } from './Block';
import { useSaveFields } from './save';

/** Basic: patient code (read-only), year of birth, gender. */
export function BasicBlock({ info, canEdit, onSaved }: { info: PatientInfo; canEdit: boolean; onSaved: () => void }) {
  const { t } = useTranslation();
  const fieldError = useFieldError();
  const years = useMemo(() => birthYearChoices(new Date().getFullYear()), []);
  const [editing, setEditing] = useState(false);
  const [year, setYear] = useState('');
  const [gender, setGender] = useState<'' | 'M' | 'F' | 'O'>('');
  const [error, setError] = useState<string | null>(null);
  const { saving, save: saveFields } = useSaveFields(info.patient_id, info.version);
  const g = genderKey(info.gender);

  const start = () => {
    setYear(String(birthYear(info.date_of_birth) ?? ''));
    setGender((['M', 'F', 'O'].includes(info.gender ?? '') ? info.gender : '') as '' | 'M' | 'F' | 'O');
    setError(null);
    setEditing(true);
  };
  const save = () => {
    if (!year) return setError(fieldError('yearRequired'));
    if (!years.includes(Number(year))) return setError(fieldError('yearNotFound'));
    if (!gender) return setError(fieldError('genderRequired'));
    saveFields({ date_of_birth: `${year}-01-01`, gender }, (failed) => {
      setError(failed);
      if (!failed) {
        setEditing(false);
        onSaved();
      }
    });
  };

  return (
    <Block id="basic" title={t('patientAdmin.edit.basic')} editing={editing} canEdit={canEdit} saving={saving} error={error} onEdit={start} onSave={save} onCancel={() => setEditing(false)}>
      {editing ? (
        <div className="form-grid">
          <div className="field">
            <span className="field-label">{t('patientAdmin.edit.patientCode')}</span>
            <output className="mono">{info.patient_code}</output>
          </div>
          <YearSelect value={year} onChange={setYear} choices={years} />
          <GenderSelect value={gender} onChange={setGender} />
        </div>
      ) : (
        <Facts
          testId="basic-facts"
          items={[
            [t('patientAdmin.edit.patientCode'), <span className="mono">{info.patient_code}</span>],
            [t('patientAdmin.fields.yearOfBirth'), birthYear(info.date_of_birth) ?? t('patients.unknown')],
            [t('patientAdmin.fields.gender'), g ? t(`patients.gender.${g}`) : t('patients.unknown')],
          ]}
        />
      )}
    </Block>
  );
}
