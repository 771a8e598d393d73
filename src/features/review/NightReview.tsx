import { useEffect, useMemo, useState, type ComponentProps } from 'react';
import type { ChannelInfo } from '../../../engine/index';
import { useTranslation } from 'react-i18next';
import { countRender, markOnce } from '../../charts/gl/stats';
import { ChartSurface } from '../../charts/react/ChartSurface';
import { useChartsFramed } from '../../charts/react/useChartsFramed';
import { bandColor, type AnnotationBand, type ChartScreen } from '../../charts/screen';
import { incrementalMap } from '../annotations/incremental';
import type { Annotation } from '../annotations/model';
import { NightAnnotations } from '../annotations/NightAnnotations';
import { ARTEFACT_CODE, move, overviewCodes, startingChoices, toPreference, type ChannelChoice } from '../night/channels';
import { useOverviews, type OverviewSource } from '../night/overviews';
import { ChannelSelector } from '../night/ChannelSelector';
import { ChartStack } from '../night/ChartStack';
import { NightContext, type NightContextValue } from '../night/context';
import { GraphToolbar } from '../night/GraphToolbar';
import { Navigator } from '../night/Navigator';
import { useSaveOrder } from '../night/queries';
import type { NightInfo, PatientInfo, PhysicianPreferences } from '../night/types';
import { useNightChannels } from '../night/useNightChannels';
import { useSignalApi } from '../night/useSignalApi';
import { nightDomain } from '../night/preload';
import { parseVitalParameters } from '../night/vitals';
import { WindowView } from '../night/WindowView';
import { NightDownloads } from '../night/NightDownloads';
import { NightCorrectionsPanel } from '../night/NightCorrections';
import { RealTimeLink } from '../live/RealTimeLink';
import { DoubleScoringPanel } from '../scoring/DoubleScoringPanel';
import { useOverviewPreview } from './useOverviewPreview';
import { readItem, writeItem } from '../../state/storage';

/** Layout choices of the review screen, remembered in this browser. */
interface ReviewLayout {
  channels: boolean;
  annotations: boolean;
  fit: boolean;
}
const LAYOUT_KEY = 'nocturne.reviewLayout';
function loadLayout(): ReviewLayout {
  try {
    return { channels: true, annotations: true, fit: false, ...(JSON.parse(readItem('localStorage', LAYOUT_KEY) ?? '{}') as Partial<ReviewLayout>) };
  } catch {
    // A corrupt entry: the defaults.
    return { channels: true, annotations: true, fit: false };
  }
}

/** The review layout, remembered in this browser as it changes. */
function useReviewLayout() {
  const [layout, setLayoutState] = useState<ReviewLayout>(loadLayout);
  const setLayout = (l: ReviewLayout) => {
    setLayoutState(l);
    writeItem('localStorage', LAYOUT_KEY, JSON.stringify(l));
  };
  return [layout, setLayout] as const;
}

/** The night's channels, in order, shown or not; a reorder is saved as the physician's preference at once. */
function useChannelChoices(night: NightInfo, preferences: PhysicianPreferences | null) {
  const [choices, setChoices] = useState<ChannelChoice[]>(() => startingChoices(night, preferences));
  const save = useSaveOrder();
  const persist = (next: ChannelChoice[]) => {
    setChoices(next);
    save.mutate(toPreference(next));
  };
  const reorder = (from: string, to: string) => {
    const i = choices.findIndex((c) => c.code === from);
    const j = choices.findIndex((c) => c.code === to);
    persist(move(choices, i, j));
  };
  const toggle = (code: string) => setChoices(choices.map((c) => (c.code === code ? { ...c, visible: !c.visible } : c)));
  return { choices, save, reorder, toggle };
}

/** Show/hide the channel and annotation panels, and the fit-to-screen montage. */
function LayoutBar({ layout, onChange }: { layout: ReviewLayout; onChange: (l: ReviewLayout) => void }) {
  const { t } = useTranslation();
  const flip = (k: keyof ReviewLayout) => onChange({ ...layout, [k]: !layout[k] });
  return (
    <div className="layout-bar" role="group" aria-label={t('night.layout.label')}>
      <button type="button" className="chip" aria-expanded={layout.channels} onClick={() => flip('channels')} data-testid="layout-channels">{t('night.layout.channels')}</button>
      <button type="button" className="chip" aria-expanded={layout.annotations} onClick={() => flip('annotations')} data-testid="layout-annotations">{t('night.layout.annotations')}</button>
      <button
        type="button"
        className="chip"
        aria-pressed={layout.fit}
        onClick={() => {
          flip('fit');
          // Fitted, the charts fill the screen below the navigator once it is stuck under the header: scrolled there.
          if (!layout.fit) requestAnimationFrame(() => requestAnimationFrame(scrollToNavigator));
        }}
        data-testid="layout-fit"
      >
        {t('night.toolbar.fit')}
      </button>
    </div>
  );
}

