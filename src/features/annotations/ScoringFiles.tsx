import { useId, useRef, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import '../../styles/scoring-files.css';
import type { TFunction } from 'i18next';
import { SCORING_SOURCES, type ScoringSource } from '../../../contract/night-rules';
import { ApiError } from '../../api/errors';
import type { NightRef } from './api';
import { annotationKeys } from './queries';
import { downloadEdfAnnotations, downloadNsrrXml, importScoringFile, type ScoringImportResult } from './scoringFiles';

interface Props {
  night: NightRef;
  /** A sample patient's night: exports only. */
  readOnly: boolean;
  onNotice(text: string | null): void;
}

/** Refusals the import explains in the user's words (else the server's message), by the server's code. */
const importError = (t: TFunction, code: string): string | null =>
  ({
    scoring_format_unknown: t('scoringFiles.errors.scoring_format_unknown'),
    scoring_file_unreadable: t('scoringFiles.errors.scoring_file_unreadable'),
    scoring_outside_night: t('scoringFiles.errors.scoring_outside_night'),
    too_many_categories: t('scoringFiles.errors.too_many_categories'),
    scoring_empty: t('scoringFiles.errors.scoring_empty'),
  })[code] ?? null;

const sourceLabel = (t: TFunction, s: ScoringSource): string =>
  ({ all: t('scoringFiles.sources.all'), human: t('scoringFiles.sources.human'), automatic: t('scoringFiles.sources.automatic'), device: t('scoringFiles.sources.device') })[s];

function importedText(t: TFunction, file: string, r: ScoringImportResult): string {
  const parts = [t('scoringFiles.imported', { count: r.imported, file })];
  if (r.duplicates) parts.push(t('scoringFiles.duplicates', { count: r.duplicates }));
  if (r.outside) parts.push(t('scoringFiles.outside', { count: r.outside }));
  if (r.instants) parts.push(t('scoringFiles.instants', { count: r.instants }));
  if (r.categories_created.length) parts.push(t('scoringFiles.categoriesCreated', { names: r.categories_created.join(', ') }));
  const moved = r.channels_substituted.reduce((sum, s) => sum + s.count, 0);
  if (moved) parts.push(t('scoringFiles.channelsSubstituted', { count: moved }));
  return parts.join(' ');
}

/** The night's scoring as NSRR XML or EDF+ annotations (by source), and a scoring file imported onto the night. */
export function ScoringFiles({ night, readOnly, onNotice }: Props) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [source, setSource] = useState<ScoringSource>('all');
  const input = useRef<HTMLInputElement>(null);
  const selectId = useId();
  const failed = (err: unknown) => {
    const known = err instanceof ApiError ? importError(t, err.code) : null;
    // The server's message names the file, the field and what was wrong: kept beside the translated sentence.
    onNotice(known ? `${known} (${(err as Error).message})` : err instanceof Error ? err.message : String(err));
  };
  const upload = useMutation({
    mutationFn: (file: File) => importScoringFile(night, file),
    onSuccess: (r, file) => onNotice(importedText(t, file.name, r)),
    onError: failed,
    onSettled: () => Promise.all([client.invalidateQueries({ queryKey: annotationKeys.night(night) }), client.invalidateQueries({ queryKey: annotationKeys.categories(night.patientId) })]),
  });

  return (
    <section className="scoring-files" aria-label={t('scoringFiles.title')} data-testid="scoring-files">
      <h3>{t('scoringFiles.title')}</h3>
      <div className="scoring-source">
        <label htmlFor={selectId}>{t('scoringFiles.source')}</label>
        <select id={selectId} value={source} onChange={(e) => setSource(e.target.value as ScoringSource)} data-testid="scoring-source">
          {SCORING_SOURCES.map((s) => (
            <option key={s} value={s}>{sourceLabel(t, s)}</option>
          ))}
        </select>
      </div>
      <div className="annotation-actions">
        <button type="button" className="button" onClick={() => void downloadNsrrXml(night, source).catch(failed)} data-testid="export-nsrr">{t('scoringFiles.exportNsrr')}</button>
        <button type="button" className="button" onClick={() => void downloadEdfAnnotations(night, source).catch(failed)} data-testid="export-edf-annotations">{t('scoringFiles.exportEdf')}</button>
        {!readOnly && (
          <>
            <button type="button" className="button" disabled={upload.isPending} onClick={() => input.current?.click()} data-testid="import-scoring">
              {upload.isPending ? t('scoringFiles.importing') : t('scoringFiles.import')}
            </button>
            <input
              ref={input}
              type="file"
              accept=".xml,.edf,.bdf,application/xml,text/xml"
              hidden
              data-testid="import-scoring-file"
              onChange={(e) => {
                const file = e.target.files?.[0];
                e.target.value = '';
                if (file) {
                  onNotice(null);
                  upload.mutate(file);
                }
              }}
            />
          </>
        )}
      </div>
      <p className="muted">{t('scoringFiles.help')}</p>
    </section>
  );
}
