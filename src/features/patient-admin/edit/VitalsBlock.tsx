import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { vitalError, vitalsFromJson, vitalsToJson, type VitalForm, type VitalMessage } from '../logic/vitals';
import type { PatientInfo } from '../types';
import { VitalsEditor } from '../ui/VitalsEditor';
import { Block } from './Block';
import { useSaveFields } from './save';

/** Vital thresholds: breathing rate, pulse rate and SpO2, moderate and severe; the edit defaults fill gaps. */
export function VitalsBlock({ info, canEdit, onSaved }: { info: PatientInfo; canEdit: boolean; onSaved: () => void }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const [form, setForm] = useState<VitalForm>(() => vitalsFromJson(info.vital_parameters));
  const [invalid, setInvalid] = useState<VitalMessage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { saving, save: saveFields } = useSaveFields(info.patient_id, info.version);
  // What was saved shows at once, before the details are fetched again.
  const [saved, setSaved] = useState<string | null>(null);
  const save = () => {
    const problem = vitalError(form);
    setInvalid(problem);
    if (problem) return;
    const json = vitalsToJson(form);
    saveFields({ vital_parameters: json }, (failed) => {
      setError(failed);
      if (!failed) {
        setSaved(json);
        setEditing(false);
        onSaved();
      }
    });
  };
  return (
    <Block
      id="vitals"
      title={t('patientAdmin.vitals.title')}
      editing={editing}
      canEdit={canEdit}
      saving={saving}
      error={error}
      onEdit={() => {
        setForm(vitalsFromJson(saved ?? info.vital_parameters));
        setInvalid(null);
        setEditing(true);
      }}
      onSave={save}
      onCancel={() => setEditing(false)}
    >
      <VitalsEditor value={editing ? form : vitalsFromJson(saved ?? info.vital_parameters)} onChange={setForm} error={editing ? invalid : null} readOnly={!editing} />
    </Block>
  );
}
