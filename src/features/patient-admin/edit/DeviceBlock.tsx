import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi, adminKeys, useDeviceHistory } from '../api';
import { allocationMax, dayOf, dayStartMs, defaultRange, displayDay, nightsBetween, returnMin, todayIn, type DateRange } from '../logic/dates';
import { DEVICE_OPERATION_SUCCESS, flagsFor, type DeviceOperation } from '../logic/devices';
import { initialScreening, screeningAnswers, screeningPassed, screeningReducer } from '../logic/screening';
import type { AvailableDevice, PatientInfo, PatientRow } from '../types';
import { DeployPopup } from '../ui/DeployPopup';
import { useDeployFlow } from '../ui/useDeployFlow';
import { DevicePicker } from '../ui/DevicePicker';
import { Dialog } from '../../../ui/Dialog';
import { Block, Facts } from './Block';

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
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const history = useDeviceHistory(info.patient_id);
  // Past-date requests still waiting for an admin: shown as "request sent", pending (issue 16 point 4).
  const requests = useQuery({ queryKey: adminKeys.patientRequests(info.patient_id), queryFn: async () => (await adminApi.patientRequests(info.patient_id)).data?.requests ?? [] });
  const pendingRequests = (requests.data ?? []).filter((r) => r.status === 'pending');
  const today = todayIn(zone);
  const from = num(row?.device_allocation_date);
  const to = num(row?.device_deallocation_date);
  const current = row?.device_id && from !== null && to !== null ? { device: row.device_id, from, to } : null;
  const active = info.active_flag !== false && !info.phys_device_return_date;

  const [editing, setEditing] = useState(false);
  const [range, setRange] = useState<DateRange>(() => defaultRange(zone));
  const [cancelAllocation, setCancelAllocation] = useState(false);
  const [device, setDevice] = useState<AvailableDevice | null>(null);
  const [screening, dispatch] = useReducer(screeningReducer, initialScreening);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [returning, setReturning] = useState(false);
  const [present, setPresent] = useState(false);
  const [returnDay, setReturnDay] = useState(today);
  const opened = useRef(false);

  const start = useCallback(() => {
    setError(null);
    setNotice(null);
    setCancelAllocation(false);
    setDevice(null);
    dispatch({ type: 'reset' });
    setRange(current ? { allocation: dayOf(current.from, zone), deallocation: dayOf(current.to, zone) } : defaultRange(zone));
    setEditing(true);
  }, [current, zone]);

  // ?deploy_device=true: open the device section, then scroll to it after 500 ms.
  useEffect(() => {
    if (!openOnMount || opened.current || !canEdit) return;
    opened.current = true;
    start();
    const timer = window.setTimeout(() => document.getElementById('block-device')?.scrollIntoView({ behavior: 'smooth', block: 'start' }), DEPLOY_SCROLL_MS);
    return () => window.clearTimeout(timer);
  }, [openOnMount, canEdit, start]);

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: adminKeys.patients });
    await queryClient.invalidateQueries({ queryKey: adminKeys.history(info.patient_id) });
  };

  // The deploy and conflict flow shared with the add-patient wizard.
  const flow = useDeployFlow({
    range,
    deviceMasterId: device?.device_master_id ?? null,
    write: ({ op, extra }: { op: DeviceOperation; extra: Record<string, unknown> }) => adminApi.deviceOperation({ patient_id: info.patient_id, country: undefined, ...flagsFor(op), ...extra }),
    onStart: () => setError(null),
    onSuccess: async (answer) => {
      // Success (spec 1 §8: the message says 'success') clears the error and closes the device edit; the server's code decides.
      if (answer.code === DEVICE_OPERATION_SUCCESS) {
        flow.close();
        setEditing(false);
        setReturning(false);
        setNotice(answer.message ?? t('patientAdmin.device.done'));
        await refresh();
      } else {
        setError(answer.message ?? t('patientAdmin.device.failed'));
      }
    },
    onError: (text) => {
      setError(text);
      document.getElementById('block-device')?.scrollIntoView({ block: 'start' });
    },
    onForce: () => save(true),
    sendRequest: (deviceMasterId, deviceId, requested) =>
      adminApi.deployInPast({ patient_id: info.patient_id, patient_code: info.patient_code, device_master_id: deviceMasterId, device_id: deviceId, allocation_date: dayStartMs(requested.allocation, zone), deallocation_date: dayStartMs(requested.deallocation, zone) }),
    onRequested: async () => {
      setEditing(false);
      setNotice(t('patientAdmin.deploy.requestSent'));
      await queryClient.invalidateQueries({ queryKey: adminKeys.patientRequests(info.patient_id) });
      document.getElementById('block-device')?.scrollIntoView({ block: 'start' });
    },
    onRequestError: setError,
    onConfirmToday: () => {
      setRange(defaultRange(zone));
      setDevice(null);
    },
  });
  const operate = (op: DeviceOperation, extra: Record<string, unknown> = {}) => flow.run({ op, extra });
  const busy = flow.busy;

  const dates = (r: DateRange) => ({ device_allocation_date: dayStartMs(r.allocation, zone), device_deallocation_date: dayStartMs(r.deallocation, zone) });

  const save = (force = false) => {
    if (current) {
      if (cancelAllocation) return void operate('cancel');
      const started = current.from <= Date.now();
      return void operate(force ? 'force-extend' : 'extend', {
        device_allocation_date: started ? current.from : dayStartMs(range.allocation, zone),
        device_deallocation_date: dayStartMs(range.deallocation, zone),
      });
    }
    if (!device) return setError(t('patientAdmin.deploy.selectDevice'));
    const answers = screeningAnswers(screening);
    operate(force ? 'force-deploy' : 'deploy', { device_master_id: device.device_master_id, window_start_time: windowStart, window_end_time: windowEnd, ...dates(range), ...(answers ? { screening_answers: answers } : {}) });
  };

  const returnNow = () => {
    const late = returnDay < today;
    operate('return', { confirm_device_present: present, ...(late ? { return_date: dayStartMs(returnDay, zone) } : {}) });
  };

  const day = (ms: number | null) => (ms === null ? t('patients.unknown') : displayDay(ms, zone, i18n.language));
  const started = current ? current.from <= Date.now() : false;
  const blocked = !current && (device === null || !screeningPassed(screening));

  return (
    <Block
      id="device"
      title={t('patientAdmin.device.title')}
      editing={editing}
      canEdit={canEdit && (current !== null || active)}
      saving={busy}
      saveDisabled={blocked && !cancelAllocation}
      error={error}
      notice={notice}
      onEdit={start}
      onSave={() => save()}
      onCancel={() => setEditing(false)}
    >
      {!editing && current && (
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
      )}
      {pendingRequests.map((r) => (
        <p key={r.id} className="notice notice-pending" data-testid="device-request-pending">
          {t('patientAdmin.deploy.requestPending', { device: r.device_id, from: displayDay(Date.parse(`${r.allocation_day}T12:00:00Z`), 'UTC', i18n.language), to: displayDay(Date.parse(`${r.deallocation_day}T12:00:00Z`), 'UTC', i18n.language) })}
        </p>
      ))}
      {!editing && !current && <p className="muted" data-testid="device-none">{active ? t('patientAdmin.device.none') : t('patientAdmin.device.inactive')}</p>}
      {!editing && current && canEdit && started && (
        <div className="row-actions">
          <button type="button" className="button" onClick={() => { setPresent(false); setReturnDay(today); setReturning(true); }} data-testid="device-return">
            {t('patientAdmin.device.returnAction')}
          </button>
        </div>
      )}

      {editing && current && (
        <div className="form-grid" data-testid="device-edit">
          <div className="field">
            <span className="field-label">{t('patientAdmin.device.deviceId')}</span>
            <output className="mono">{current.device}</output>
          </div>
          <div className="field">
            <label htmlFor="edit-alloc">{t('patientAdmin.device.allocation')}</label>
            <input id="edit-alloc" type="date" value={range.allocation} max={allocationMax(range.deallocation)} min={started ? undefined : today} disabled={started || cancelAllocation} onChange={(e) => e.target.value && setRange((r) => ({ ...r, allocation: e.target.value > allocationMax(r.deallocation) ? allocationMax(r.deallocation) : e.target.value }))} data-testid="edit-allocation-date" />
          </div>
          <div className="field">
            <label htmlFor="edit-return">{t('patientAdmin.device.return')}</label>
            <input id="edit-return" type="date" value={range.deallocation} min={returnMin(range.allocation)} disabled={cancelAllocation} onChange={(e) => e.target.value && setRange((r) => ({ ...r, deallocation: e.target.value < returnMin(r.allocation) ? returnMin(r.allocation) : e.target.value }))} data-testid="edit-return-date" />
          </div>
          <div className="field">
            <span className="field-label">{t('patientAdmin.device.duration')}</span>
            <output data-testid="edit-nights">{t('patientAdmin.device.nights', { count: nightsBetween(range.allocation, range.deallocation) })}</output>
          </div>
          <label className="check span-all">
            <input type="checkbox" checked={cancelAllocation} onChange={(e) => setCancelAllocation(e.target.checked)} data-testid="cancel-allocation" />
            {t('patientAdmin.device.cancelAllocation')}
          </label>
        </div>
      )}
      {editing && !current && (
        <DevicePicker
          range={range}
          today={today}
          zone={zone}
          windowStart={windowStart}
          windowEnd={windowEnd}
          selected={device?.device_master_id ?? null}
          screening={screening}
          dispatch={dispatch}
          onRange={(r) => {
            setRange(r);
            setDevice(null);
            dispatch({ type: 'reset' });
          }}
          onSelect={(d) => {
            setDevice(d);
            if (!d) dispatch({ type: 'reset' });
          }}
          onPastDate={flow.openPastDate}
        />
      )}

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

      <DeployPopup {...flow.popupProps} zone={zone} patientCode={info.patient_code} />
      <Dialog
        open={returning}
        title={t('patientAdmin.device.returnTitle')}
        onClose={() => setReturning(false)}
        testId="return-popup"
        actions={
          <>
            <button type="button" className="button" onClick={() => setReturning(false)}>
              {t('patientAdmin.wizard.cancel')}
            </button>
            <button type="button" className="button button-primary" disabled={!present || busy} onClick={returnNow} data-testid="return-confirm">
              {t('patientAdmin.device.returnConfirm')}
            </button>
          </>
        }
      >
        <label className="check">
          <input type="checkbox" checked={present} onChange={(e) => setPresent(e.target.checked)} data-testid="return-present" />
          {t('patientAdmin.device.returnPresent')}
        </label>
        <div className="field">
          <label htmlFor="return-day">{t('patientAdmin.device.returnDate')}</label>
          <input id="return-day" type="date" value={returnDay} max={today} min={current ? dayOf(current.from, zone) : undefined} onChange={(e) => e.target.value && setReturnDay(e.target.value)} data-testid="return-day" />
        </div>
        {error && returning && <p className="field-error">{error}</p>}
      </Dialog>
    </Block>
  );
}

