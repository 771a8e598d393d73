import { memo, useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { usePatientDetails } from '../night/queries';
import { parseVitalParameters } from '../night/vitals';
import { PATHS, deviceTestingPath } from '../../routes';
import { presenceOf, vitalAlerts } from './alerts';
import type { RealTimeDevice } from './api';
import { LivePlot } from './LivePlot';
import { LiveStateBadge } from './LiveStateBadge';
import { useLiveDevice, type LiveStorage } from './useLiveDevice';
import { channelName } from '../../builtInNames';

const STRIP_MS = 60_000;
const STRIP_PREFERENCE = ['Y_DIST', 'BR', 'HR'];
const stripCodeOf = (channels: Iterable<string>): string | null => {
  const have = new Set(channels);
  return STRIP_PREFERENCE.find((c) => have.has(c)) ?? null;
};
/**
 * A tile reads its strip's last minute from storage as it opens (and after frames it was too
 * slow for), then draws the stream: a full strip at once, a few KB, never the night (that is
 * the Real Time view's).
 */
const STRIP_STORAGE: LiveStorage = {
  codes: (channels) => {
    const code = stripCodeOf(channels);
    return code ? [code] : [];
  },
  tailMs: STRIP_MS,
};

const shown = (v: number | undefined) => (v === undefined || v < 0 || !Number.isFinite(v) ? '–' : v.toFixed(0));

/**
 * One device on the real-time dashboard: patient, BR/HR/movement, presence, a strip, its state and alerts.
 * Re-rendered by its own stream (useLiveDevice), not by the dashboard's 5-s device poll unless
 * something it shows from the row changed (the poll's seq and frame time change every time).
 */
export const LiveTile = memo(LiveTileView, (a, b) => a.device.device_id === b.device.device_id && a.device.patient_id === b.device.patient_id && a.device.patient_code === b.device.patient_code && a.device.state === b.device.state);

function LiveTileView({ device: row }: { device: RealTimeDevice }) {
  const { t, i18n } = useTranslation();
  const { device, connection } = useLiveDevice(row.device_id, STRIP_STORAGE);
  const details = usePatientDetails(row.patient_id ?? 0);
  const vitals = parseVitalParameters(details.data?.vital_parameters ?? null);
  const latest = device?.latestRaw ?? new Map<string, number>();
  const alerts = vitalAlerts(latest, vitals);
  const presence = presenceOf(latest);
  const stripCode = device ? stripCodeOf(device.series.keys()) : null;
  const getSeries = useCallback(() => (device && stripCode ? (device.series.get(stripCode) ?? null) : null), [device, stripCode]);
  const getRange = useCallback(() => {
    const s = getSeries();
    return s ? { t0: s.endMs - STRIP_MS, t1: s.endMs } : null;
  }, [getSeries]);
  const patient = row.patient_code ?? t('live.dashboard.noPatient');

  return (
    <article className={`live-tile${alerts.length ? ' alerting' : ''}`} data-testid="live-tile" data-clips-strip="" data-device={row.device_id} data-state={device?.state ?? row.state}>
      <header className="live-tile-head">
        <strong title={`${patient} · ${row.device_id}`}>{patient}</strong>
        <span className="muted" title={row.device_id}>{row.device_id}</span>
        <LiveStateBadge state={device?.state ?? row.state} connection={connection} />
      </header>
      <div className="live-tile-vitals">
        <span>{t('live.dashboard.br')} <strong data-testid="tile-br">{shown(latest.get('BR'))}</strong></span>
        <span>{t('live.dashboard.hr')} <strong data-testid="tile-hr">{shown(latest.get('HR'))}</strong></span>
        <span>{t('live.dashboard.mov')} <strong data-testid="tile-mov">{shown(latest.get('MOV'))}</strong></span>
        <span data-testid="tile-presence" data-presence={presence}>{t(`live.dashboard.presence.${presence}`)}</span>
        <Link className="live-tile-open" href={deviceTestingPath(row.patient_id, row.device_id, PATHS.realtime)} data-testid="tile-open">{t('live.dashboard.open')}</Link>
      </div>
      {alerts.map((a) => (
        <p key={a.code} className="live-alert" role="alert" data-testid="tile-alert">
          {t(`live.dashboard.alert.${a.severity}`, { vital: channelName(t, i18n.language, a.code), value: a.value.toFixed(0) })}
        </p>
      ))}
      <div className="live-plot-wrap">
        <LivePlot series={getSeries} range={getRange} testId="tile-strip" label={t('live.dashboard.strip', { channel: stripCode ? channelName(t, i18n.language, stripCode) : '' })} />
      </div>
    </article>
  );
}
