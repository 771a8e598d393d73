import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useReducer, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { ApiError } from '../../api/errors';
import { editPatientPath, PATHS } from '../../routes';
import { Alert } from '../../ui/Alert';
import { adminApi, adminKeys, useDiseases } from './api';
import { dayStartMs, defaultRange, displayDay, todayIn, type DateRange } from './logic/dates';
import { birthYearChoices, bmi, COMMENT_MAX_ADD, escapeComment, measureText, measureValue } from './logic/measures';
import { emptyPatientForm, hasErrors, toggleCondition, validatePage1, type PatientErrors, type PatientForm } from './logic/patientForm';
import { initialScreening, screeningAnswers, screeningPassed, screeningReducer } from './logic/screening';
import { NEW_PATIENT_DEFAULTS } from './logic/vitals';
import { useClinic } from './session';
import type { AvailableDevice, NewPatientPayload } from './types';
import { DeployPopup } from './ui/DeployPopup';
import { useDeployFlow } from './ui/useDeployFlow';
import { DevicePicker } from './ui/DevicePicker';
import { Dialog } from '../../ui/Dialog';
import { DiscardDialog } from './ui/DiscardDialog';
import { setLeaveGuard } from '../../state/leaveGuard';
import { BmiReadout, CommentField, ConditionPicker, CountryField, GenderSelect, MeasureInput, StatusSelect, useFieldError, YearSelect } from './ui/inputs';
import '../../styles/patient-admin.css';

interface Deployed {
  device: string;
  code: string;
  from: string;
  to: string;
}

