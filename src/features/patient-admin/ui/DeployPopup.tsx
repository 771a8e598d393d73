import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAvailableDevices } from '../api';
import { dayStartMs, type DateRange } from '../logic/dates';
import { Dialog } from '../../../ui/Dialog';

export type DeployPopupState =
  | { kind: 'closed' }
  /** The device is booked by someone else: deploying again cancels that booking. */
  | { kind: 'conflict'; text: string }
  /** A day before today: the error first, then a request to an admin. */
  | { kind: 'past'; range: DateRange; deviceMasterId: number | null };

interface Props {
  state: DeployPopupState;
  zone: string;
  patientCode: string;
  busy: boolean;
  error: string | null;
  onClose: () => void;
  onForce: () => void;
  onSendRequest: (deviceMasterId: number, deviceId: string, range: DateRange) => void;
  /** Without the request ticked, Confirm deploys from today instead of the past day. */
  onConfirmToday: () => void;
}

/** The deploy popup of spec 1 §2 and §4: booking conflicts and past-date deployment requests. */
export function DeployPopup(props: Props) {
  const { t } = useTranslation();
  const { state } = props;
  if (state.kind === 'closed') return <Dialog open={false} title="" onClose={props.onClose} actions={null}>{null}</Dialog>;
  if (state.kind === 'conflict') {
    return (
      <Dialog
        open
        title={t('patientAdmin.deploy.title')}
        onClose={props.onClose}
        testId="deploy-popup"
        actions={
          <>
            <button type="button" className="button" onClick={props.onClose}>
              {t('patientAdmin.wizard.cancel')}
            </button>
            <button type="button" className="button button-primary" onClick={props.onForce} disabled={props.busy} data-testid="deploy-force">
              {t('patientAdmin.deploy.forceDeploy')}
            </button>
          </>
        }
      >
        <p className="alert alert-error" data-testid="deploy-conflict">
          {state.text}
        </p>
        <p>{t('patientAdmin.deploy.forceHint')}</p>
        {props.error && <p className="field-error">{props.error}</p>}
      </Dialog>
    );
  }
  return <PastDatePopup {...props} state={state} />;
}

function PastDatePopup({ state, zone, patientCode, busy, error, onClose, onSendRequest, onConfirmToday }: Props & { state: Extract<DeployPopupState, { kind: 'past' }> }) {
  const { t } = useTranslation();
  const [requested, setRequested] = useState(false);
  const [device, setDevice] = useState<number | null>(state.deviceMasterId);
  const devices = useAvailableDevices(dayStartMs(state.range.allocation, zone), dayStartMs(state.range.deallocation, zone));
  const chosen = devices.data?.find((d) => d.device_master_id === device) ?? null;
  const missing = !chosen ? t('patientAdmin.deploy.selectDevice') : !patientCode ? t('patientAdmin.deploy.selectPatient') : null;
  return (
    <Dialog
      open
      title={t('patientAdmin.deploy.pastTitle')}
      onClose={onClose}
      testId="past-date-popup"
      actions={
        <>
          <button type="button" className="button" onClick={onClose}>
            {t('patientAdmin.wizard.cancel')}
          </button>
          {requested ? (
            <button type="button" className="button button-primary" disabled={busy || !!missing} onClick={() => chosen && onSendRequest(chosen.device_master_id, chosen.device_id, state.range)} data-testid="send-request">
              {t('patientAdmin.deploy.sendRequest')}
            </button>
          ) : (
            <button type="button" className="button button-primary" disabled={busy || !patientCode} onClick={onConfirmToday} data-testid="past-confirm">
              {t('patientAdmin.deploy.confirm')}
            </button>
          )}
        </>
      }
    >
      <p className="alert alert-error" data-testid="past-date-error">
        {t('patientAdmin.device.pastDate')}
      </p>
      <p className="muted">
        {state.range.allocation} → {state.range.deallocation} · {patientCode}
      </p>
      <div className="field">
        <label htmlFor="past-device">{t('patientAdmin.device.deviceId')}</label>
        <select id="past-device" value={device ?? ''} onChange={(e) => setDevice(e.target.value ? Number(e.target.value) : null)} data-testid="past-device">
          <option value="">{t('patientAdmin.fields.choose')}</option>
          {(devices.data ?? []).map((d) => (
            <option key={d.device_master_id} value={d.device_master_id}>
              {d.device_id}
            </option>
          ))}
        </select>
      </div>
      <label className="check">
        <input type="checkbox" checked={requested} onChange={(e) => setRequested(e.target.checked)} data-testid="request-admin" />
        {t('patientAdmin.deploy.request')}
      </label>
      {!requested && <p className="field-hint">{t('patientAdmin.deploy.confirmToday')}</p>}
      {requested && missing && <p className="field-error">{missing}</p>}
      {error && <p className="field-error" role="alert">{error}</p>}
    </Dialog>
  );
}
