import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useReducer, useRef, type ComponentProps, type Dispatch } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { ApiError } from '../../api/errors';
import { editPatientPath, PATHS } from '../../routes';
import { Alert } from '../../ui/Alert';
import { adminApi, adminKeys, useDiseases } from './api';
import { dayStartMs, defaultRange, displayDay, todayIn, type DateRange } from './logic/dates';
import { birthYearChoices, COMMENT_MAX_ADD } from './logic/measures';
import { toggleCondition, validatePage1, type PatientForm } from './logic/patientForm';
import { initialScreening, screeningPassed, screeningReducer, type ScreeningAction, type ScreeningState } from './logic/screening';
import { initialWizard, newPatientPayload, wizardDirty, wizardReducer, type WizardAction, type WizardState } from './logic/wizard';
import { useClinic } from './session';
import type { AvailableDevice } from './types';
import { DeployPopup } from './ui/DeployPopup';
import { useDeployFlow } from './ui/useDeployFlow';
import { DevicePicker } from './ui/DevicePicker';
import { Dialog } from '../../ui/Dialog';
import { DiscardDialog } from './ui/DiscardDialog';
import { setLeaveGuard } from '../../state/leaveGuard';
import { BmiReadout, CommentField, ConditionPicker, CountryField, GenderSelect, MeasureInput, StatusSelect, useFieldError, YearSelect } from './ui/inputs';
import '../../styles/patient-admin.css';

/** /app/add-patient and /app/new_patient: page 1 (patient) and page 2 (device), spec 1 §2, §4, §5. */
export function AddPatientWizard() {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const clinic = useClinic();
  const [state, dispatch] = useReducer(wizardReducer, clinic.zoneOf(''), (zone) => initialWizard(defaultRange(zone)));
  const zone = clinic.zoneOf(state.form.country);
  const [screening, screeningDispatch] = useReducer(screeningReducer, initialScreening);
  const years = useMemo(() => birthYearChoices(new Date().getFullYear()), []);
  const dirty = wizardDirty(state, clinic.defaultCountry);
  useWizardStart(dispatch, screeningDispatch, zone, clinic.defaultCountry);
  useLeaveGuard(dirty, (to) => dispatch({ type: 'ask', ask: 'discard', leaveTo: to }));

  const changeRange = useCallback((next: DateRange) => {
    // New dates: refetch free devices, forget the chosen one and its answers.
    dispatch({ type: 'range', range: next });
    screeningDispatch({ type: 'reset' });
  }, []);
  const selectDevice = useCallback((d: AvailableDevice | null) => {
    dispatch({ type: 'device', device: d });
    if (!d) screeningDispatch({ type: 'reset' });
  }, []);
  const flow = useWizardFlow(state, dispatch, screening, zone, changeRange);
  const cancel = () => (dirty ? dispatch({ type: 'ask', ask: 'discard' }) : navigate(PATHS.patients));

  return (
    <section className="card wizard" data-testid="add-patient" aria-labelledby="wizard-title">
      <header className="wizard-head">
        <h2 id="wizard-title">{t('patientAdmin.wizard.title')}</h2>
        <p className="muted" data-testid="wizard-step">
          {t('patientAdmin.wizard.step', { step: state.page })} · {state.page === 1 ? t('patientAdmin.wizard.page1') : t('patientAdmin.wizard.page2')}
        </p>
      </header>
      {state.serverError && (
        <Alert tone="error" testId="wizard-error">
          {state.serverError}
        </Alert>
      )}
      {state.page === 1 ? (
        <PatientStep state={state} dispatch={dispatch} years={years} onNext={() => dispatch({ type: 'validated', errors: validatePage1(state.form, years, 'add') })} onCancel={cancel} />
      ) : (
        <DeviceStep
          state={state}
          zone={zone}
          screening={screening}
          screeningDispatch={screeningDispatch}
          busy={flow.busy}
          onRange={changeRange}
          onSelect={selectDevice}
          onPastDate={flow.openPastDate}
          onPrevious={() => dispatch({ type: 'page', page: 1 })}
          onCancel={cancel}
          onConfirm={() => (state.device ? flow.submit(true) : dispatch({ type: 'ask', ask: 'noDevice' }))}
        />
      )}
      <DeployPopup {...flow.popupProps} zone={zone} patientCode={state.form.patientCode.trim()} />
      <WizardDialogs state={state} dispatch={dispatch} busy={flow.busy} onFinish={() => void flow.finish()} onWithoutDevice={() => flow.submit(false)} />
    </section>
  );
}

