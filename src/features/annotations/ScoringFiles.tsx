import { useId, useRef, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import '../../styles/scoring-files.css';
import type { TFunction } from 'i18next';
import { SCORING_SOURCES, type ScoringSource } from '../../../contract/night-rules';
import { ApiError } from '../../api/errors';
import type { NightRef } from './api';
import { annotationKeys } from './queries';
import { carryNotice } from './useShownAnnotations';
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

/** What an imported file's sleep stages became (decision 1051), said after the marks. */
function stagesText(t: TFunction, stages: NonNullable<ScoringImportResult['stages']>): string {
  if (stages.as === 'marks_annotator') return t('scoringFiles.stagesAsMarksAnnotator', { count: stages.epochs });
  if (stages.as === 'marks_recording_file') return t('scoringFiles.stagesInRecordingFile', { count: stages.epochs });
  if (stages.as === 'marks_live_night') return t('scoringFiles.stagesOnLiveNight', { count: stages.epochs });
  return t('scoringFiles.stagesBesideStaging', { count: stages.epochs });
}

function importedText(t: TFunction, file: string, r: ScoringImportResult): string {
  if (r.stages?.as === 'night_staging') {
    const staged = t('scoringFiles.staged', { count: r.stages.epochs, file });
    return r.stages.scored_events ? `${staged} ${t('scoringFiles.stagedEvents', { count: r.stages.scored_events })}` : staged;
  }
  const parts = [t('scoringFiles.imported', { count: r.imported, file })];
  if (r.duplicates) parts.push(t('scoringFiles.duplicates', { count: r.duplicates }));
  if (r.outside) parts.push(t('scoringFiles.outside', { count: r.outside }));
  if (r.instants) parts.push(t('scoringFiles.instants', { count: r.instants }));
  if (r.categories_created.length) parts.push(t('scoringFiles.categoriesCreated', { names: r.categories_created.join(', ') }));
  const moved = r.channels_substituted.reduce((sum, s) => sum + s.count, 0);
  if (moved) parts.push(t('scoringFiles.channelsSubstituted', { count: moved }));
  if (r.stages) parts.push(stagesText(t, r.stages));
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
    // A file that staged the night is one of its files now: its channels, summary and figures change as after an upload.
    onSuccess: (r, file) => {
      const text = importedText(t, file.name, r);
      onNotice(text);
      if (r.stages?.as !== 'night_staging') return;
      // The night's screen is made anew for its new channel: the answer is said there too.
      carryNotice(night.recordingId, text);
      void client.invalidateQueries({ queryKey: ['patient', night.patientId] });
    },
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
