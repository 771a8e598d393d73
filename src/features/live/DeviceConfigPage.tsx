// Device Config (/app/device_config, hidden for annotators): the physician's devices with
// their configuration, what became of the newest version on the device (pending, applied,
// refused), the history of versions, and the device keys (a new key is shown once).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../api/messages';
import { liveApi, type DeviceConfig, type DeviceConfigRow } from './api';
import { LiveStateBadge } from './LiveStateBadge';
import '../../styles/live.css';
import { useFormat } from '../../format';
import { channelName } from '../../builtInNames';

const CONFIG_REFRESH_MS = 2_000;
const configKey = ['live', 'configs'] as const;

export function DeviceConfigPage() {
  const { t } = useTranslation();
  const query = useQuery({ queryKey: configKey, queryFn: liveApi.configs, refetchInterval: CONFIG_REFRESH_MS });
  return (
    <section className="live-page" data-testid="device-config" aria-labelledby="device-config-title">
      <h2 id="device-config-title">{t('nav.deviceConfig')}</h2>
      {query.isPending && <p className="muted" role="status">{t('common.loading')}</p>}
      {query.isError && <p role="alert" className="error-text">{errorText(t, query.error)}</p>}
      {query.isSuccess && query.data.devices.length === 0 && <p className="card muted">{t('live.config.none')}</p>}
      <div className="device-config-list">
        {query.data?.devices.map((d) => <DeviceCard key={d.device_master_id} device={d} rates={query.data.channel_rates} />)}
      </div>
    </section>
  );
}

function DeviceCard({ device, rates }: { device: DeviceConfigRow; rates: Record<string, number[]> }) {
  const { t } = useTranslation();
  return (
    <article className="card device-config-card" data-testid="device-config-card" data-device={device.device_id}>
      <header className="live-head">
        <h3>{device.device_id}</h3>
        <span>{device.patient_code ?? t('live.dashboard.noPatient')}</span>
        <LiveStateBadge state={device.state} connection="open" />
        <ConfigStatus device={device} />
      </header>
      <ConfigForm key={device.version} device={device} rates={rates} />
      <DeviceKeys device={device} />
      <History device={device} />
    </article>
  );
}

function ConfigStatus({ device }: { device: DeviceConfigRow }) {
  const { t } = useTranslation();
  if (!device.status) return <span className="muted" data-testid="config-status" data-status="default">{t('live.config.defaults')}</span>;
  return (
    <span className={`config-status-${device.status}`} data-testid="config-status" data-status={device.status} role="status">
      {t(`live.config.status.${device.status}`, { version: device.version })}
      {device.status_reason ? ` — ${device.status_reason}` : ''}
    </span>
  );
}

