import { useTranslation } from 'react-i18next';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { isTextEntry } from '../../ui/keys';
import { KeyHelp } from '../night/KeyHelp';
import { errorText } from '../../api/messages';
import { countRender } from '../../charts/gl/stats';
import { Alert } from '../../ui/Alert';
import '../../styles/night.css';
import '../../styles/samples.css';
import { BioHeader } from '../night/BioHeader';
import { NightPicker } from '../night/NightPicker';
import { NightReview } from './NightReview';
import { nightKeys, useNights, usePatientDetails, usePreferences } from '../night/queries';
import { ImportRecordingPanel, ImportResult } from '../recordings/ImportRecordingPanel';
import type { UploadAnswer } from '../recordings/api';
import { NightRecordings, NightSessions, NightTooLong, nightTooLong } from '../recordings/NightSessions';
import { SideTabs, type Tab } from '../night/SideTabs';
import type { NightInfo } from '../night/types';
import { pickNight, prefetchNight } from '../night/preload';
import { AddToSampleDialog } from '../samples/AddToSampleDialog';
import { Folded } from '../../ui/Folded';
import { useNightUrl } from './nightUrl';
import { useEngineStart, useMarkSeen } from './useNightScreen';
import { claimSection } from '../../state/section';

export { pickNight };

// The tabs and dialogs a night's overview does not draw are chunks of their own, fetched when
// first shown: the first charts wait for the overview's code only.
const SummaryPanel = lazy(() => import('../summary/SummaryPanel').then((m) => ({ default: m.SummaryPanel })));
const NightReport = lazy(() => import('../summary/NightReport').then((m) => ({ default: m.NightReport })));
const PatientDetailsPanel = lazy(() => import('../patient-details/PatientDetailsPanel').then((m) => ({ default: m.PatientDetailsPanel })));
const TrendView = lazy(() => import('../trend/TrendView').then((m) => ({ default: m.TrendView })));

