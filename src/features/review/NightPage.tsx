import { useTranslation } from 'react-i18next';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { isTextEntry } from '../../ui/keys';
import { KeyHelp } from '../night/KeyHelp';
import { useLocation, useSearch } from 'wouter';
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
import type { ImportedNight } from '../recordings/api';
import { NightRecordings, NightSessions, NightTooLong, nightTooLong } from '../recordings/NightSessions';
import { SideTabs, TABS, type Tab } from '../night/SideTabs';
import type { NightInfo } from '../night/types';
import { pickNight, prefetchNight } from '../night/preload';
import { getSignalEngine } from '../../../workers/client';
import { AddToSampleDialog } from '../samples/AddToSampleDialog';
import { useNightSeen } from '../dashboard/api';

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
  const [, navigate] = useLocation();
  const search = new URLSearchParams(useSearch());
  const requested = search.has('night') ? Number(search.get('night')) : null;
  const requestedRecording = search.has('recording') ? Number(search.get('recording')) : null;
  const trend = search.get('view') === 'trend';
  const requestedTab = search.get('tab') as Tab | null;
  const tab: Tab = requestedTab && (TABS as readonly string[]).includes(requestedTab) && !(trend && requestedTab === 'summary') ? requestedTab : 'overview';
  /** The screen's URL with these query values (null drops one). */
  const urlWith = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(search);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null) next.delete(k);
      else next.set(k, v);
    }
    const q = next.toString();
    return `/app/patients/id=${patientId}${q ? `?${q}` : ''}`;
  };
  const [reporting, setReporting] = useState(false);
  // The last import's result, above the night it opened until dismissed (for this patient only).
  const [imported, setImported] = useState<{ patientId: number; result: ImportedNight } | null>(null);
  const onImported = (result: ImportedNight) => {
    setImported({ patientId, result });
    if (result.night !== undefined) navigate(urlWith({ night: String(result.night) }), { replace: true });
  };
  const [sampling, setSampling] = useState(false);
  // The engine's workers start with the screen, beside its first queries, not after them
  // (a failed start is reported where the engine is used: NightReview). The charts' WebGL
  // context is made after their first frame, drawn in 2D (RendererOptions.glAfterFirstPaint).
  useEffect(() => {
    void getSignalEngine().catch(() => undefined);
  }, []);
  const details = usePatientDetails(patientId);
  const nights = useNights(patientId);
  const preferences = usePreferences();
  const seen = useNightSeen();
  const shownRecording = nights.data && preferences.data && !trend && tab === 'overview' ? (pickNight(nights.data, requested, requestedRecording)?.recording_id ?? null) : null;
  const physician = preferences.data?.is_annotator === false && details.data?.is_sample_patient === false;
  // A night whose review screen the physician opened is seen (issue 32.4); annotators' views do not count.
  useEffect(() => {
    if (shownRecording !== null && physician) seen.mutate({ patient_id: patientId, recording_id: shownRecording });
  }, [shownRecording, physician, patientId]);

  if (details.isError || nights.isError) {
    return (
      <div className="page">
        <Alert tone="error" testId="night-error">
          {errorText(t, details.error ?? nights.error)}
        </Alert>
      </div>
    );
  }
  if (!details.data || !nights.data || preferences.isPending) {
    return <p className="muted loading" role="status">{t('common.loading')}</p>;
  }
  const night = pickNight(nights.data, requested, requestedRecording);
  // The night as listed (another recording of it is shown from there): what ‹ › step from.
  const listed = night ? (nights.data.find((n) => n.night === night.night) ?? null) : null;
  const drawable = night !== null && !nightTooLong(night);
  if (night && drawable && !trend && tab === 'overview') prefetchNight(patientId, night, preferences.data ?? null);
  const index = listed ? nights.data.indexOf(listed) : -1;
  const previous = index > 0 ? nights.data[index - 1]! : null;
  const next = index >= 0 && index < nights.data.length - 1 ? nights.data[index + 1]! : null;
  const go = (n: NightInfo | null) => n && navigate(urlWith({ night: String(n.night), recording: null }), { replace: true });
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
          onSelect={(next) => navigate(urlWith({ tab: next === 'overview' ? null : next }), { replace: true })}
        />
        <div className="night-main">
          <div className="night-bar">
            {tab === 'overview' && (
              <div className="mode-switch" role="group" aria-label={t('night.mode.label')}>
                <button
                  type="button"
                  className={`chip${trend ? '' : ' active'}`}
                  aria-pressed={!trend}
                  onClick={() => navigate(urlWith({ view: null }), { replace: true })}
                  data-testid="mode-single"
                >
                  {t('night.mode.single')}
                </button>
                <button
                  type="button"
                  className={`chip${trend ? ' active' : ''}`}
                  aria-pressed={trend}
                  onClick={() => navigate(urlWith({ view: 'trend', tab: null }), { replace: true })}
                  data-testid="mode-trend"
                >
                  {t('night.mode.trend')}
                </button>
              </div>
            )}
            {night && !trend && tab !== 'details' && (
              <NightPicker
                nights={nights.data}
                value={night.night}
                onChange={(key) => navigate(urlWith({ night: String(key) }), { replace: true })}
              />
            )}
            {night && !trend && tab !== 'details' && (
              <NightSteps previous={previous} next={next} onGo={go} />
            )}
            {night && !trend && tab === 'overview' && <KeyHelp />}
            {night && !trend && tab !== 'details' && !sample && (
              <button type="button" className="button button-small" onClick={() => setReporting(true)} data-testid="generate-report">
                {t('report.generate')}
              </button>
            )}
            {night && !trend && annotator && !sample && (
              <button type="button" className="button button-small" onClick={() => setSampling(true)} data-testid="add-to-sample">
                {t('samples.add.button')}
              </button>
            )}
            {sample && <span className="sample-badge" data-testid="sample-badge">{t('samples.readOnly')}</span>}
          </div>
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
              {listed && <NightRecordings night={listed} shown={night.recording_id} onShow={(id) => navigate(urlWith({ night: String(listed.night), recording: id === listed.recording_id ? null : String(id) }), { replace: true })} />}
              {/* Keyed by what a later file changes (channels, span), so a merged night is read afresh. */}
              <NightReview key={`${night.recording_id}-${night.channels.length}-${night.recording_start_time}-${night.recording_stop_time}`} patient={details.data} night={night} preferences={preferences.data ?? null} />
            </>
          ) : (
            <p className="muted" data-testid="no-nights">{t('night.noNights')}</p>
          )}
          </Suspense>
          {!trend && tab === 'overview' && !annotator && !sample && (
            <details className="import-details" open={!night}>
              <summary>{t('recordings.import.title')}</summary>
              <ImportRecordingPanel patientId={patientId} invalidate={nightKeys.nights(patientId)} onImported={onImported} />
            </details>
          )}
        </div>
      </div>
      {night && annotator && !sample && (
        <AddToSampleDialog open={sampling} onClose={() => setSampling(false)} patientId={patientId} recordingId={night.recording_id} />
      )}
      {night && !sample && (
        <Suspense fallback={null}>
          <NightReport open={reporting} onClose={() => setReporting(false)} patient={details.data} night={night} nights={nights.data} pdf={preferences.data?.is_annotator !== true} />
        </Suspense>
      )}
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
