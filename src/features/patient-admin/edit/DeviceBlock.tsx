import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useReducer, useRef, type Dispatch } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi, adminKeys, useDeviceHistory } from '../api';
import { allocationMax, dayOf, dayStartMs, defaultRange, displayDay, nightsBetween, returnMin, todayIn, type DateRange } from '../logic/dates';
import { DEVICE_OPERATION_SUCCESS, flagsFor, type DeviceOperation } from '../logic/devices';
import { initialScreening, screeningPassed, screeningReducer } from '../logic/screening';
import { deviceEditReducer, initialDeviceEdit, saveOperation, type CurrentAllocation, type DeviceEditAction, type DeviceEditState } from '../logic/deviceEdit';
import type { PatientInfo, PatientRow } from '../types';
import { DeployPopup } from '../ui/DeployPopup';
import { useDeployFlow } from '../ui/useDeployFlow';
import { DevicePicker } from '../ui/DevicePicker';
import { Dialog } from '../../../ui/Dialog';
import { Block, Facts } from './Block';
import { scrollMotion } from '../../../ui/motion';

/** Delay before the page scrolls to the device section when opened with ?deploy_device=true (spec 1 §9). */
const DEPLOY_SCROLL_MS = 500;

interface Props {
  info: PatientInfo;
  row: PatientRow | null;
  zone: string;
  canEdit: boolean;
  windowStart: string;
  windowEnd: string;
  openOnMount: boolean;
}

const num = (v: number | string | null | undefined) => (v === null || v === undefined || v === '' ? null : Number(v));

/** Device information: the current allocation (extend, cancel, return), a new allocation, and returned devices. */
export function DeviceBlock({ info, row, zone, canEdit, windowStart, windowEnd, openOnMount }: Props) {
  const { t } = useTranslation();
  const today = todayIn(zone);
  const current = currentAllocation(row);
  const active = info.active_flag !== false && !info.phys_device_return_date;
  const [state, dispatch] = useReducer(deviceEditReducer, undefined, () => initialDeviceEdit(defaultRange(zone), today));
  const [screening, screeningDispatch] = useReducer(screeningReducer, initialScreening);

  const start = useCallback(() => {
    screeningDispatch({ type: 'reset' });
    dispatch({ type: 'start', range: current ? { allocation: dayOf(current.from, zone), deallocation: dayOf(current.to, zone) } : defaultRange(zone) });
    // The allocation by its days: the object is made again each render.
  }, [current?.from, current?.to, zone]);
  useOpenOnMount(openOnMount && canEdit, start);

  const flow = useDeviceFlow(info, zone, state, dispatch, () => save(true));
  const save = (force = false) => {
    const what = saveOperation(state, current, { zone, windowStart, windowEnd, screening, now: Date.now() }, force);
    if (what === 'selectDevice') dispatch({ type: 'error', text: t('patientAdmin.deploy.selectDevice') });
    else flow.run(what);
  };
  const blocked = !current && (state.device === null || !screeningPassed(screening));

  return (
    <Block
      id="device"
      title={t('patientAdmin.device.title')}
      editing={state.editing}
      canEdit={canEdit && (current !== null || active)}
      saving={flow.busy}
      saveDisabled={blocked && !state.cancelAllocation}
      error={state.error}
      notice={state.notice}
      onEdit={start}
      onSave={() => save()}
      onCancel={() => dispatch({ type: 'stop' })}
    >
      {!state.editing && current && <CurrentFacts current={current} row={row} zone={zone} windowStart={windowStart} windowEnd={windowEnd} />}
      <PendingRequests patientId={info.patient_id} />
      {!state.editing && !current && <p className="muted" data-testid="device-none">{active ? t('patientAdmin.device.none') : t('patientAdmin.device.inactive')}</p>}
      {!state.editing && current && canEdit && current.from <= Date.now() && (
        <div className="row-actions">
          <button type="button" className="button" onClick={() => dispatch({ type: 'openReturn', today })} data-testid="device-return">
            {t('patientAdmin.device.returnAction')}
          </button>
        </div>
      )}
      {state.editing && current && <ExtendForm current={current} state={state} dispatch={dispatch} today={today} />}
      {state.editing && !current && (
        <DevicePicker
          range={state.range}
          today={today}
          zone={zone}
          windowStart={windowStart}
          windowEnd={windowEnd}
          selected={state.device?.device_master_id ?? null}
          screening={screening}
          dispatch={screeningDispatch}
          onRange={(r) => {
            dispatch({ type: 'range', range: r });
            screeningDispatch({ type: 'reset' });
          }}
          onSelect={(d) => {
            dispatch({ type: 'device', device: d });
            if (!d) screeningDispatch({ type: 'reset' });
          }}
          onPastDate={flow.openPastDate}
        />
      )}
      <DeviceHistory patientId={info.patient_id} zone={zone} />
      <DeployPopup {...flow.popupProps} zone={zone} patientCode={info.patient_code} />
      <ReturnDialog state={state} dispatch={dispatch} current={current} zone={zone} today={today} busy={flow.busy} onReturn={(extra) => flow.run({ op: 'return', extra })} />
    </Block>
  );
}

