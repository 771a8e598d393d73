import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/errors';
import { errorText } from '../../../api/messages';
import { riskKey } from '../logic/format';
import { adminApi } from '../api';
import { bmi, bmiClass, COMMENT_MAX_EDIT, escapeComment, measureText, measureValue } from '../logic/measures';
import { commentToSend, type PatientFieldError } from '../logic/patientForm';
import type { Disease, PatientInfo } from '../types';
import { BmiReadout, CommentField, ConditionPicker, MeasureInput, StatusSelect, useFieldError } from '../ui/inputs';
import { Block, Facts } from './Block';
import { useSaveFields } from './save';
import { formatNumber } from '../../../format';
import { conditionName } from '../../../builtInNames';

const idsOf = (diseaseIds: string | null | undefined): number[] =>
  String(diseaseIds ?? '')
    .split(',')
    .map((s) => Number(s.trim()))
    .filter((n) => Number.isInteger(n) && n > 0);

/** The medical facts everyone may read: conditions, weight, height, BMI, status, comments. */
export function MedicalFacts({ info, diseases }: { info: PatientInfo; diseases: readonly Disease[] }) {
  const { t, i18n } = useTranslation();
  const names = new Map(diseases.map((d) => [d.disease_id, conditionName(t, d)!]));
  const ids = idsOf(info.diseaseIds);
  const value = info.bmi ?? bmi(info.weight, info.height);
  const cls = bmiClass(Number(value));
  return (
    <Facts
      testId="medical-facts"
      items={[
        [t('patientAdmin.fields.conditions'), ids.length ? ids.map((id) => names.get(id) ?? info.diseases).join(', ') : t('patientAdmin.errors.noCondition')],
        [t('patientAdmin.fields.weight'), info.weight ?? t('patients.unknown')],
        [t('patientAdmin.fields.height'), info.height ?? t('patients.unknown')],
        [t('patientAdmin.fields.bmi'), `${formatNumber(Number(value), i18n.language, 2)}${cls ? ` · ${t(`patientAdmin.bmiClass.${cls}`)}` : ''}`],
        [t('patientAdmin.fields.status'), t(`patients.risk.${riskKey(info.at_risk)}`)],
        [t('patientAdmin.fields.comment'), info.comment ? <span className="pre-wrap">{info.comment}</span> : t('patientAdmin.errors.noComment')],
      ]}
    />
  );
}

/** Medical: conditions (each change sent at once), weight, height, BMI, status, comments (10240, escaped, unchanged sends nothing). */
export function MedicalBlock({ info, diseases, canEdit, physicianId, onSaved }: { info: PatientInfo; diseases: readonly Disease[]; canEdit: boolean; physicianId: number | null; onSaved: () => void }) {
  const { t } = useTranslation();
  const fieldError = useFieldError();
  const [editing, setEditing] = useState(false);
  const [ids, setIds] = useState<number[]>([]);
  const [weight, setWeight] = useState('');
  const [height, setHeight] = useState('');
  const [atRisk, setAtRisk] = useState<'' | '0' | '1' | '2'>('');
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const { saving, save: saveFields } = useSaveFields(info.patient_id, info.version);

  const start = () => {
    setIds(idsOf(info.diseaseIds));
    setWeight(info.weight === null ? '' : String(info.weight));
    setHeight(info.height === null ? '' : String(info.height));
    setAtRisk(info.at_risk === null ? '' : (String(info.at_risk) as '0' | '1' | '2'));
    setComment(info.comment ?? '');
    setError(null);
    setEditing(true);
  };

  // Each add or remove goes to the server at once; its answer is the truth (None rules applied there too).
  const condition = useMutation({
    mutationFn: ({ id, removing }: { id: number; removing: boolean }) => adminApi.diseaseOperation(info.patient_id, removing ? 'delete' : 'update', id, physicianId),
    onMutate: () => setError(null),
    onSuccess: (answer) => {
      setIds(idsOf(answer.data?.diseaseIds));
      onSaved();
    },
    onError: (e) => setError(e instanceof ApiError && e.code === 'last_condition' ? t('patientAdmin.errors.lastCondition') : errorText(t, e)),
  });
  const toggle = (id: number) => {
    const removing = ids.includes(id);
    if (removing && ids.length <= 1) return setError(t('patientAdmin.errors.lastCondition'));
    condition.mutate({ id, removing });
  };

  const save = () => {
    const check = (text: string, empty: PatientFieldError, bad: PatientFieldError) => {
      const v = measureValue(text);
      return v === null ? empty : v === 0 ? bad : null;
    };
    const problem = check(weight, 'weightRequired', 'weightInvalid') ?? check(height, 'heightRequired', 'heightInvalid') ?? (comment.length > COMMENT_MAX_EDIT ? 'commentTooLong' : null);
    if (problem) return setError(fieldError(problem, COMMENT_MAX_EDIT));
    const fields: Record<string, unknown> = { weight: measureText(weight), height: measureText(height), at_risk: atRisk === '' ? null : Number(atRisk) };
    const c = commentToSend(info.comment ?? '', comment, escapeComment);
    if (c !== undefined) fields.comment = c;
    saveFields(fields, (failed) => {
      setError(failed);
      if (!failed) {
        setEditing(false);
        onSaved();
      }
    });
  };

  return (
    <Block id="medical" title={t('patientAdmin.edit.medical')} editing={editing} canEdit={canEdit} saving={saving} error={error} onEdit={start} onSave={save} onCancel={() => setEditing(false)}>
      {editing ? (
        <div className="form-grid">
          <div className="span-all">
            <ConditionPicker diseases={diseases} selected={ids} onToggle={toggle} />
          </div>
          <MeasureInput label={t('patientAdmin.fields.weight')} value={weight} onChange={setWeight} testId="weight" />
          <MeasureInput label={t('patientAdmin.fields.height')} value={height} onChange={setHeight} testId="height" />
          <BmiReadout weight={weight} height={height} />
          <StatusSelect value={atRisk} onChange={setAtRisk} />
          <div className="span-all">
            <CommentField value={comment} onChange={setComment} max={COMMENT_MAX_EDIT} />
          </div>
        </div>
      ) : (
        <MedicalFacts info={info} diseases={diseases} />
      )}
    </Block>
  );
}