/** Scrolls the page until the night's navigator sits just under the app's header (where it sticks). */
function scrollToNavigator(): void {
  const navigator = document.querySelector('[data-testid="navigator"]');
  if (!navigator) return;
  const header = parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--header-height')) || 0;
  const by = navigator.getBoundingClientRect().top - header;
  if (by > 1) window.scrollBy({ top: by });
}

/** Detector annotations name a KPI, not a channel: draw them on the signals they come from. */
const KPI_CHANNELS: Record<string, string[]> = { AP_timing: ['Y_DIST', 'NC_PSG', 'BR'], DSAT: ['SPO2', 'SPO2_PSG'] };
const bandChannels = (kpis: readonly string[]) => kpis.flatMap((k) => KPI_CHANNELS[k] ?? [k]);
/** Band colours by annotation colour: a night's 10,000 annotations have a dozen. */
const bandColors = new Map<string, ReturnType<typeof bandColor>>();
const colorOf = (hex: string) => bandColors.get(hex) ?? bandColors.set(hex, bandColor(hex)).get(hex)!;

/** An annotation as the renderer draws it. */
const toBand = (a: Annotation): AnnotationBand => ({ startMs: a.start_ms, endMs: a.end_ms, color: colorOf(a.color_code), codes: bandChannels(a.kpiList), style: a.type === 'device' ? 'device' : 'band' });

/** User-timing mark of the annotation column's first fill on a page. */
const ANNOTATIONS_SHOWN_MARK = 'nocturne:annotations-shown';

/**
 * The night's annotations beside the charts, their visible ones drawn as bands: each band is
 * made once per annotation object, so a write hands the renderer a list in which only the
 * changed annotations' bands are new (and only their layers are written again).
 */
function ScreenAnnotations({ screen, ...props }: Omit<ComponentProps<typeof NightAnnotations>, 'view' | 'onVisible'> & { screen: ChartScreen }) {
  // On a page's first night the column is filled after the first chart frame (decision 1018):
  // its grid track is fixed, so the charts do not move when it fills.
  const framed = useChartsFramed();
  const onVisible = useMemo(() => {
    // One band per annotation object, kept while the object lives: a kind hidden and shown again draws the same bands.
    const made = new WeakMap<Annotation, AnnotationBand>();
    const bands = incrementalMap((a: Annotation) => made.get(a) ?? made.set(a, toBand(a)).get(a)!);
    return (list: readonly Annotation[]) => screen.setAnnotations(bands(list));
  }, [screen]);
  useEffect(() => {
    // Read by the e2e test: when the column filled, against the first chart frame.
    if (framed) markOnce(ANNOTATIONS_SHOWN_MARK);
  }, [framed]);
  if (!framed) return <div className="annotation-column" aria-busy="true" />;
  return <NightAnnotations {...props} view={screen.view} onVisible={onVisible} />;
}

/** The night's first frames are drawn without waiting for a WebGL context (issue 14 point 7). */
const FIRST_PAINT_IN_2D = { glAfterFirstPaint: true } as const;

/** Channels the overview strip prefers, in order. */
const OVERVIEW_PREFERENCE = ['SLP_STGS', 'BR', 'HR', 'PR', 'SPO2', 'MOV'];