const currentAllocation = (row: PatientRow | null): CurrentAllocation | null => {
  const from = num(row?.device_allocation_date);
  const to = num(row?.device_deallocation_date);
  return row?.device_id && from !== null && to !== null ? { device: row.device_id, from, to } : null;
};

/** ?deploy_device=true: the device section opens, then the page scrolls to it after 500 ms (spec 1 §9). */
function useOpenOnMount(open: boolean, start: () => void) {
  const opened = useRef(false);
  useEffect(() => {
    if (!open || opened.current) return;
    opened.current = true;
    start();
    const timer = window.setTimeout(() => document.getElementById('block-device')?.scrollIntoView({ behavior: scrollMotion(), block: 'start' }), DEPLOY_SCROLL_MS);
    return () => window.clearTimeout(timer);
  }, [open, start]);
}

/** The device operations (deploy, extend, cancel, return) and the past-date request, through the deploy and conflict flow shared with the add-patient wizard. */
function useDeviceFlow(info: PatientInfo, zone: string, state: DeviceEditState, dispatch: Dispatch<DeviceEditAction>, force: () => void) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const toSection = () => document.getElementById('block-device')?.scrollIntoView({ block: 'start' });
  const flow = useDeployFlow({
    range: state.range,
    deviceMasterId: state.device?.device_master_id ?? null,
    write: ({ op, extra }: { op: DeviceOperation; extra: Record<string, unknown> }) => adminApi.deviceOperation({ patient_id: info.patient_id, country: undefined, ...flagsFor(op), ...extra }),
    onStart: () => dispatch({ type: 'error', text: null }),
    onSuccess: async (answer) => {
      // Success (spec 1 §8: the message says 'success') clears the error and closes the device edit; the server's code decides.
      if (answer.code !== DEVICE_OPERATION_SUCCESS) return dispatch({ type: 'error', text: answer.message ?? t('patientAdmin.device.failed') });
      flow.close();
      dispatch({ type: 'done', notice: answer.message ?? t('patientAdmin.device.done') });
      await queryClient.invalidateQueries({ queryKey: adminKeys.patients });
      await queryClient.invalidateQueries({ queryKey: adminKeys.history(info.patient_id) });
    },
    onError: (text) => {
      dispatch({ type: 'error', text });
      toSection();
    },
    onForce: force,
    sendRequest: (deviceMasterId, deviceId, requested) =>
      adminApi.deployInPast({ patient_id: info.patient_id, patient_code: info.patient_code, device_master_id: deviceMasterId, device_id: deviceId, allocation_date: dayStartMs(requested.allocation, zone), deallocation_date: dayStartMs(requested.deallocation, zone) }),
    onRequested: async () => {
      dispatch({ type: 'done', notice: t('patientAdmin.deploy.requestSent') });
      await queryClient.invalidateQueries({ queryKey: adminKeys.patientRequests(info.patient_id) });
      toSection();
    },
    onRequestError: (text) => dispatch({ type: 'error', text }),
    onConfirmToday: () => dispatch({ type: 'range', range: defaultRange(zone) }),
  });
  return flow;
}

