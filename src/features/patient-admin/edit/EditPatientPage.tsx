import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearch } from 'wouter';
import { errorText } from '../../../api/messages';
import { Alert } from '../../../ui/Alert';
import { viewPatientInfoPath } from '../../../routes';
import { adminKeys, useDiseases, usePatientDetails, usePatientRows } from '../api';
import { useClinic } from '../session';
import { DiscardDialog } from '../ui/DiscardDialog';
import { BasicBlock } from './BasicBlock';
import { EditModeContext } from './Block';
import { DeviceBlock } from './DeviceBlock';
import { MedicalBlock, MedicalFacts } from './MedicalBlock';
import { PasswordBlock } from './PasswordBlock';
import { VitalsBlock } from './VitalsBlock';
import '../../../styles/patient-admin.css';

/** The current allocation of a patient comes with the patient list (current or past). */
export function usePatientRow(id: number) {
  const current = usePatientRows(false);
  const past = usePatientRows(true);
  const row = [...(current.data ?? []), ...(past.data ?? [])].find((p) => Number(p.patient_id) === id) ?? null;
  return { row, ready: !current.isPending && !past.isPending };
}

/** /app/patient/id={id}/edit: four blocks with EDIT/SAVE and the password reset; annotators get a read-only summary. */
export function EditPatientPage({ patientId }: { patientId: number }) {
  const { t } = useTranslation();
  const search = useSearch();
  const clinic = useClinic();
  const queryClient = useQueryClient();
  const details = usePatientDetails(patientId);
  const diseases = useDiseases();
  const { row, ready } = usePatientRow(patientId);
  const [editing, setEditing] = useState<ReadonlySet<string>>(new Set());
  const [askDiscard, setAskDiscard] = useState(false);
  const report = useCallback((block: string, on: boolean) => {
    setEditing((prev) => {
      if (prev.has(block) === on) return prev;
      const next = new Set(prev);
      if (on) next.add(block);
      else next.delete(block);
      return next;
    });
  }, []);

  if (details.isPending) return <p className="muted loading" role="status">{t('common.loading')}</p>;
  if (details.isError) {
    return (
      <div className="page">
        <Alert tone="error" testId="edit-error">
          {errorText(t, details.error)}
        </Alert>
      </div>
    );
  }
  const info = details.data;
  const canEdit = !clinic.isAnnotator;
  const zone = row?.timezone || clinic.zoneOf(info.country);
  const saved = () => {
    void queryClient.invalidateQueries({ queryKey: adminKeys.details(patientId) });
    void queryClient.invalidateQueries({ queryKey: adminKeys.patients });
  };

  return (
    <div className="page edit-page" data-testid="edit-patient">
      <div className="edit-head">
        <button type="button" className="button-link" onClick={() => (editing.size ? setAskDiscard(true) : window.history.back())} data-testid="go-back">
          ← {t('patientAdmin.edit.goBack')}
        </button>
        <h2 className="mono" data-testid="edit-heading">
          {info.patient_code}
        </h2>
        <Link href={viewPatientInfoPath(patientId)}>{t('patientAdmin.edit.viewInfo')}</Link>
      </div>
      {canEdit ? (
        <EditModeContext.Provider value={report}>
          <BasicBlock info={info} canEdit onSaved={saved} />
          <MedicalBlock info={info} diseases={diseases.data ?? []} canEdit physicianId={clinic.physicianId} onSaved={saved} />
          <VitalsBlock key={info.vital_parameters ?? ''} info={info} canEdit onSaved={saved} />
          <DeviceBlock info={info} row={row} zone={zone} canEdit windowStart={clinic.windowStart} windowEnd={clinic.windowEnd} openOnMount={ready && new URLSearchParams(search).get('deploy_device') === 'true'} />
          <PasswordBlock patientId={patientId} />
        </EditModeContext.Provider>
      ) : (
        <section className="card" data-testid="readonly-summary" aria-label={t('patientAdmin.edit.readOnly')}>
          <h3>{t('patientAdmin.edit.readOnly')}</h3>
          <MedicalFacts info={info} diseases={diseases.data ?? []} />
        </section>
      )}
      <DiscardDialog open={askDiscard} onCancel={() => setAskDiscard(false)} onDiscard={() => window.history.back()} />
    </div>
  );
}