/** The wizard's start: a generated patient ID, the user's country when it arrives, and a new country's days. */
function useWizardStart(dispatch: Dispatch<WizardAction>, screeningDispatch: Dispatch<ScreeningAction>, zone: string, defaultCountry: string) {
  // Today and tomorrow are days in the patient's zone: a new country moves them.
  useEffect(() => {
    dispatch({ type: 'range', range: defaultRange(zone) });
    screeningDispatch({ type: 'reset' });
  }, [zone, dispatch, screeningDispatch]);
  useEffect(() => {
    if (defaultCountry) dispatch({ type: 'defaultCountry', country: defaultCountry });
  }, [defaultCountry, dispatch]);
  useEffect(() => {
    let live = true;
    adminApi
      .generateCode()
      .then((r) => {
        const code = r.data?.patient_code;
        if (live && code) dispatch({ type: 'generated', code });
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [dispatch]);
}

/** While the form holds unsaved input: the app's links ask first (onLeave gets the target), and the browser warns before unloading. */
function useLeaveGuard(dirty: boolean, onLeave: (to: string) => void) {
  const ask = useRef(onLeave);
  ask.current = onLeave;
  useEffect(() => {
    if (!dirty) return;
    const unguard = setLeaveGuard((to) => {
      ask.current(to);
      return false;
    });
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => {
      unguard();
      window.removeEventListener('beforeunload', warn);
    };
  }, [dirty]);
}

/** The writes: the patient with or without the device (one server call), a past-date request, and where each ends. */
function useWizardFlow(state: WizardState, dispatch: Dispatch<WizardAction>, screening: ScreeningState, zone: string, changeRange: (r: DateRange) => void) {
  const { t, i18n } = useTranslation();
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const clinic = useClinic();
  const diseases = useDiseases();
  const diseaseNames = new Map((diseases.data ?? []).map((d) => [d.disease_id, d.disease_description]));
  const payload = (withDevice: boolean, force = false) => newPatientPayload(state, { zone, clinic, diseaseNames, screening }, withDevice, force);
  const finish = async () => {
    await queryClient.invalidateQueries({ queryKey: adminKeys.patients });
    navigate(PATHS.patients);
  };
  const day = (d: string) => displayDay(dayStartMs(d, zone), zone, i18n.language);
  const flow = useDeployFlow({
    range: state.range,
    deviceMasterId: state.device?.device_master_id ?? null,
    write: ({ withDevice, force }: { withDevice: boolean; force: boolean }) => adminApi.newPatient(payload(withDevice, force)),
    onStart: () => dispatch({ type: 'serverError', text: null }),
    onSuccess: async (_answer, { withDevice }) => {
      flow.close();
      if (withDevice && state.device) dispatch({ type: 'deployed', deployed: { device: state.device.device_id, code: state.form.patientCode.trim(), from: day(state.range.allocation), to: day(state.range.deallocation) } });
      else await finish();
    },
    onError: (text, error) => {
      const all = error instanceof ApiError && error.errors.length > 1 ? ` ${error.errors.slice(1).join(' ')}` : '';
      dispatch({ type: 'serverError', text: t('patientAdmin.errors.addFailed', { message: text + all }) });
    },
    // A taken patient ID returns to page 1 with its error (spec 1 §4), whichever write found it.
    intercept: (error) => {
      if (!(error instanceof ApiError && error.code === 'patient_id_exists')) return false;
      dispatch({ type: 'idTaken' });
      return true;
    },
    forceErrorInPopup: true,
    onForce: () => flow.run({ withDevice: true, force: true }),
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
  return { ...flow, finish, submit: (withDevice: boolean) => flow.run({ withDevice, force: false }) };
}

/** Page 1: the patient. */
function PatientStep({ state, dispatch, years, onNext, onCancel }: { state: WizardState; dispatch: Dispatch<WizardAction>; years: number[]; onNext: () => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const clinic = useClinic();
  const diseases = useDiseases();
  const fieldError = useFieldError();
  const { form, errors } = state;
  const set = <K extends keyof PatientForm>(key: K, value: PatientForm[K]) => dispatch({ type: 'field', key, value });
  return (
    <div className="form-grid" data-testid="wizard-page-1">
      <div className="field">
        <label htmlFor="patient-id">{t('patientAdmin.fields.patientId')}</label>
        <div className="inline-fields">
          <input id="patient-id" value={form.patientCode} readOnly={form.generated} maxLength={20} onChange={(e) => set('patientCode', e.target.value)} aria-invalid={errors.patientCode ? true : undefined} data-testid="patient-id" />
          {form.generated && (
            <button type="button" className="button button-quiet" onClick={() => dispatch({ type: 'clearCode' })} data-testid="patient-id-clear">
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
        <button type="button" className="button" onClick={onCancel} data-testid="wizard-cancel">
          {t('patientAdmin.wizard.cancel')}
        </button>
        <button type="button" className="button button-primary" onClick={onNext} data-testid="wizard-next">
          {t('patientAdmin.wizard.next')}
        </button>
      </div>
    </div>
  );
}

interface DeviceStepProps {
  state: WizardState;
  zone: string;
  screening: ScreeningState;
  screeningDispatch: Dispatch<ScreeningAction>;
  busy: boolean;
  onRange: (r: DateRange) => void;
  onSelect: (d: AvailableDevice | null) => void;
  onPastDate: ComponentProps<typeof DevicePicker>['onPastDate'];
  onPrevious: () => void;
  onCancel: () => void;
  onConfirm: () => void;
}

/** Page 2: the device over its days, its screening questions, and Confirm. */
function DeviceStep({ state, zone, screening, screeningDispatch, busy, onRange, onSelect, onPastDate, onPrevious, onCancel, onConfirm }: DeviceStepProps) {
  const { t } = useTranslation();
  const clinic = useClinic();
  const blocked = state.device !== null && !screeningPassed(screening);
  const noZone = !zone;
  return (
    <div data-testid="wizard-page-2">
      <DevicePicker
        range={state.range}
        today={todayIn(zone)}
        zone={zone}
        windowStart={clinic.windowStart}
        windowEnd={clinic.windowEnd}
        selected={state.device?.device_master_id ?? null}
        screening={screening}
        dispatch={screeningDispatch}
        onRange={onRange}
        onSelect={onSelect}
        onPastDate={onPastDate}
      />
      {noZone && <p className="field-error">{t('patientAdmin.errors.noTimezone')}</p>}
      <div className="wizard-actions">
        <button type="button" className="button" onClick={onPrevious} data-testid="wizard-previous">
          {t('patientAdmin.wizard.previous')}
        </button>
        <button type="button" className="button" onClick={onCancel} data-testid="wizard-cancel">
          {t('patientAdmin.wizard.cancel')}
        </button>
        <button type="button" className="button button-primary" onClick={onConfirm} disabled={blocked || busy || noZone} data-testid="wizard-confirm">
          {busy ? t('patientAdmin.wizard.adding') : t('patientAdmin.wizard.confirm')}
        </button>
      </div>
    </div>
  );
}

/** The wizard's dialogs: device deployed, go on without a device, discard the form. */
function WizardDialogs({ state, dispatch, busy, onFinish, onWithoutDevice }: { state: WizardState; dispatch: Dispatch<WizardAction>; busy: boolean; onFinish: () => void; onWithoutDevice: () => void }) {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const close = () => dispatch({ type: 'ask', ask: 'none' });
  return (
    <>
      <Dialog
        open={state.deployed !== null}
        title={t('patientAdmin.deploy.deployedTitle')}
        onClose={onFinish}
        testId="deployed-popup"
        actions={
          <button type="button" className="button button-primary" onClick={onFinish} data-testid="deployed-ok">
            {t('patientAdmin.deploy.ok')}
          </button>
        }
      >
        {state.deployed && <p>{t('patientAdmin.deploy.deployedText', { ...state.deployed })}</p>}
      </Dialog>
      <Dialog
        open={state.ask === 'noDevice'}
        title={t('patientAdmin.wizard.noDeviceTitle')}
        onClose={close}
        testId="no-device-popup"
        actions={
          <>
            <button type="button" className="button" onClick={close}>
              {t('patientAdmin.wizard.cancel')}
            </button>
            <button
              type="button"
              className="button button-primary"
              disabled={busy}
              onClick={() => {
                close();
                onWithoutDevice();
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
      <DiscardDialog open={state.ask === 'discard'} onCancel={close} onDiscard={() => navigate(state.leaveTo ?? PATHS.patients)} />
    </>
  );
}
