import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { ApiError } from '../../api/errors';
import { errorText } from '../../api/messages';
import { Alert } from '../../ui/Alert';
import { fetchUploadLimits, uploadProblem, uploadRecording, type DeviceSummaryImport, type OtherImportedNight, type SkippedFile, type UploadAnswer, type UploadProblem } from './api';
import { ImportChannels } from './ImportChannels';
import { useFormat } from '../../format';
import { formatSpan } from '../../charts/core/format';
import { channelName } from '../../builtInNames';
import { isImportableFile } from '../../../contract/night-rules';

interface Props {
  patientId: number;
  /** Query keys to refresh after an import (the patient's nights). */
  invalidate: readonly unknown[];
  /** The patient's time zone, offered first. */
  defaultTimezone?: string;
  /** Called with what the import made (the night's key, its channels, what was skipped), so the screen can show that night and the result. */
  onImported: (result: UploadAnswer) => void;
}

/**
 * The upload and what it refreshes: the patient's nights and screens after it, and after a
 * refusal that stored the nights before it (decision 1028).
 */
function useImportUpload(patientId: number, invalidate: readonly unknown[], onImported: (imported: UploadAnswer) => void, request: () => Parameters<typeof uploadRecording>[0]) {
  const client = useQueryClient();
  const refresh = () => {
    void client.invalidateQueries({ queryKey: invalidate });
    // A file may join a night already on screen: its summary, agreement and annotations change too.
    void client.invalidateQueries({ queryKey: ['patient', patientId] });
    void client.invalidateQueries({ queryKey: ['annotations', patientId] });
  };
  return useMutation({
    mutationFn: () => uploadRecording(request()),
    onSuccess: (imported) => {
      refresh();
      onImported(imported);
    },
    onError: (error) => {
      if (error instanceof ApiError && error.code === 'import_partly_stored') refresh();
    },
  });
}