/** /app/add-patient and /app/new_patient: page 1 (patient) and page 2 (device), spec 1 §2, §4, §5. */
export function AddPatientWizard() {
  const { t, i18n } = useTranslation();
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const clinic = useClinic();
  const diseases = useDiseases();
  const fieldError = useFieldError();
  const years = useMemo(() => birthYearChoices(new Date().getFullYear()), []);

  const [page, setPage] = useState<1 | 2>(1);
  const [form, setForm] = useState<PatientForm>(emptyPatientForm);
  const [errors, setErrors] = useState<PatientErrors>({});
  const zone = clinic.zoneOf(form.country);
  const today = todayIn(zone);
  const [range, setRange] = useState<DateRange>(() => defaultRange(zone));
  const [device, setDevice] = useState<AvailableDevice | null>(null);
  const [screening, dispatch] = useReducer(screeningReducer, initialScreening);
  const [deployed, setDeployed] = useState<Deployed | null>(null);
  const [askNoDevice, setAskNoDevice] = useState(false);
  const [askDiscard, setAskDiscard] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [generated, setGenerated] = useState('');

  // Today and tomorrow are days in the patient's zone: a new country moves them.
  useEffect(() => {
    setRange(defaultRange(zone));
    setDevice(null);
    dispatch({ type: 'reset' });
  }, [zone]);

  // The default country is the user's; it may arrive after the first render.
  useEffect(() => {
    if (clinic.defaultCountry) setForm((f) => (f.country ? f : { ...f, country: clinic.defaultCountry }));
  }, [clinic.defaultCountry]);

  // An auto-generated patient ID fills the field and makes it read-only until cleared.
  useEffect(() => {
    let live = true;
    adminApi
      .generateCode()
      .then((r) => {
        const code = r.data?.patient_code;
        if (!live || !code) return;
        setGenerated(code);
        setForm((f) => (f.patientCode ? f : { ...f, patientCode: code, generated: true }));
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);

  const dirty = useMemo(() => {
    const f = { ...form, patientCode: form.patientCode === generated ? '' : form.patientCode, generated: false, country: form.country === clinic.defaultCountry ? '' : form.country };
    return JSON.stringify(f) !== JSON.stringify(emptyPatientForm) || device !== null;
  }, [form, generated, clinic.defaultCountry, device]);

  const [leaveTo, setLeaveTo] = useState<string | null>(null);
  useEffect(() => {
    if (!dirty) return;
    return setLeaveGuard((to) => {
      setLeaveTo(to);
      setAskDiscard(true);
      return false;
    });
  }, [dirty]);

  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const set = <K extends keyof PatientForm>(key: K, value: PatientForm[K]) => setForm((f) => ({ ...f, [key]: value }));

  const changeRange = useCallback((next: DateRange) => {
    // New dates: refetch free devices, forget the chosen one and its answers.
    setRange(next);
    setDevice(null);
    dispatch({ type: 'reset' });
  }, []);

  const selectDevice = useCallback((d: AvailableDevice | null) => {
    setDevice(d);
    if (!d) dispatch({ type: 'reset' });
  }, []);

  const next = () => {
    const found = validatePage1(form, years, 'add');
    setErrors(found);
    if (!hasErrors(found)) setPage(2);
  };

  const payload = (withDevice: boolean, force = false): NewPatientPayload => {
    const names = new Map((diseases.data ?? []).map((d) => [d.disease_id, d.disease_description]));
    const weight = measureValue(form.weight);
    const height = measureValue(form.height);
    return {
      patient_code: form.patientCode.trim(),
      first_name: '',
      last_name: '',
      email_id: '',
      gender: form.gender as 'M' | 'F' | 'O',
      date_of_birth: `${form.yearOfBirth}-01-01`,
      at_risk: form.atRisk === '' ? null : Number(form.atRisk),
      diseaseIds: form.diseaseIds.join(','),
      height: measureText(form.height),
      weight: measureText(form.weight),
      bmi: bmi(weight, height),
      vital_parameters: JSON.stringify(NEW_PATIENT_DEFAULTS),
      comment: escapeComment(form.comment),
      diseases: form.diseaseIds.map((id) => names.get(id) ?? '').join(','),
      country: form.country,
      address: '',
      tags: '',
      device_allocation_date: withDevice && device ? dayStartMs(range.allocation, zone) : null,
      device_deallocation_date: withDevice && device ? dayStartMs(range.deallocation, zone) : null,
      device_master_id: withDevice && device ? device.device_master_id : null,
      device_id: withDevice && device ? device.device_id : null,
      // Left out when unknown: the server's schema takes a physician id or nothing (a null was refused).
      ...(clinic.physicianId !== null ? { docter_id: clinic.physicianId } : {}),
      window_start_time: clinic.windowStart,
      window_end_time: clinic.windowEnd,
      ...(force ? { force_deploy: true } : {}),
      ...(withDevice && device && screeningAnswers(screening) ? { screening_answers: screeningAnswers(screening)! } : {}),
    };
  };

  const finish = async () => {
    await queryClient.invalidateQueries({ queryKey: adminKeys.patients });
    navigate(PATHS.patients);
  };

  // A taken patient ID returns to page 1 with its error (spec 1 §4), whichever write found it.
  const idTaken = (error: unknown) => {
    if (!(error instanceof ApiError && error.code === 'patient_id_exists')) return false;
    setErrors({ patientCode: 'idExists' });
    setForm((f) => ({ ...f, generated: false }));
    setPage(1);
    return true;
  };

  // The patient and their device (or past-date request) are one server call and one transaction.
  const flow = useDeployFlow({
    range,
    deviceMasterId: device?.device_master_id ?? null,
    write: ({ withDevice, force }: { withDevice: boolean; force: boolean }) => adminApi.newPatient(payload(withDevice, force)),
    onStart: () => setServerError(null),
    onSuccess: async (_answer, { withDevice }) => {
      flow.close();
      if (withDevice && device) {
        setDeployed({ device: device.device_id, code: form.patientCode.trim(), from: displayDay(dayStartMs(range.allocation, zone), zone, i18n.language), to: displayDay(dayStartMs(range.deallocation, zone), zone, i18n.language) });
      } else {
        await finish();
      }
    },
    onError: (text, error) => {
      const all = error instanceof ApiError && error.errors.length > 1 ? ` ${error.errors.slice(1).join(' ')}` : '';
      setServerError(t('patientAdmin.errors.addFailed', { message: text + all }));
    },
    intercept: idTaken,
    forceErrorInPopup: true,
    onForce: () => submit(true, true),
    sendRequest: async (deviceMasterId, deviceId, requested) => {
      // The patient and the request are one server transaction: a refused request adds no patient.
      const added = await adminApi.newPatient({
        ...payload(false),
        past_date_request: { device_master_id: deviceMasterId, device_id: deviceId, allocation_date: dayStartMs(requested.allocation, zone), deallocation_date: dayStartMs(requested.deallocation, zone) },
      });
      const patientId = (added as { patientId?: number }).patientId ?? added.data?.patient_id;
      if (!patientId) throw new Error('no patient id');
      return patientId;
    },
    onRequested: async (patientId) => {
      // To the new patient's device block, which shows the request as sent and pending (issue 16 point 4).
      await queryClient.invalidateQueries({ queryKey: adminKeys.patients });
      navigate(editPatientPath(patientId));
    },
    onConfirmToday: () => changeRange(defaultRange(zone)),
  });
  const submit = (withDevice: boolean, force = false) => flow.run({ withDevice, force });
  const busy = flow.busy;

  const confirm = () => {
    if (!device) setAskNoDevice(true);
    else submit(true);
  };

  const cancel = () => (dirty ? setAskDiscard(true) : navigate(PATHS.patients));
  const blocked = device !== null && !screeningPassed(screening);
  const noZone = !zone;

  return (
    <section className="card wizard" data-testid="add-patient" aria-labelledby="wizard-title">
      <header className="wizard-head">
        <h2 id="wizard-title">{t('patientAdmin.wizard.title')}</h2>
        <p className="muted" data-testid="wizard-step">
          {t('patientAdmin.wizard.step', { step: page })} · {page === 1 ? t('patientAdmin.wizard.page1') : t('patientAdmin.wizard.page2')}
        </p>
      </header>
      {serverError && (
        <Alert tone="error" testId="wizard-error">
          {serverError}
        </Alert>
      )}

      {page === 1 ? (
        <div className="form-grid" data-testid="wizard-page-1">
          <div className="field">
            <label htmlFor="patient-id">{t('patientAdmin.fields.patientId')}</label>
            <div className="inline-fields">
              <input
                id="patient-id"
                value={form.patientCode}
                readOnly={form.generated}
                maxLength={20}
                onChange={(e) => set('patientCode', e.target.value)}
                aria-invalid={errors.patientCode ? true : undefined}
                data-testid="patient-id"
              />
              {form.generated && (
                <button type="button" className="button button-quiet" onClick={() => setForm((f) => ({ ...f, patientCode: '', generated: false }))} data-testid="patient-id-clear">
                  {t('patientAdmin.fields.clear')}
                </button>
              )}
            </div>
            {form.generated && <p className="field-hint">{t('patientAdmin.fields.generated')}</p>}
            {errors.patientCode && (
              <p className="field-error" role="alert" data-testid="error-patient-id">
                {fieldError(errors.patientCode)}
              </p>
            )}
          </div>
          <YearSelect value={form.yearOfBirth} onChange={(v) => set('yearOfBirth', v)} choices={years} error={fieldError(errors.yearOfBirth)} />
          <GenderSelect value={form.gender} onChange={(v) => set('gender', v)} error={fieldError(errors.gender)} />
          <StatusSelect value={form.atRisk} onChange={(v) => set('atRisk', v)} />
          <div className="span-all">
            <ConditionPicker diseases={diseases.data ?? []} selected={form.diseaseIds} onToggle={(id) => set('diseaseIds', toggleCondition(form.diseaseIds, id))} error={fieldError(errors.diseaseIds)} />
          </div>
          <MeasureInput label={t('patientAdmin.fields.weight')} value={form.weight} onChange={(v) => set('weight', v)} error={fieldError(errors.weight)} testId="weight" />
          <MeasureInput label={t('patientAdmin.fields.height')} value={form.height} onChange={(v) => set('height', v)} error={fieldError(errors.height)} testId="height" />
          <BmiReadout weight={form.weight} height={form.height} />
          <CountryField countries={clinic.countries} value={form.country} onChange={(v) => set('country', v)} error={fieldError(errors.country)} />
          <div className="span-all">
            <CommentField value={form.comment} onChange={(v) => set('comment', v)} max={COMMENT_MAX_ADD} error={fieldError(errors.comment, COMMENT_MAX_ADD)} />
          </div>
          <div className="wizard-actions span-all">
            <button type="button" className="button" onClick={cancel} data-testid="wizard-cancel">
              {t('patientAdmin.wizard.cancel')}
            </button>
            <button type="button" className="button button-primary" onClick={next} data-testid="wizard-next">
              {t('patientAdmin.wizard.next')}
            </button>
          </div>
        </div>
      ) : (
        <div data-testid="wizard-page-2">
          <DevicePicker
            range={range}
            today={today}
            zone={zone}
            windowStart={clinic.windowStart}
            windowEnd={clinic.windowEnd}
            selected={device?.device_master_id ?? null}
            screening={screening}
            dispatch={dispatch}
            onRange={changeRange}
            onSelect={selectDevice}
            onPastDate={flow.openPastDate}
          />
          {noZone && <p className="field-error">{t('patientAdmin.errors.noTimezone')}</p>}
          <div className="wizard-actions">
            <button type="button" className="button" onClick={() => setPage(1)} data-testid="wizard-previous">
              {t('patientAdmin.wizard.previous')}
            </button>
            <button type="button" className="button" onClick={cancel} data-testid="wizard-cancel">
              {t('patientAdmin.wizard.cancel')}
            </button>
            <button type="button" className="button button-primary" onClick={confirm} disabled={blocked || busy || noZone} data-testid="wizard-confirm">
              {busy ? t('patientAdmin.wizard.adding') : t('patientAdmin.wizard.confirm')}
            </button>
          </div>
        </div>
      )}

      <DeployPopup {...flow.popupProps} zone={zone} patientCode={form.patientCode.trim()} />

      <Dialog
        open={deployed !== null}
        title={t('patientAdmin.deploy.deployedTitle')}
        onClose={() => void finish()}
        testId="deployed-popup"
        actions={
          <button type="button" className="button button-primary" onClick={() => void finish()} data-testid="deployed-ok">
            {t('patientAdmin.deploy.ok')}
          </button>
        }
      >
        {deployed && <p>{t('patientAdmin.deploy.deployedText', { ...deployed })}</p>}
      </Dialog>

      <Dialog
        open={askNoDevice}
        title={t('patientAdmin.wizard.noDeviceTitle')}
        onClose={() => setAskNoDevice(false)}
        testId="no-device-popup"
        actions={
          <>
            <button type="button" className="button" onClick={() => setAskNoDevice(false)}>
              {t('patientAdmin.wizard.cancel')}
            </button>
            <button
              type="button"
              className="button button-primary"
              disabled={busy}
              onClick={() => {
                setAskNoDevice(false);
                submit(false);
              }}
              data-testid="no-device-confirm"
            >
              {t('patientAdmin.wizard.noDeviceConfirm')}
            </button>
          </>
        }
      >
        <p>{t('patientAdmin.wizard.noDeviceText')}</p>
      </Dialog>

      <DiscardDialog open={askDiscard} onCancel={() => { setAskDiscard(false); setLeaveTo(null); }} onDiscard={() => navigate(leaveTo ?? PATHS.patients)} />
    </section>
  );
}
