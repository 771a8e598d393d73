import { DateTime } from 'luxon';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { errorText } from '../../api/messages';
import { Alert } from '../../ui/Alert';
import { formatNightDate } from '../../charts/core/format';
import { ChannelSelector } from '../night/ChannelSelector';
import { move, orderChannels, toPreference, type ChannelChoice } from '../night/channels';
import type { NightInfo, PatientInfo, PhysicianPreferences } from '../night/types';
import { bandsOf, parseVitalParameters } from '../night/vitals';
import { SPEC_UNIT_KEYS } from '../night/units';
import { useSaveTrendOrder, useTrendPoints } from './api';
import {
  accountAgeDays, customSpanError, datesOf, DEVICE_AHI, isValuePoint, noNightIn, offeredChannels, offeredDurations, pageWindow, presetSpan,
  spanUpToNight, trendSince, zoomTo, type DateSpan, type DayWindow, type Duration,
} from './model';
import { TrendChart } from './TrendChart';
import { ActigraphView } from './ActigraphView';
import { Dialog } from '../../ui/Dialog';
import { ReportForm } from '../reports/ReportForm';
import '../../styles/trend.css';
import { displayUnit } from '../../../contract/vital-units';

/** Channels with threshold bands from the patient's vital parameters. */
const BAND_KIND: Record<string, 'br' | 'pr' | 'spo2'> = { BR: 'br', PR: 'pr', SPO2: 'spo2' };

/** Units the night's channel list does not carry (spec 2 §9 tooltip units), and the indices'. */
const UNIT_KEYS: Record<string, 'night.units.bp' | 'night.units.bloodSugar' | 'night.units.bodyTemp' | 'trend.units.perHour' | 'trend.units.percent'> = {
  ...SPEC_UNIT_KEYS,
  AHI: 'trend.units.perHour', ODI: 'trend.units.perHour', RII: 'trend.units.perHour', SE: 'trend.units.percent', SQ: 'trend.units.percent',
};

/** The span of days shown: a duration preset ending today, or custom from and to (checked against the account's age). */
function useTrendSpan(patient: PatientInfo, nights: readonly NightInfo[]) {
  const zone = nights.at(-1)?.timezone || DateTime.local().zoneName || 'UTC';
  const today = DateTime.now().setZone(zone).toISODate()!;
  const account = patient.createdAt ? DateTime.fromISO(patient.createdAt).setZone(zone).toISODate()! : today;
  const created = trendSince(account, nights.map((n) => n.night));
  const durations = offeredDurations(accountAgeDays(created, today));
  const [duration, setDuration] = useState<Duration>(durations[0]!);
  const yesterday = DateTime.fromISO(today).minus({ days: 1 }).toISODate()!;
  const [custom, setCustom] = useState<DateSpan>(() => ({
    from: DateTime.max(DateTime.fromISO(created), DateTime.fromISO(yesterday).minus({ days: 6 })).toISODate()!,
    to: yesterday,
  }));
  const customError = duration === 'custom' ? customSpanError(custom, created, today) : null;
  const span: DateSpan | null = duration === 'custom' ? (customError ? null : custom) : presetSpan(duration, today);
  return { zone, today, created, yesterday, durations, duration, setDuration, custom, setCustom, customError, span };
}

/** The duration dropdown and the from and to calendars (open only for a custom span); `onChange` wraps each change. */
function SpanFields({ choice, onChange }: { choice: ReturnType<typeof useTrendSpan>; onChange(change: () => void): void }) {
  const { t } = useTranslation();
  const { created, yesterday, durations, duration, setDuration, custom, setCustom, span } = choice;
  return (
    <>
      <label className="field-inline">
        <span>{t('trend.duration')}</span>
        <select value={duration} onChange={(e) => onChange(() => setDuration(e.target.value as Duration))} data-testid="trend-duration">
          {durations.map((d) => <option key={d} value={d}>{t(`trend.durations.${d}`)}</option>)}
        </select>
      </label>
      <label className="field-inline">
        <span>{t('trend.from')}</span>
        <input
          type="date"
          value={span?.from ?? custom.from}
          min={created}
          max={yesterday}
          disabled={duration !== 'custom'}
          onChange={(e) => onChange(() => setCustom({ ...custom, from: e.target.value }))}
          data-testid="trend-from"
        />
      </label>
      <label className="field-inline">
        <span>{t('trend.to')}</span>
        <input
          type="date"
          value={span?.to ?? custom.to}
          min={created}
          max={yesterday}
          disabled={duration !== 'custom'}
          onChange={(e) => onChange(() => setCustom({ ...custom, to: e.target.value }))}
          data-testid="trend-to"
        />
      </label>
    </>
  );
}