function ConfigForm({ device, rates }: { device: DeviceConfigRow; rates: Record<string, number[]> }) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const [draft, setDraft] = useState<DeviceConfig>(device.config);
  const save = useMutation({
    mutationFn: () => liveApi.updateConfig(device.device_master_id, draft),
    onSuccess: () => client.invalidateQueries({ queryKey: configKey }),
  });
  const set = (next: Partial<DeviceConfig>) => setDraft((d) => ({ ...d, ...next }));
  const window = (field: 'start' | 'stop' | 'timezone', value: string) => set({ recording_window: { ...draft.recording_window, [field]: value } });
  const radar = (field: 'range_m' | 'sensitivity', value: string) => set({ radar: { ...draft.radar, [field]: Number(value) } });
  const channel = (code: string, rate: number | null) => {
    const channels = { ...draft.channels };
    if (rate === null) delete channels[code];
    else channels[code] = rate;
    set({ channels });
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  const id = `cfg-${device.device_master_id}`;
  return (
    <form onSubmit={submit} aria-label={t('live.config.formLabel', { device: device.device_id })}>
      <fieldset>
        <legend>{t('live.config.window')}</legend>
        <label htmlFor={`${id}-start`}>{t('live.config.start')}</label>
        <input id={`${id}-start`} type="time" value={draft.recording_window.start} onChange={(e) => window('start', e.target.value)} data-testid="config-start" />
        <label htmlFor={`${id}-stop`}>{t('live.config.stop')}</label>
        <input id={`${id}-stop`} type="time" value={draft.recording_window.stop} onChange={(e) => window('stop', e.target.value)} data-testid="config-stop" />
        <label htmlFor={`${id}-tz`}>{t('live.config.timezone')}</label>
        <input id={`${id}-tz`} value={draft.recording_window.timezone} onChange={(e) => window('timezone', e.target.value)} data-testid="config-timezone" />
      </fieldset>
      <fieldset>
        <legend>{t('live.config.channels')}</legend>
        {Object.entries(rates).map(([code, options]) => {
          const rate = draft.channels[code];
          const name = channelName(t, i18n.language, code);
          return (
            <div key={code} className="config-channel">
              <label>
                <input type="checkbox" checked={rate !== undefined} onChange={(e) => channel(code, e.target.checked ? options[0]! : null)} data-testid={`config-channel-${code}`} /> {name}
              </label>
              {rate !== undefined && options.length > 1 && (
                <select value={rate} onChange={(e) => channel(code, Number(e.target.value))} aria-label={t('live.config.rate', { channel: name })} data-testid={`config-rate-${code}`}>
                  {options.map((o) => (
                    <option key={o} value={o}>{t('live.config.hz', { rate: o })}</option>
                  ))}
                </select>
              )}
            </div>
          );
        })}
      </fieldset>
      <fieldset>
        <legend>{t('live.config.radar')}</legend>
        <label htmlFor={`${id}-range`}>{t('live.config.range')}</label>
        <input id={`${id}-range`} type="number" step="0.1" value={draft.radar.range_m} onChange={(e) => radar('range_m', e.target.value)} data-testid="config-range" />
        <label htmlFor={`${id}-sens`}>{t('live.config.sensitivity')}</label>
        <input id={`${id}-sens`} type="number" step="1" value={draft.radar.sensitivity} onChange={(e) => radar('sensitivity', e.target.value)} data-testid="config-sensitivity" />
        <label>
          <input type="checkbox" checked={draft.live_streaming} onChange={(e) => set({ live_streaming: e.target.checked })} data-testid="config-streaming" /> {t('live.config.streaming')}
        </label>
      </fieldset>
      <div>
        <button type="submit" className="button primary" disabled={save.isPending} data-testid="config-save">{t('live.config.save')}</button>
        {save.isError && <p role="alert" className="error-text" data-testid="config-error">{errorText(t, save.error)}</p>}
      </div>
    </form>
  );
}

function DeviceKeys({ device }: { device: DeviceConfigRow }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [shownKey, setShownKey] = useState<string | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: configKey });
  const issue = useMutation({ mutationFn: () => liveApi.issueKey(device.device_master_id), onSuccess: (r) => (setShownKey(r.key), refresh()) });
  const revoke = useMutation({ mutationFn: () => liveApi.revokeKeys(device.device_master_id), onSuccess: () => (setShownKey(null), refresh()) });
  const active = device.keys.filter((k) => !k.revoked_at);
  return (
    <div className="device-keys" data-testid="device-keys">
      <h4>{t('live.keys.title')}</h4>
      <p data-testid="device-key-list">{active.length ? t('live.keys.active', { prefixes: active.map((k) => `${k.key_prefix}…`).join(', ') }) : t('live.keys.noneActive')}</p>
      {shownKey && (
        <p className="device-key-once" role="status">
          {t('live.keys.once')} <code data-testid="device-key-once">{shownKey}</code>
        </p>
      )}
      <button type="button" className="button" onClick={() => issue.mutate()} disabled={issue.isPending} data-testid="device-key-issue">{t('live.keys.issue')}</button>{' '}
      <button type="button" className="button" onClick={() => revoke.mutate()} disabled={revoke.isPending || active.length === 0} data-testid="device-key-revoke">{t('live.keys.revoke')}</button>
      {(issue.isError || revoke.isError) && <p role="alert" className="error-text">{errorText(t, issue.error ?? revoke.error)}</p>}
    </div>
  );
}

function History({ device }: { device: DeviceConfigRow }) {
  const { t } = useTranslation();
  const f = useFormat();
  if (device.history.length === 0) return null;
  return (
    <details className="config-history">
      <summary>{t('live.config.history', { count: device.history.length })}</summary>
      <ol data-testid="config-history">
        {device.history.map((v) => (
          <li key={v.version}>
            {t('live.config.versionLine', { version: v.version, who: v.created_by_name ?? '–', when: f.instant(v.created_at), status: t(`live.config.statusWord.${v.status}`) })}
            <ul>
              {v.changes.map((c) => (
                <li key={c.field} className="mono">{`${c.field}: ${JSON.stringify(c.from)} → ${JSON.stringify(c.to)}`}</li>
              ))}
            </ul>
          </li>
        ))}
      </ol>
    </details>
  );
}