/** One night of one patient: channel selector, toolbar, chart stack or window view, navigator. */
export function NightReview({ patient, night, preferences }: { patient: PatientInfo; night: NightInfo; preferences: PhysicianPreferences | null }) {
  countRender('NightReview');
  const { t } = useTranslation();
  const { api, error } = useSignalApi();
  const { choices, save, reorder, toggle } = useChannelChoices(night, preferences);
  const { infos: loadedInfos, loading, nightRef, loader } = useNightChannels(patient.patient_id, night, choices);
  const { source, onPreview, infos, provisional } = useOverviewPreview({ api, loader, patientId: patient.patient_id, night, nightRef, loadedInfos });
  const vitals = useMemo(() => parseVitalParameters(patient.vital_parameters), [patient.vital_parameters]);
  const domain = useMemo(() => nightDomain(night), [night]);

  const [layout, setLayout] = useReviewLayout();

  if (error) return <p className="error-text" role="alert">{t('night.engineFailed')}</p>;

  const context: NightContextValue = { api, night, nightRef, vitals, infos, loading, provisional };
  const visible = choices.filter((c) => c.visible).map((c) => c.code);
  // Drawn from its full-night overview too while the channel loads (its window is the charts' own at full night).
  const overviewCode = [...OVERVIEW_PREFERENCE, ...visible].find((c) => infos[c]) ?? null;
  const inNight = new Set(night.channels.map((c) => c.code));
  const previewCodes = overviewCodes(visible, inNight).filter((c) => !(c in loadedInfos));
  const annotatable = night.channels.map((c) => c.code);

  return (
    <NightContext.Provider value={context}>
      {/* One row of secondary controls (panels, downloads, real time): the first chart stays above the fold at 1280 × 800. */}
      <div className="night-tools">
        <LayoutBar layout={layout} onChange={setLayout} />
        {preferences?.is_annotator !== true && <NightDownloads patientId={patient.patient_id} night={night} />}
        {preferences?.is_annotator !== true && <RealTimeLink patientId={patient.patient_id} deviceId={patient.device_id} />}
      </div>
      {layout.channels && (
        <ChannelSelector
          choices={choices}
          disabled={loading.size > 0}
          onToggle={toggle}
          onMove={reorder}
          onSave={async () => {
            await save.mutateAsync(toPreference(choices));
          }}
        />
      )}
      <ChartSurface key={nightRef} source={source} domain={domain} options={FIRST_PAINT_IN_2D}>
        {(screen) => (
          <>
            {/* A sample patient's night is read-only and carries no corrections. */}
            {/* One row while both are closed, so the first chart stays above the fold. */}
            {!patient.is_sample_patient && (
              <div className="night-panels">
                <NightCorrectionsPanel patientId={patient.patient_id} night={night} screen={screen} />
                <DoubleScoringPanel patientId={patient.patient_id} night={night} screen={screen} isAnnotator={preferences?.is_annotator === true} />
              </div>
            )}
            <div className={`night-body${layout.annotations ? '' : ' annotations-hidden'}`}>
              {/* Busy while channels of the charts shown still load (the charts draw their overviews meanwhile). */}
              <div className="night-charts" aria-busy={loading.size > 0}>
                <Charts screen={screen} visible={visible} overviewCode={overviewCode} artefactsAvailable={Boolean(loadedInfos[ARTEFACT_CODE])} onReorder={reorder} fit={layout.fit} />
                <OverviewRequests screen={screen} source={source} night={nightRef} codes={previewCodes} onInfos={onPreview} />
              </div>
              <ScreenAnnotations
                screen={screen}
                night={{ patientId: patient.patient_id, night: night.night, recordingId: night.recording_id, startMs: night.recording_start_time, stopMs: night.recording_stop_time, timezone: night.timezone }}
                channels={annotatable}
                shownCharts={visible}
                readOnly={patient.is_sample_patient}
              />
            </div>
          </>
        )}
      </ChartSurface>
    </NightContext.Provider>
  );
}

/** Asks for the overviews of the charts' channels still loading (renders nothing). */
function OverviewRequests({ screen, source, night, codes, onInfos }: { screen: ChartScreen; source: OverviewSource; night: string; codes: readonly string[]; onInfos: (infos: Record<string, ChannelInfo>) => void }) {
  useOverviews(screen, source, night, codes, onInfos);
  return null;
}

function Charts({ screen, visible, overviewCode, artefactsAvailable, onReorder, fit }: {
  fit: boolean;
  screen: ChartScreen;
  visible: string[];
  overviewCode: string | null;
  artefactsAvailable: boolean;
  onReorder: (from: string, to: string) => void;
}) {
  const [thresholds, setThresholds] = useState(false);
  const [artefacts, setArtefacts] = useState(false);
  const [windowCode, setWindowCode] = useState<string | null>(null);
  useEffect(() => {
    screen.setFlags({ thresholds, artefacts });
  }, [screen, thresholds, artefacts, windowCode, visible.join(',')]);
  return (
    <>
      <Navigator screen={screen} overviewCode={overviewCode} />
      <GraphToolbar
        screen={screen}
        thresholds={thresholds}
        artefacts={artefacts}
        artefactsAvailable={artefactsAvailable}
        onThresholds={setThresholds}
        onArtefacts={setArtefacts}
      />
      {windowCode ? (
        <WindowView screen={screen} code={windowCode} thresholds={thresholds} onClose={() => setWindowCode(null)} />
      ) : (
        <ChartStack screen={screen} codes={visible} thresholds={thresholds} onReorder={onReorder} onWindowView={setWindowCode} fit={fit} />
      )}
    </>
  );
}