/** "Import recording": a physician uploads the files of one night for this patient. */
export function ImportRecordingPanel({ patientId, invalidate, defaultTimezone, onImported }: Props) {
  const { t } = useTranslation();
  const ids = { files: useId(), folder: useId(), tz: useId(), device: useId(), channel: useId() };
  const [files, setFiles] = useState<File[]>([]);
  const limits = useQuery({ queryKey: ['upload-limits'], queryFn: fetchUploadLimits, staleTime: Infinity });
  // Checked before sending: a night folder of many sessions, or a file too large, is said here, not by the server.
  const problem = limits.data ? uploadProblem(files, limits.data) : null;
  const [timezone, setTimezone] = useState(defaultTimezone ?? '');
  const [deviceId, setDeviceId] = useState('');
  const [channel, setChannel] = useState('');
  const upload = useImportUpload(patientId, invalidate, onImported, () => ({ patientId, files, timezone: timezone || undefined, deviceId: deviceId || undefined, channel: channel || undefined }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (files.length > 0 && !problem) upload.mutate();
  };

  return (
    <form className="card import-panel" onSubmit={submit} data-testid="import-recording">
      <h3 className="card-title">{t('recordings.import.title')}</h3>
      <p className="muted">{t('recordings.import.help')}</p>
      <div className="field">
        <label htmlFor={ids.files}>{t('recordings.import.files')}</label>
        <input id={ids.files} type="file" multiple accept=".edf,.EDF,.bdf,.BDF,.csv,.CSV,.xml,.XML" data-testid="import-files" onChange={(e) => setFiles(Array.from(e.target.files ?? []))} />
      </div>
      <div className="field">
        <label htmlFor={ids.folder}>{t('nightFiles.folder')}</label>
        {/* A whole night folder (ResMed DATALOG/<date>): only the files the import reads are sent. */}
        <input
          id={ids.folder}
          type="file"
          multiple
          data-testid="import-folder"
          ref={(el) => el?.setAttribute('webkitdirectory', '')}
          onChange={(e) => setFiles(Array.from(e.target.files ?? []).filter((f) => isImportableFile(f.name)))}
        />
        <small className="muted">{t('nightFiles.folderHint')}</small>
      </div>
      {files.length > 0 && (
        <p className="muted" data-testid="import-selected">
          {t('nightFiles.selected', { count: files.length, size: megabytes(files.reduce((n, f) => n + f.size, 0)) })}
        </p>
      )}
      {problem && (
        <Alert tone="error" testId="import-check">
          {problemText(t, problem)}
        </Alert>
      )}
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
      <button type="submit" className="button button-primary" disabled={files.length === 0 || problem !== null || upload.isPending} data-testid="import-submit">
        {upload.isPending ? t('recordings.import.uploading') : t('recordings.import.submit')}
      </button>
      {upload.isError && (
        <Alert tone="error" testId="import-error">
          <ImportError error={upload.error} />
        </Alert>
      )}
    </form>
  );
}

/**
 * What an import made, above the night it opened until the user dismisses it: the night's
 * span, channels and device events, the files kept once, and (folded) every signal's code,
 * label, rate, unit and source.
 */
export function ImportResult({ result, onDismiss }: { result: UploadAnswer; onDismiss: () => void }) {
  const { t } = useTranslation();
  // The form that sent the files is far below: the result is brought into view (and focus, for a screen reader) when it arrives.
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    ref.current?.scrollIntoView({ block: 'start' });
    ref.current?.focus({ preventScroll: true });
  }, [result]);
  const several = 'other_nights' in result && (result.other_nights?.length ?? 0) > 0;
  return (
    <section ref={ref} tabIndex={-1} className="card import-result" aria-label={t('recordings.import.resultTitle')} data-testid="import-result">
      <header className="import-result-head">
        <h3 className="card-title">{t('recordings.import.resultTitle')}</h3>
        <button type="button" className="button button-small" onClick={onDismiss} data-testid="import-result-dismiss">
          {t('recordings.import.dismiss')}
        </button>
      </header>
      {'channels' in result && <ImportSummary night={result} skipped={!several} />}
      {/* A card's folder of several nights: each night's own line and its own signals (decision 1021);
          the files left out are the upload's, listed once after its nights (not under the first's). */}
      {several && (
        <>
          <NightChannels night={result} several />
          <p data-testid="import-nights">{t('recordings.import.severalNights')}</p>
          {result.other_nights!.map((n) => (
            <div key={n.recording_id}>
              <ImportSummary night={n} testId="import-done-more" skipped={false} />
              <NightChannels night={n} several />
            </div>
          ))}
          <SkippedFiles files={[result, ...result.other_nights!].flatMap((n) => n.skipped_files ?? [])} lead />
        </>
      )}
      {result.device_summary && <DeviceSummaryDone summary={result.device_summary} />}
      {'summary' in result && !several && <NightChannels night={result} />}
    </section>
  );
}

/**
 * A night's signals (code, label, rate, unit, source), folded. Of an upload of several nights,
 * each night has its own, named by its start: the channels differ from night to night.
 */
function NightChannels({ night, several = false }: { night: OtherImportedNight; several?: boolean }) {
  const { t } = useTranslation();
  const f = useFormat();
  const count = night.summary.channels.length;
  return (
    <details className="import-result-channels" data-testid="import-result-channels">
      <summary>
        {several ? t('recordings.import.channelsFoldedOf', { count, start: f.dateTime(night.recording_start_time, night.timezone) }) : t('recordings.import.channelsFolded', { count })}
      </summary>
      <ImportChannels summary={night.summary} />
    </details>
  );
}

/** A device's daily summary read with the upload (stored per day, no night). */
function DeviceSummaryDone({ summary: s }: { summary: DeviceSummaryImport }) {
  const { t } = useTranslation();
  return (
    <Alert tone="success" testId="import-device-summary">
      {t('nightBasis.imported', { files: s.files.join(', '), read: s.days_read, stored: s.days_stored, first: s.first_day ?? '–', last: s.last_day ?? '–' })}
    </Alert>
  );
}

