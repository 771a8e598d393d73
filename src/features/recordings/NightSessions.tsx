import { useTranslation } from 'react-i18next';
import { MAX_NIGHT_HOURS } from '../../../contract/night-rules';
import { Alert } from '../../ui/Alert';
import { useFormat } from '../../format';
import type { NightInfo } from '../night/types';

const HOUR_MS = 3_600_000;

/**
 * True for a recording longer than one night may be (files of different nights or people
 * stored before the server refused them): drawing it would load days of samples and could
 * hold the tab, so the night view says so instead.
 */
export function nightTooLong(night: Pick<NightInfo, 'recording_start_time' | 'recording_stop_time'>): boolean {
  return night.recording_stop_time - night.recording_start_time > MAX_NIGHT_HOURS * HOUR_MS;
}

/** What the night view shows for a recording it will not draw. */
export function NightTooLong({ night }: { night: NightInfo }) {
  const { t } = useTranslation();
  const f = useFormat();
  return (
    <Alert tone="error" testId="night-too-long">
      {t('nightFiles.tooLong', { hours: f.number((night.recording_stop_time - night.recording_start_time) / HOUR_MS, 0), max: MAX_NIGHT_HOURS })}
    </Alert>
  );
}

/** The night's sessions (start, end, duration, files) when it has more than one. */
export function NightSessions({ night }: { night: NightInfo }) {
  const { t } = useTranslation();
  const f = useFormat();
  const sessions = night.sessions ?? [];
  if (sessions.length < 2) return null;
  return (
    <details className="night-sessions card" data-testid="night-sessions">
      <summary>
        {t('nightFiles.sessionsTitle')} ({sessions.length})
      </summary>
      <ol>
        {sessions.map((s) => (
          <li key={s.start} data-testid="night-session">
            {t('nightFiles.session', { start: f.time(s.start, night.timezone, false), end: f.time(s.end, night.timezone, false), hours: f.hours(s.duration_ms), files: s.files.join(', ') })}
          </li>
        ))}
      </ol>
    </details>
  );
}

/**
 * The recordings of one night when there are several (a device streamed while an imported or
 * simulated night existed): the night is shown as its main recording, the others one click away.
 */
export function NightRecordings({ night, shown, onShow }: { night: NightInfo; shown: number; onShow: (recordingId: number) => void }) {
  const { t } = useTranslation();
  const f = useFormat();
  const all = [night, ...(night.others ?? [])];
  if (all.length < 2) return null;
  return (
    <section className="night-recordings card" aria-label={t('nightFiles.recordingsTitle')} data-testid="night-recordings">
      <h3 className="card-title">{t('nightFiles.recordingsTitle')}</h3>
      <ul>
        {all.map((r, i) => (
          <li key={r.recording_id}>
            <button type="button" className={`link-button${r.recording_id === shown ? ' active' : ''}`} aria-current={r.recording_id === shown ? 'true' : undefined} onClick={() => onShow(r.recording_id)} data-testid="night-recording">
              {t(r.live ? 'nightFiles.recordingLive' : i === 0 ? 'nightFiles.recordingMain' : 'nightFiles.recordingOther', {
                start: f.time(r.recording_start_time, r.timezone, false),
                end: f.time(r.recording_stop_time, r.timezone, false),
                hours: f.hours(r.recording_stop_time - r.recording_start_time),
                device: r.device_id || '–',
              })}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
