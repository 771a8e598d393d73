// Real Time opened without a device (the sidebar's entry): the practice's devices, each with
// its patient and live state, one click to its stream — never a dead end.
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { errorText } from '../../api/messages';
import { PATHS, deviceTestingPath } from '../../routes';
import { liveDevicesQuery, type RealTimeDevice } from './api';
import { LiveStateBadge } from './LiveStateBadge';


function DeviceRow({ device }: { device: RealTimeDevice }) {
  const { t } = useTranslation();
  const patient = device.patient_code ?? t('live.dashboard.noPatient');
  return (
    <li className="realtime-picker-row" data-testid="realtime-picker-device" data-device={device.device_id}>
      <Link href={deviceTestingPath(device.patient_id, device.device_id, PATHS.deviceTesting)} data-testid="realtime-picker-open">
        {device.device_id}
      </Link>
      <span>{patient}</span>
      <LiveStateBadge state={device.state} connection="open" />
    </li>
  );
}

export function RealTimePicker() {
  const { t } = useTranslation();
  const devices = useQuery(liveDevicesQuery);
  // Streaming devices first, then by serial.
  const rows = [...(devices.data ?? [])].sort((a, b) => Number(b.state === 'streaming') - Number(a.state === 'streaming') || a.device_id.localeCompare(b.device_id));
  return (
    <section className="card realtime-picker" data-testid="realtime-picker" aria-labelledby="realtime-picker-title">
      <h2 id="realtime-picker-title">{t('live.picker.title')}</h2>
      <p className="muted">{t('live.picker.hint')}</p>
      {devices.isPending && <p className="muted" role="status">{t('common.loading')}</p>}
      {devices.isError && <p role="alert" className="error-text" data-testid="realtime-picker-error">{errorText(t, devices.error)}</p>}
      {devices.isSuccess && rows.length === 0 && <p className="muted" data-testid="realtime-picker-empty">{t('live.picker.empty')}</p>}
      {rows.length > 0 && (
        <ul className="realtime-picker-list">
          {rows.map((d) => (
            <DeviceRow key={d.device_id} device={d} />
          ))}
        </ul>
      )}
    </section>
  );
}