/** /app/patients/id={id}?night={unix seconds}: the patient detail screen, Overview tab, one night. */
export function NightPage({ patientId }: { patientId: number }) {
  countRender('NightPage');
  const { t } = useTranslation();
  const { requested, requestedRecording, trend, tab, goTo } = useNightUrl(patientId);
  const [reporting, setReporting] = useState(false);
  const { imported, setImported, onImported } = useImportResult(patientId, goTo);
  const [sampling, setSampling] = useState(false);
  useEngineStart();
  const details = usePatientDetails(patientId);
  const nights = useNights(patientId);
  const preferences = usePreferences();
  const shownRecording = nights.data && preferences.data && !trend && tab === 'overview' ? (pickNight(nights.data, requested, requestedRecording)?.recording_id ?? null) : null;
  const physician = preferences.data?.is_annotator === false && details.data?.is_sample_patient === false;
  useMarkSeen(patientId, shownRecording, physician);
  // A sample patient's night belongs to Sample patients in the menu, not to My Patients.
  const isSample = details.data?.is_sample_patient === true;
  useEffect(() => (isSample ? claimSection('sample-patients') : undefined), [isSample]);

  if (details.isError || nights.isError) return <NightLoadError error={details.error ?? nights.error} />;
  if (!details.data || !nights.data || preferences.isPending) {
    return <p className="muted loading" role="status">{t('common.loading')}</p>;
  }
  const night = pickNight(nights.data, requested, requestedRecording);
  const { listed, previous, next } = neighbours(nights.data, night);
  const drawable = night !== null && !nightTooLong(night);
  if (night && drawable && !trend && tab === 'overview') prefetchNight(patientId, night, preferences.data ?? null);
  const go = (n: NightInfo | null) => n && goTo({ night: String(n.night), recording: null });
  const annotator = preferences.data?.is_annotator === true;
  // A sample patient (spec 2 §2) is read-only for everyone: no edits, imports or reports.
  const sample = details.data.is_sample_patient;
  return (
    <div className="night-page" data-testid="night-page">
      <BioHeader patient={details.data} />
      <div className="night-layout">
        <SideTabs
          active={tab}
          disabled={new Set<Tab>(trend ? ['summary'] : [])}
          onSelect={(next) => goTo({ tab: next === 'overview' ? null : next })}
        />
        <div className="night-main">
          <NightBar
            tab={tab} trend={trend} night={night} nights={nights.data} previous={previous} next={next} onGo={go} goTo={goTo}
            sample={sample} annotator={annotator} onReport={() => setReporting(true)} onSample={() => setSampling(true)}
          />
          {imported?.patientId === patientId && <ImportResult result={imported.result} onDismiss={() => setImported(null)} />}
          <Suspense fallback={<p className="muted loading" role="status">{t('common.loading')}</p>}>
          {tab === 'details' ? (
            <PatientDetailsPanel patient={details.data} readOnly={annotator || sample} zone={night?.timezone ?? null} />
          ) : tab === 'summary' ? (
            <SummaryPanel patient={details.data} night={night} />
          ) : trend ? (
            <TrendView patient={details.data} nights={nights.data} preferences={preferences.data ?? null} />
          ) : night && !drawable ? (
            <NightTooLong night={night} />
          ) : night ? (
            <>
              <NightSessions night={night} />
              {listed && <NightRecordings night={listed} shown={night.recording_id} onShow={(id) => goTo({ night: String(listed.night), recording: id === listed.recording_id ? null : String(id) })} />}
              {/* Keyed by what a later file changes (channels, span, an ended night's channel versions), so a merged night is read afresh. */}
              <NightReview key={nightReviewKey(night)} patient={details.data} night={night} preferences={preferences.data ?? null} />
            </>
          ) : (
            <p className="muted" data-testid="no-nights">{t('night.noNights')}</p>
          )}
          </Suspense>
          {!trend && tab === 'overview' && !annotator && !sample && <ImportDetails patientId={patientId} open={!night} onImported={onImported} />}
        </div>
      </div>
      {night && annotator && !sample && (
        <AddToSampleDialog open={sampling} onClose={() => setSampling(false)} patientId={patientId} recordingId={night.recording_id} />
      )}
      {/* Mounted when asked for: its code (report form, tables) stays off a night's first paint. */}
      {night && !sample && reporting && (
        <Suspense fallback={null}>
          <NightReport open={reporting} onClose={() => setReporting(false)} patient={details.data} night={night} nights={nights.data} pdf={preferences.data?.is_annotator !== true} />
        </Suspense>
      )}
    </div>
  );
}

/**
 * What a night's screen is drawn from: its channels and span, and for an ended night each
 * channel's version (a session joined onto a channel keeps its code and may keep the span).
 * A live night's versions grow with every frame: its screen follows it without starting over.
 */
function nightReviewKey(night: NightInfo): string {
  const versions = night.live ? 'live' : night.channels.map((c) => c.version).join(',');
  return `${night.recording_id}-${night.channels.length}-${night.recording_start_time}-${night.recording_stop_time}-${versions}`;
}

/** The patient or their nights could not be loaded. */
function NightLoadError({ error }: { error: unknown }) {
  const { t } = useTranslation();
  return (
    <div className="page">
      <Alert tone="error" testId="night-error">
        {errorText(t, error)}
      </Alert>
    </div>
  );
}

/** The night as listed (another recording of it is shown from there), and the nights before and after it: what ‹ › step to. */
function neighbours(nights: NightInfo[], night: NightInfo | null) {
  const listed = night ? (nights.find((n) => n.night === night.night) ?? null) : null;
  const index = listed ? nights.indexOf(listed) : -1;
  const previous = index > 0 ? nights[index - 1]! : null;
  const next = index >= 0 && index < nights.length - 1 ? nights[index + 1]! : null;
  return { listed, previous, next };
}

/** The last import's result, above the night it opened until dismissed (for this patient only). */
function useImportResult(patientId: number, goTo: (changes: Record<string, string | null>) => void) {
  const [imported, setImported] = useState<{ patientId: number; result: UploadAnswer } | null>(null);
  const onImported = (result: UploadAnswer) => {
    setImported({ patientId, result });
    if ('night' in result) goTo({ night: String(result.night) });
  };
  return { imported, setImported, onImported };
}

