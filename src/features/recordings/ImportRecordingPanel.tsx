import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/errors';
import { Alert } from '../../ui/Alert';
import { uploadRecording, type ImportedNight } from './api';
import { ImportChannels } from './ImportChannels';
import { useFormat } from '../../format';

interface Props {
  patientId: number;
  /** Query keys to refresh after an import (the patient's nights). */
  invalidate: readonly unknown[];
  /** The patient's time zone, offered first. */
  defaultTimezone?: string;
  /** Called with the imported night's key (Unix seconds), so the screen can show that night. */
  onImported?: (night: number) => void;
}

/** "Import recording": a physician uploads the files of one night for this patient. */
export function ImportRecordingPanel({ patientId, invalidate, defaultTimezone, onImported }: Props) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const ids = { files: useId(), tz: useId(), device: useId(), channel: useId() };
  const [files, setFiles] = useState<File[]>([]);
  const [timezone, setTimezone] = useState(defaultTimezone ?? '');
  const [deviceId, setDeviceId] = useState('');
  const [channel, setChannel] = useState('');
  const upload = useMutation({
    mutationFn: () => uploadRecording({ patientId, files, timezone: timezone || undefined, deviceId: deviceId || undefined, channel: channel || undefined }),
    onSuccess: (imported) => {
      void client.invalidateQueries({ queryKey: invalidate });
      if (imported.night !== undefined) onImported?.(imported.night);
      // A file may join a night already on screen: its summary, agreement and annotations change too.
      void client.invalidateQueries({ queryKey: ['patient', patientId] });
      void client.invalidateQueries({ queryKey: ['annotations', patientId] });
    },
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (files.length > 0) upload.mutate();
  };

  return (
    <form className="card import-panel" onSubmit={submit} data-testid="import-recording">
      <h3 className="card-title">{t('recordings.import.title')}</h3>
      <p className="muted">{t('recordings.import.help')}</p>
      <div className="field">
        <label htmlFor={ids.files}>{t('recordings.import.files')}</label>
        <input id={ids.files} type="file" multiple accept=".edf,.EDF,.bdf,.BDF,.csv,.CSV" data-testid="import-files" onChange={(e) => setFiles(Array.from(e.target.files ?? []))} />
      </div>
      <div className="import-row">
        <div className="field">
          <label htmlFor={ids.tz}>{t('recordings.import.timezone')}</label>
          <input id={ids.tz} value={timezone} placeholder={t('recordings.import.timezoneHint')} onChange={(e) => setTimezone(e.target.value)} data-testid="import-timezone" />
        </div>
        <div className="field">
          <label htmlFor={ids.device}>{t('recordings.import.device')}</label>
          <input id={ids.device} value={deviceId} maxLength={40} onChange={(e) => setDeviceId(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={ids.channel}>{t('recordings.import.channel')}</label>
          <input id={ids.channel} value={channel} maxLength={40} placeholder={t('recordings.import.channelHint')} onChange={(e) => setChannel(e.target.value)} />
        </div>
      </div>
      <button type="submit" className="button button-primary" disabled={files.length === 0 || upload.isPending} data-testid="import-submit">
        {upload.isPending ? t('recordings.import.uploading') : t('recordings.import.submit')}
      </button>
      {upload.isError && (
        <Alert tone="error" testId="import-error">
          {upload.error instanceof ApiError ? upload.error.message : t('errors.server')}
        </Alert>
      )}
      {upload.isSuccess && upload.data.channels && <ImportSummary night={upload.data} />}
      {upload.isSuccess && upload.data.device_summary && <DeviceSummaryDone summary={upload.data.device_summary} />}
      {upload.isSuccess && upload.data.summary && <ImportChannels summary={upload.data.summary} />}
    </form>
  );
}

/** A device's daily summary read with the upload (stored per day, no night). */
function DeviceSummaryDone({ summary: s }: { summary: NonNullable<ImportedNight['device_summary']> }) {
  const { t } = useTranslation();
  return (
    <Alert tone="success" testId="import-device-summary">
      {t('nightBasis.imported', { files: s.files.join(', '), read: s.days_read, stored: s.days_stored, first: s.first_day ?? '–', last: s.last_day ?? '–' })}
    </Alert>
  );
}

function ImportSummary({ night }: { night: ImportedNight }) {
  const { t } = useTranslation();
  const f = useFormat();
  const hours = f.hours(night.recording_stop_time - night.recording_start_time);
  return (
    <Alert tone="success" testId="import-done">
      {t('recordings.import.done', {
        start: f.dateTime(night.recording_start_time, night.timezone),
        hours,
        channels: night.channels.map((c) => c.code).join(', ') || '—',
        events: night.events,
      })}
      {night.merged && <> {t('recordings.import.merged')}</>}
      {Boolean(night.device_events) && <> {t('recordings.import.deviceEvents', { count: night.device_events })}</>}
    </Alert>
  );
}
