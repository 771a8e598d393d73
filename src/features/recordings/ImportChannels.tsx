import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import type { ImportSummary } from './api';
import { formatSignificant } from '../../format';

/** Rate in Hz, readable for slow channels too (1/60 Hz → "0.0167"). */
function formatRate(hz: number, locale: string): string {
  return formatSignificant(hz, locale, 3);
}

/**
 * What an import made of every signal of its files: each channel with its code, source
 * label, rate, unit and the samples made missing as impossible; the checksum/status
 * signals skipped; labels kept because their unit or rate did not fit the usual code.
 */
export function ImportChannels({ summary }: { summary: ImportSummary }) {
  const { t, i18n } = useTranslation();
  return (
    <div className="import-channels" data-testid="import-channels">
      <table className="table">
        <caption>{t('importSummary.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('importSummary.code')}</th>
            <th scope="col">{t('importSummary.label')}</th>
            <th scope="col">{t('importSummary.rate')}</th>
            <th scope="col">{t('importSummary.unit')}</th>
            <th scope="col">{t('importSummary.rejected')}</th>
            {summary.sources && <th scope="col">{t('nightFiles.source')}</th>}
          </tr>
        </thead>
        <tbody>
          {summary.channels.map((c) => (
            <tr key={c.code} data-testid="import-channel">
              <td>{c.code}</td>
              <td>{c.label}</td>
              <td>{formatRate(c.rate, i18n.language)}</td>
              <td>{c.unit || '–'}</td>
              <td>
                {c.outOfRange + c.nonFinite === 0
                  ? '0'
                  : t('importSummary.rejectedCount', { outOfRange: c.outOfRange, nonFinite: c.nonFinite })}
              </td>
              {summary.sources && <SourceCell source={summary.sources.find((s) => s.code === c.code)} />}
            </tr>
          ))}
        </tbody>
      </table>
      {summary.skipped.length > 0 && (
        <p className="muted" data-testid="import-skipped">
          {t('importSummary.skipped', { signals: summary.skipped.map((s) => `${s.label} (${s.file})`).join(', ') })}
        </p>
      )}
      {summary.unmapped.length > 0 && (
        <ul className="muted" data-testid="import-unmapped">
          {summary.unmapped.map((u) => (
            <li key={`${u.file}:${u.label}`}>{t('importSummary.unmapped', { label: u.label, code: u.code, reason: u.reason })}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** A file name that a narrow column breaks after its underscores (snore_resmed_/20250110_/…), not inside a word. */
function breakable(name: string) {
  return name.split(/(?<=_)/).map((part, i) => (
    <Fragment key={i}>
      {i > 0 && <wbr />}
      {part}
    </Fragment>
  ));
}

/** Which file(s) a code came from; a channel without one valid sample says so (it never holds a code a channel with data can fill). */
function SourceCell({ source }: { source?: { files: string[]; valid: number } }) {
  const { t } = useTranslation();
  if (!source) return <td>–</td>;
  return (
    <td data-testid="import-source">
      {source.files.map((f, i) => (
        <Fragment key={f}>
          {i > 0 && ', '}
          {breakable(f)}
        </Fragment>
      ))}
      {source.valid === 0 && <> ({t('nightFiles.noData')})</>}
    </td>
  );
}