function CurrentFacts({ current, row, zone, windowStart, windowEnd }: { current: CurrentAllocation; row: PatientRow | null; zone: string; windowStart: string; windowEnd: string }) {
  const { t, i18n } = useTranslation();
  const day = (ms: number) => displayDay(ms, zone, i18n.language);
  return (
    <Facts
      testId="device-facts"
      items={[
        [t('patientAdmin.device.deviceId'), <span className="mono" data-testid="current-device">{current.device}</span>],
        [t('patientAdmin.device.allocation'), <span data-testid="current-allocation">{day(current.from)}</span>],
        [t('patientAdmin.device.return'), <span data-testid="current-return">{day(current.to)}</span>],
        [t('patientAdmin.device.duration'), t('patientAdmin.device.nights', { count: nightsBetween(dayOf(current.from, zone), dayOf(current.to, zone)) })],
        [t('patientAdmin.fields.timezone'), row?.timezone ?? zone],
        [t('patientAdmin.device.windowStart'), row?.window_start_time ?? windowStart],
        [t('patientAdmin.device.windowEnd'), row?.window_end_time ?? windowEnd],
      ]}
    />
  );
}

/** Past-date requests still waiting for an admin: shown as "request sent", pending (issue 16 point 4). */
function PendingRequests({ patientId }: { patientId: number }) {
  const { t, i18n } = useTranslation();
  const requests = useQuery({ queryKey: adminKeys.patientRequests(patientId), queryFn: async () => (await adminApi.patientRequests(patientId)).data.requests });
  const day = (d: string) => displayDay(Date.parse(`${d}T12:00:00Z`), 'UTC', i18n.language);
  return (
    <>
      {(requests.data ?? [])
        .filter((r) => r.status === 'pending')
        .map((r) => (
          <p key={r.id} className="notice notice-pending" data-testid="device-request-pending">
            {t('patientAdmin.deploy.requestPending', { device: r.device_id, from: day(r.allocation_day), to: day(r.deallocation_day) })}
          </p>
        ))}
    </>
  );
}

/** The current allocation's edit: a later return day (or first day, before it has started), or its cancellation. */
function ExtendForm({ current, state, dispatch, today }: { current: CurrentAllocation; state: DeviceEditState; dispatch: Dispatch<DeviceEditAction>; today: string }) {
  const { t } = useTranslation();
  const { range, cancelAllocation } = state;
  const started = current.from <= Date.now();
  const setRange = (r: DateRange) => dispatch({ type: 'range', range: r });
  return (
    <div className="form-grid" data-testid="device-edit">
      <div className="field">
        <span className="field-label">{t('patientAdmin.device.deviceId')}</span>
        <output className="mono">{current.device}</output>
      </div>
      <div className="field">
        <label htmlFor="edit-alloc">{t('patientAdmin.device.allocation')}</label>
        <input id="edit-alloc" type="date" value={range.allocation} max={allocationMax(range.deallocation)} min={started ? undefined : today} disabled={started || cancelAllocation} onChange={(e) => e.target.value && setRange({ ...range, allocation: e.target.value > allocationMax(range.deallocation) ? allocationMax(range.deallocation) : e.target.value })} data-testid="edit-allocation-date" />
      </div>
      <div className="field">
        <label htmlFor="edit-return">{t('patientAdmin.device.return')}</label>
        <input id="edit-return" type="date" value={range.deallocation} min={returnMin(range.allocation)} disabled={cancelAllocation} onChange={(e) => e.target.value && setRange({ ...range, deallocation: e.target.value < returnMin(range.allocation) ? returnMin(range.allocation) : e.target.value })} data-testid="edit-return-date" />
      </div>
      <div className="field">
        <span className="field-label">{t('patientAdmin.device.duration')}</span>
        <output data-testid="edit-nights">{t('patientAdmin.device.nights', { count: nightsBetween(range.allocation, range.deallocation) })}</output>
      </div>
      <label className="check span-all">
        <input type="checkbox" checked={cancelAllocation} onChange={(e) => dispatch({ type: 'cancelAllocation', on: e.target.checked })} data-testid="cancel-allocation" />
        {t('patientAdmin.device.cancelAllocation')}
      </label>
    </div>
  );
}