/** Importing a recording for the patient, folded away once there is a night to show. */
function ImportDetails({ patientId, open, onImported }: { patientId: number; open: boolean; onImported(result: UploadAnswer): void }) {
  const { t } = useTranslation();
  return (
    <Folded className="import-details" open={open} summary={t('recordings.import.title')}>
      <ImportRecordingPanel patientId={patientId} invalidate={nightKeys.nights(patientId)} onImported={onImported} />
    </Folded>
  );
}

interface BarProps {
  tab: Tab;
  trend: boolean;
  night: NightInfo | null;
  nights: NightInfo[];
  previous: NightInfo | null;
  next: NightInfo | null;
  onGo(n: NightInfo | null): void;
  goTo(changes: Record<string, string | null>): void;
  sample: boolean;
  annotator: boolean;
  onReport(): void;
  onSample(): void;
}

/** The bar above the night: single night or trend, the night picker and its steps, the key help, report and add-to-sample. */
function NightBar({ tab, trend, night, nights, previous, next, onGo: go, goTo, sample, annotator, onReport, onSample }: BarProps) {
  const { t } = useTranslation();
  return (
    <div className="night-bar">
      {tab === 'overview' && (
        <div className="mode-switch" role="group" aria-label={t('night.mode.label')}>
          <button
            type="button"
            className={`chip${trend ? '' : ' active'}`}
            aria-pressed={!trend}
            onClick={() => goTo({ view: null })}
            data-testid="mode-single"
          >
            {t('night.mode.single')}
          </button>
          <button
            type="button"
            className={`chip${trend ? ' active' : ''}`}
            aria-pressed={trend}
            onClick={() => goTo({ view: 'trend', tab: null })}
            data-testid="mode-trend"
          >
            {t('night.mode.trend')}
          </button>
        </div>
      )}
      {night && !trend && tab !== 'details' && (
        <NightPicker
          nights={nights}
          value={night.night}
          onChange={(key) => goTo({ night: String(key) })}
        />
      )}
      {night && !trend && tab !== 'details' && (
        <NightSteps previous={previous} next={next} onGo={go} />
      )}
      {night && !trend && tab === 'overview' && <KeyHelp />}
      {night && !trend && tab !== 'details' && !sample && (
        <button type="button" className="button button-small" onClick={onReport} data-testid="generate-report">
          {t('report.generate')}
        </button>
      )}
      {night && !trend && annotator && !sample && (
        <button type="button" className="button button-small" onClick={onSample} data-testid="add-to-sample">
          {t('samples.add.button')}
        </button>
      )}
      {sample && <span className="sample-badge" data-testid="sample-badge">{t('samples.readOnly')}</span>}
    </div>
  );
}

/** ‹ › beside the night picker, and the N / P keys: the next and previous recorded night. */
function NightSteps({ previous, next, onGo }: { previous: NightInfo | null; next: NightInfo | null; onGo: (n: NightInfo | null) => void }) {
  const { t } = useTranslation();
  const latest = useRef({ previous, next, onGo });
  latest.current = { previous, next, onGo };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || isTextEntry(e.target) || document.querySelector('dialog[open]')) return;
      const k = e.key.toLowerCase();
      if (k !== 'n' && k !== 'p') return;
      e.preventDefault();
      const l = latest.current;
      l.onGo(k === 'n' ? l.next : l.previous);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return (
    <>
      <button type="button" className="button button-small" disabled={!previous} onClick={() => onGo(previous)} aria-label={t('night.nav.previousNight')} title={t('night.nav.previousNight')} data-testid="night-previous">
        ‹
      </button>
      <button type="button" className="button button-small" disabled={!next} onClick={() => onGo(next)} aria-label={t('night.nav.nextNight')} title={t('night.nav.nextNight')} data-testid="night-next">
        ›
      </button>
    </>
  );
}
