import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { download } from '../../api/client';
import { saveFile } from '../../api/download';
import { useAction } from '../../ui/useAction';
import type { NightInfo } from './types';
import { channelName } from '../../builtInNames';
import { Folded } from '../../ui/Folded';

/**
 * Downloads of the night (spec 2 §2 Actions, §5, §6): the data points of the chosen
 * channels as the spec's Timestamp,Value CSV, one file a channel, and the whole night as
 * EDF+. Not offered to annotators.
 */
export function NightDownloads({ patientId, night }: { patientId: number; night: NightInfo }) {
  const { t, i18n } = useTranslation();
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const { busy, problem, setProblem, run } = useAction();
  const query = { patient_id: patientId, recording_id: night.recording_id };
  const dataPoints = () => {
    if (picked.size === 0) {
      setProblem(t('night.downloads.pickChannel'));
      return;
    }
    run(async () => {
      for (const code of picked) await saveFile(await download('GET /analytics/patient/data-points', '*/*', { query: { ...query, code } }), `${code}.csv`);
    });
  };
  return (
    <Folded className="night-downloads" testId="night-downloads" summary={t('night.downloads.title')}>
      <fieldset className="download-channels">
        <legend>{t('night.downloads.channels')}</legend>
        {night.channels.map((c) => (
          <label key={c.code} className="check">
            <input
              type="checkbox"
              checked={picked.has(c.code)}
              onChange={() => {
                const next = new Set(picked);
                if (next.has(c.code)) next.delete(c.code);
                else next.add(c.code);
                setPicked(next);
                setProblem(null);
              }}
              data-testid={`download-channel-${c.code}`}
            />
            {channelName(t, i18n.language, c.code)}
          </label>
        ))}
      </fieldset>
      <div className="download-actions">
        <button type="button" className="button button-small" disabled={busy} onClick={dataPoints} data-testid="download-data-points">
          {t('night.downloads.dataPoints')}
        </button>
        <button type="button" className="button button-small" disabled={busy}
          onClick={() => run(async () => saveFile(await download('GET /analytics/patient/export-edf', '*/*', { query }), `${night.recording_date}.edf`))} data-testid="download-edf">
          {t('night.downloads.edf')}
        </button>
      </div>
      {problem && <p className="error-text" role="alert" data-testid="download-problem">{problem}</p>}
    </Folded>
  );
}
