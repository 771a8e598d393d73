import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../api/messages';
import { adminApi } from '../patient-admin/api';
import type { PatientRow } from '../patient-admin/types';
import { Dialog } from '../../ui/Dialog';

/** Mark as past patient: the device is returned first, so the clinician confirms it is back. */
export function ArchiveDialog({ patient, onClose, onDone }: { patient: PatientRow | null; onClose: () => void; onDone: (code: string) => void }) {
  const { t } = useTranslation();
  const [present, setPresent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setPresent(false);
    setError(null);
    onClose();
  };
  const hasDevice = !!patient?.device_id;
  const archive = useMutation({
    mutationFn: (p: PatientRow) => adminApi.archive(Number(p.patient_id)),
    onMutate: () => setError(null),
    onSuccess: (_answer, p) => {
      setPresent(false);
      onDone(p.patient_code);
    },
    onError: (e) => setError(errorText(t, e)),
  });
  const busy = archive.isPending;
  const confirm = () => {
    if (patient) archive.mutate(patient);
  };
  return (
    <Dialog
      open={patient !== null}
      title={t('patientAdmin.archive.title')}
      onClose={close}
      testId="archive-popup"
      actions={
        <>
          <button type="button" className="button" onClick={close}>
            {t('patientAdmin.wizard.cancel')}
          </button>
          <button type="button" className="button button-danger" disabled={busy || (hasDevice && !present)} onClick={confirm} data-testid="archive-confirm">
            {t('patientAdmin.archive.confirm')}
          </button>
        </>
      }
    >
      {patient && <p>{hasDevice ? t('patientAdmin.archive.text', { code: patient.patient_code }) : t('patientAdmin.archive.noDevice', { code: patient.patient_code })}</p>}
      {patient && hasDevice && (
        <label className="check">
          <input type="checkbox" checked={present} onChange={(e) => setPresent(e.target.checked)} data-testid="archive-device-present" />
          {t('patientAdmin.archive.confirmDevice', { device: patient.device_id })}
        </label>
      )}
      {error && <p className="field-error" role="alert">{error}</p>}
    </Dialog>
  );
}
