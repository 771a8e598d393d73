import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { errorText } from '../../api/messages';
import { patientDetailPath } from '../../routes';
import { Alert } from '../../ui/Alert';
import { Dialog } from '../../ui/Dialog';
import { Field } from '../../ui/Field';
import { sampleErrorKey, useAddToSample, useSamplePatients, type SampleTarget } from './api';

/** The choice in the picker: nothing yet, a new sample patient, or an existing one's id. */
const NONE = '';
const NEW = 'new';
/** The longest name the server takes (server/samples/name.ts SAMPLE_NAME_MAX). */
const NAME_MAX = 30;

/**
 * "Add to Sample Patient" (spec 2 §1 Actions, annotator only; §4 "Picking a sample patient
 * reveals the Submit button"): the annotator picks one of the practice's sample patients,
 * or names a new one, and the night goes there as a de-identified copy.
 */
export function AddToSampleDialog({ open, onClose, patientId, recordingId }: { open: boolean; onClose: () => void; patientId: number; recordingId: number }) {
  const { t } = useTranslation();
  const samples = useSamplePatients(open);
  const add = useAddToSample();
  const [pick, setPick] = useState(NONE);
  const [name, setName] = useState('');
  const close = () => {
    setPick(NONE);
    setName('');
    add.reset();
    onClose();
  };
  const target: SampleTarget | null = pick === NEW ? { kind: 'new', name } : pick === NONE ? null : { kind: 'existing', sampleId: Number(pick) };
  const submit = () => {
    if (target) add.mutate({ patientId, recordingId, target });
  };
  const problemKey = add.isError ? sampleErrorKey(add.error) : null;
  const problem = add.isError ? (problemKey ? t(problemKey) : errorText(t, add.error)) : null;
  const done = add.data;
  return (
    <Dialog
      open={open}
      title={t('samples.add.title')}
      onClose={close}
      testId="sample-dialog"
      actions={
        <>
          <button type="button" className="button" onClick={close} data-testid="sample-cancel">
            {done ? t('common.close') : t('common.cancel')}
          </button>
          {!done && target && (
            <button type="button" className="button button-primary" onClick={submit} disabled={add.isPending || (target.kind === 'new' && !name.trim())} data-testid="sample-submit">
              {t('samples.add.submit')}
            </button>
          )}
        </>
      }
    >
      {done ? (
        <div data-testid="sample-added">
          <Alert tone="success">{t('samples.add.done', { name: done.sample_patient.name })}</Alert>
          <p>
            <Link href={patientDetailPath(done.sample_patient.patient_id, done.night)} onClick={close} data-testid="sample-open">
              {t('samples.add.openSample')}
            </Link>
          </p>
        </div>
      ) : (
        <>
          <p className="muted">{t('samples.add.intro')}</p>
          {samples.isError && <Alert tone="error">{errorText(t, samples.error)}</Alert>}
          <div className="field">
            <label htmlFor="sample-pick">{t('samples.add.pick')}</label>
            <select id="sample-pick" value={pick} onChange={(e) => setPick(e.target.value)} disabled={samples.isPending} data-testid="sample-pick">
              <option value={NONE}>{t('samples.add.choose')}</option>
              {(samples.data ?? []).map((s) => (
                <option key={s.patient_id} value={String(s.patient_id)}>
                  {s.name} · {s.patient_code}
                </option>
              ))}
              <option value={NEW}>{t('samples.add.new')}</option>
            </select>
          </div>
          {pick === NEW && (
            <Field
              label={t('samples.add.name')}
              hint={t('samples.add.nameHint')}
              value={name}
              maxLength={NAME_MAX}
              onChange={(e) => setName(e.target.value)}
              data-testid="sample-name"
              autoFocus
            />
          )}
          {problem && <Alert tone="error" testId="sample-problem">{problem}</Alert>}
        </>
      )}
    </Dialog>
  );
}