/** Paging a zoomed window back and forward over the span's `days`, the days shown, and Reset Zoom. */
function ZoomPager({ hidden, zoom, view, days, onZoom }: { hidden: boolean; zoom: DayWindow | null; view: DayWindow; days: number; onZoom(zoom: DayWindow | null): void }) {
  const { t } = useTranslation();
  return (
    <div className="trend-zoom" hidden={hidden}>
      <button type="button" className="button button-small" aria-label={t('trend.pageBack')} disabled={!zoom || view.first === 0}
        onClick={() => onZoom(pageWindow(view, -1, days))} data-testid="trend-page-back">‹</button>
      <span className="muted" data-testid="trend-days">{t('trend.days', { count: view.last - view.first + 1 })}</span>
      <button type="button" className="button button-small" aria-label={t('trend.pageForward')} disabled={!zoom || view.last >= days - 1}
        onClick={() => onZoom(pageWindow(view, 1, days))} data-testid="trend-page-forward">›</button>
      <button type="button" className="button button-small" disabled={!zoom} onClick={() => onZoom(null)} data-testid="trend-reset-zoom">
        {t('trend.resetZoom')}
      </button>
    </div>
  );
}

/** A channel's unit: the spec's or an index's, Nocturne's for a vital (decision 1044), else the one the nights' channel list carries ('' for none). */
function channelUnit(t: TFunction, nights: readonly NightInfo[], code: string): string {
  const key = UNIT_KEYS[code];
  if (key) return t(key);
  return displayUnit(code, nights.flatMap((n) => n.channels).find((c) => c.code === code)?.unit ?? '');
}

/** The report dialog of the trend view, the span's nights checked. */
function TrendReport({ open, onClose, patient, nights, span }: { open: boolean; onClose(): void; patient: PatientInfo; nights: readonly NightInfo[]; span: DateSpan | null }) {
  const { t } = useTranslation();
  // Night keys are the evening's UTC date.
  const nightDateOf = (n: NightInfo) => new Date(n.night * 1000).toISOString().slice(0, 10);
  const spanNights = span ? nights.filter((n) => nightDateOf(n) >= span.from && nightDateOf(n) <= span.to) : [];
  return (
    <Dialog
      open={open}
      title={t('reports.trendTitle')}
      onClose={onClose}
      testId="trend-report-dialog"
      actions={<button type="button" className="button" onClick={onClose}>{t('common.close')}</button>}
    >
      <ReportForm patientId={patient.patient_id} patientCode={patient.patient_code} view="trend" nights={nights} checked={spanNights.map((n) => n.night)} />
    </Dialog>
  );
}

/**
 * Why the dates show nothing: a refused custom span, or dates that hold none of the patient's
 * nights (a preset ends yesterday; an imported night may be months old), said with the last
 * night's date and the two weeks up to it.
 */
function SpanNotices({ nights, choice, onChange }: { nights: readonly NightInfo[]; choice: ReturnType<typeof useTrendSpan>; onChange(change: () => void): void }) {
  const { t, i18n } = useTranslation();
  if (choice.customError) return <Alert tone="error" testId="trend-span-error">{t(`trend.errors.${choice.customError}`)}</Alert>;
  const keys = nights.map((n) => n.night);
  if (!choice.span || keys.length === 0 || !noNightIn(choice.span, keys)) return null;
  const last = Math.max(...keys);
  const show = () => onChange(() => {
    choice.setCustom(spanUpToNight(last, choice.created, choice.today));
    choice.setDuration('custom');
  });
  return (
    <Alert tone="info" testId="trend-no-night-in-span">
      {t('trend.noNightInSpan', { date: formatNightDate(last, i18n.language) })}{' '}
      <button type="button" className="button button-small" onClick={show} data-testid="trend-show-last-night">{t('trend.showUpToLastNight')}</button>
    </Alert>
  );
}

/**
 * The Trend view of the Overview tab (spec 2 §2): a duration dropdown with from and to
 * calendars, a channel selector, and one chart of per-night box plots (or index values)
 * per channel, zoomed together by dragging and reset with Reset Zoom.
 */
