import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { requestFile } from '../../api/client';
import { useAction } from '../../ui/useAction';
import type { NightInfo } from './types';

/** The file name a Content-Disposition header gives (RFC 6266 filename*, else filename). */
function fileNameOf(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  if (star) return decodeURIComponent(star[1]!);
  const plain = /filename="([^"]+)"/i.exec(disposition);
  return plain ? plain[1]! : fallback;
}

/** Fetches a file with the session's token and hands it to the browser as a download. */
async function download(path: string, fallback: string): Promise<void> {
  const response = await requestFile(path);
  const url = URL.createObjectURL(await response.blob());
  try {
    const a = document.createElement('a');
    a.href = url;
    a.download = fileNameOf(response.headers.get('content-disposition'), fallback);
    document.body.append(a);
    a.click();
    a.remove();
  } finally {
    // The click has started the download; the object URL may go once it is read.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}

/**
 * Downloads of the night (spec 2 §2 Actions, §5, §6): the data points of the chosen
 * channels as the spec's Timestamp,Value CSV, one file a channel, and the whole night as
 * EDF+. Not offered to annotators.
 */
export function NightDownloads({ patientId, night }: { patientId: number; night: NightInfo }) {
  const { t } = useTranslation();
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const { busy, problem, setProblem, run } = useAction();
  const base = `?patient_id=${patientId}&recording_id=${night.recording_id}`;
  const dataPoints = () => {
    if (picked.size === 0) {
      setProblem(t('night.downloads.pickChannel'));
      return;
    }
    run(async () => {
      for (const code of picked) await download(`/analytics/patient/data-points${base}&code=${encodeURIComponent(code)}`, `${code}.csv`);
    });
  };
  return (
    <details className="night-downloads" data-testid="night-downloads">
      <summary>{t('night.downloads.title')}</summary>
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
            {t(`night.channels.${c.code}` as 'night.channels.BR', { defaultValue: c.code })}
          </label>
        ))}
      </fieldset>
      <div className="download-actions">
        <button type="button" className="button button-small" disabled={busy} onClick={dataPoints} data-testid="download-data-points">
          {t('night.downloads.dataPoints')}
        </button>
        <button type="button" className="button button-small" disabled={busy}
          onClick={() => run(() => download(`/analytics/patient/export-edf${base}`, `${night.recording_date}.edf`))} data-testid="download-edf">
          {t('night.downloads.edf')}
        </button>
      </div>
      {problem && <p className="error-text" role="alert" data-testid="download-problem">{problem}</p>}
    </details>
  );
}