/** Returned devices: device, days, nights and recording window. */
function DeviceHistory({ patientId, zone }: { patientId: number; zone: string }) {
  const { t, i18n } = useTranslation();
  const history = useDeviceHistory(patientId);
  const day = (ms: number | null) => (ms === null ? t('patients.unknown') : displayDay(ms, zone, i18n.language));
  return (
    <>
      <h4>{t('patientAdmin.device.history')}</h4>
      {history.data && history.data.length > 0 ? (
        <div className="table-wrap">
          <table className="table" data-testid="device-history">
            <thead>
              <tr>
                <th scope="col">{t('patientAdmin.device.historyColumns.device')}</th>
                <th scope="col">{t('patientAdmin.device.historyColumns.allocation')}</th>
                <th scope="col">{t('patientAdmin.device.historyColumns.return')}</th>
                <th scope="col">{t('patientAdmin.device.historyColumns.nights')}</th>
                <th scope="col">{t('patientAdmin.device.historyColumns.start')}</th>
                <th scope="col">{t('patientAdmin.device.historyColumns.stop')}</th>
              </tr>
            </thead>
            <tbody>
              {history.data.map((h) => (
                <tr key={`${h.device_id}-${h.device_allocation_date}`}>
                  <td className="mono">{h.device_id}</td>
                  <td>{day(h.device_allocation_date)}</td>
                  <td>{day(h.device_deallocation_date)}</td>
                  <td className="num">{h.nights}</td>
                  <td>{h.window_start_time}</td>
                  <td>{h.window_end_time}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="muted" data-testid="no-history">
          {t('patientAdmin.errors.noHistory')}
        </p>
      )}
    </>
  );
}

/** Return the device: confirmed present, on a day from its first day to today (a late return names its day). */
function ReturnDialog({ state, dispatch, current, zone, today, busy, onReturn }: { state: DeviceEditState; dispatch: Dispatch<DeviceEditAction>; current: CurrentAllocation | null; zone: string; today: string; busy: boolean; onReturn: (extra: Record<string, unknown>) => void }) {
  const { t } = useTranslation();
  const close = () => dispatch({ type: 'closeReturn' });
  const late = state.returnDay < today;
  return (
    <Dialog
      open={state.returning}
      title={t('patientAdmin.device.returnTitle')}
      onClose={close}
      testId="return-popup"
      actions={
        <>
          <button type="button" className="button" onClick={close}>
            {t('patientAdmin.wizard.cancel')}
          </button>
          <button type="button" className="button button-primary" disabled={!state.present || busy} onClick={() => onReturn({ confirm_device_present: state.present, ...(late ? { return_date: dayStartMs(state.returnDay, zone) } : {}) })} data-testid="return-confirm">
            {t('patientAdmin.device.returnConfirm')}
          </button>
        </>
      }
    >
      <label className="check">
        <input type="checkbox" checked={state.present} onChange={(e) => dispatch({ type: 'present', on: e.target.checked })} data-testid="return-present" />
        {t('patientAdmin.device.returnPresent')}
      </label>
      <div className="field">
        <label htmlFor="return-day">{t('patientAdmin.device.returnDate')}</label>
        <input id="return-day" type="date" value={state.returnDay} max={today} min={current ? dayOf(current.from, zone) : undefined} onChange={(e) => e.target.value && dispatch({ type: 'returnDay', day: e.target.value })} data-testid="return-day" />
      </div>
      {state.error && state.returning && <p className="field-error">{state.error}</p>}
    </Dialog>
  );
}