/** An upload's files left out, each with why (its night's answer lists them; of several nights, the upload's under a lead line). */
function SkippedFiles({ files, lead = false }: { files: readonly SkippedFile[]; lead?: boolean }) {
  const { t } = useTranslation();
  const f = useFormat();
  if (files.length === 0) return null;
  const list = (
    <ul data-testid="import-skipped-files">
      {files.map((s) => (
        <li key={s.name}>
          {s.reason === 'no_data'
            ? t('nightFiles.skippedEmpty', { file: s.name })
            : s.reason === 'macos_metadata'
              ? t('nightFiles.skippedMacos', { file: s.name })
              : s.reason === 'same_in_upload'
              ? t('nightFiles.skippedSame', { file: s.name, same: s.same_as })
              : t('nightFiles.skippedStored', { file: s.name, same: s.same_as, night: s.night === undefined ? '' : f.day(s.night * 1000, 'UTC') })}
        </li>
      ))}
    </ul>
  );
  return lead ? (
    <div data-testid="import-skipped-upload">
      <p>{t('recordings.import.skippedOfUpload', { count: files.length })}</p>
      {list}
    </div>
  ) : (
    list
  );
}

function ImportSummary({ night, testId = 'import-done', skipped = true }: { night: OtherImportedNight; testId?: string; skipped?: boolean }) {
  const { t } = useTranslation();
  const f = useFormat();
  return (
    <Alert tone="success" testId={testId}>
      {t('recordings.import.done', {
        start: f.dateTime(night.recording_start_time, night.timezone),
        duration: formatSpan(night.recording_stop_time - night.recording_start_time),
        channels: night.channels.map((c) => channelName(t, f.language, c.code)).join(', ') || '–',
      })}
      {/* What EDF+ files annotate (markers such as "Recording starts", stages, scored events); with
          no scored event among them the annotation list stays empty, and the line says why. */}
      {night.events > 0 && <> {t(night.device_events ? 'recordings.import.fileAnnotations' : 'recordings.import.fileMarkers', { count: night.events })}</>}
      {/* The upload's own span above; joined onto a night, the night as it now stands. */}
      {night.merged && <> {t('recordings.import.merged', { start: f.dateTime(night.night_start_time, night.timezone), duration: formatSpan(night.night_stop_time - night.night_start_time) })}</>}
      {Boolean(night.device_events) && <> {t('recordings.import.deviceEvents', { count: night.device_events })}</>}
      {skipped && <SkippedFiles files={night.skipped_files ?? []} />}
    </Alert>
  );
}

const MB = 1024 * 1024;
const megabytes = (bytes: number) => Math.ceil(bytes / MB);

/** A check before sending, in the user's words. */
function problemText(t: TFunction, p: UploadProblem): string {
  if (p.kind === 'tooMany') return t('nightFiles.tooMany', { count: p.count, max: p.max });
  if (p.kind === 'fileTooLarge') return t('nightFiles.fileTooLarge', { file: p.file, max: megabytes(p.max) });
  return t('nightFiles.uploadTooLarge', { size: megabytes(p.size), max: megabytes(p.max) });
}

/** The server's refusal by its code, in the user's words; an unreadable file's reader diagnostics are listed as sent. */
function ImportError({ error }: { error: unknown }) {
  const { t } = useTranslation();
  if (!(error instanceof ApiError)) return <>{t('errors.server')}</>;
  if (error.code === 'invalid_recording_file') {
    return (
      <>
        {t('nightFiles.unreadable')}
        <ul data-testid="import-error-files">
          {(error.errors.length > 0 ? error.errors : [error.message]).map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </>
    );
  }
  return <>{errorText(t, error)}</>;
}