export function TrendView({ patient, nights, preferences }: {
  patient: PatientInfo;
  nights: readonly NightInfo[];
  preferences: PhysicianPreferences | null;
}) {
  const { t } = useTranslation();
  const spanChoice = useTrendSpan(patient, nights);
  const { zone, span } = spanChoice;

  const paid = preferences?.membership_type === 'paid';
  const signalCodes = useMemo(() => new Set(nights.flatMap((n) => n.channels.map((c) => c.code))), [nights]);
  const offered = useMemo(() => offeredChannels(signalCodes, nights.length > 0, paid), [signalCodes, nights.length, paid]);
  // Unsaved channels start as in the single-night view: on, but weight (spec 2 §4).
  const [choices, setChoices] = useState<ChannelChoice[]>(() => orderChannels(offered, preferences?.trendview_kpi_order_preference));
  const save = useSaveTrendOrder();
  // The device's own AHI (device summaries) is asked with AHI and drawn in its chart.
  const asked = useMemo(() => (offered.includes('AHI') ? [...offered, DEVICE_AHI] : offered), [offered]);
  const points = useTrendPoints(patient.patient_id, asked, span, zone);
  const vitals = useMemo(() => parseVitalParameters(patient.vital_parameters), [patient.vital_parameters]);

  const dates = useMemo(() => (span ? datesOf(span) : []), [span?.from, span?.to]);
  const [zoom, setZoom] = useState<DayWindow | null>(null);
  // Offered when the nights carry sleep-awake data (spec 2 §2): SA, or sleep staging (a device's or an imported hypnogram's).
  const hasActigraph = signalCodes.has('SA') || signalCodes.has('SLP_STGS');
  const [actigraph, setActigraph] = useState(false);
  const [reporting, setReporting] = useState(false);
  const view: DayWindow = zoom && zoom.last < dates.length ? zoom : { first: 0, last: Math.max(0, dates.length - 1) };
  const changeSpan = (next: () => void) => {
    next();
    setZoom(null);
  };

  return (
    <div className="trend-view" data-testid="trend-view">
      <div className="trend-controls">
        <SpanFields choice={spanChoice} onChange={changeSpan} />
        {hasActigraph && (
          <button type="button" className={`chip${actigraph ? ' active' : ''}`} aria-pressed={actigraph} onClick={() => setActigraph(!actigraph)} data-testid="actigraph-toggle">
            {t('trend.actigraph.toggle')}
          </button>
        )}
        {preferences?.is_annotator !== true && !patient.is_sample_patient && nights.length > 0 && (
          <button type="button" className="button button-small" onClick={() => setReporting(true)} data-testid="trend-generate-report">
            {t('report.generate')}
          </button>
        )}
        <ZoomPager hidden={actigraph} zoom={zoom} view={view} days={dates.length} onZoom={setZoom} />
      </div>
      <TrendReport open={reporting} onClose={() => setReporting(false)} patient={patient} nights={nights} span={span} />
      <SpanNotices nights={nights} choice={spanChoice} onChange={changeSpan} />
      {actigraph && span && <ActigraphView patientId={patient.patient_id} span={span} />}
      {!actigraph && (<>
      <ChannelSelector
        choices={choices}
        disabled={points.isFetching}
        onToggle={(code) => setChoices(choices.map((c) => (c.code === code ? { ...c, visible: !c.visible } : c)))}
        onMove={(from, to) => setChoices(move(choices, choices.findIndex((c) => c.code === from), choices.findIndex((c) => c.code === to)))}
        onSave={async () => {
          await save.mutateAsync(toPreference(choices));
        }}
      />
      {points.isError && <Alert tone="error" testId="trend-error">{errorText(t, points.error)}</Alert>}
      {/* isLoading, not isPending: a query that cannot run (no channels, no nights) must not wait for ever. */}
      {span && points.isLoading && <p className="muted loading" role="status">{t('common.loading')}</p>}
      {nights.length === 0 && <p className="muted" data-testid="trend-no-nights">{t('night.noNights')}</p>}
      {span && points.data && (
        <p className="muted" data-testid="trend-hint">{t('trend.zoomHint')}</p>
      )}
      {span && points.data && choices.filter((c) => c.visible).map((c) => (
        <TrendChart
          key={c.code}
          code={c.code}
          unit={channelUnit(t, nights, c.code)}
          bands={BAND_KIND[c.code] ? bandsOf(BAND_KIND[c.code]!, vitals) : undefined}
          points={points.data.points[c.code] ?? []}
          noBasis={points.data.noBasis[c.code] ?? []}
          device={c.code === 'AHI' ? (points.data.points[DEVICE_AHI] ?? []).filter(isValuePoint) : undefined}
          dates={dates}
          window={view}
          onZoom={(a, b) => setZoom(zoomTo(a, b, dates.length))}
        />
      ))}
      </>)}
    </div>
  );
}
