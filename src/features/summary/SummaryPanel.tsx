import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { NightSummary } from '../../../contract/analytics';
import type { DeviceSummaryDay } from '../../../contract/deviceSummaries';
import { call } from '../../api/client';
import { errorText } from '../../api/messages';
import { formatClock, formatValue } from '../../charts/core/format';
import { formatHours as hours } from '../../../engine/duration';
import { Alert } from '../../ui/Alert';
import type { NightInfo, PatientInfo } from '../night/types';
import '../../styles/summary.css';
import { AgreementTables } from './AgreementTables';
import { HistoryTables } from './HistoryTables';
import { categoryName } from '../../builtInNames';
import { ahiBasisReason } from './basis';
import { VITAL_UNITS } from '../../../contract/vital-units';

/** POST /analytics/patient/all-kpi-summary (spec 2 §3 "Summary KPI record"). */
export type { NightSummary };

/** The reason beside an ODI of "–". */
const ODI_REASONS = { no_spo2_channel: 'nightBasis.noSpo2Channel', no_valid_spo2: 'nightBasis.noValidSpo2', no_spo2_in_sleep: 'nightBasis.noSpo2InSleep', no_monitoring_time: 'nightBasis.noMonitoringTime' } as const;

/**
 * The vital tables in the spec's table order (HR is the radar's pulse rate), each with its
 * figures' unit (decision 1044: the PDF's too; the radar's movement has none).
 */
const VITAL_TABLES = [
  ['BR', 'summary.tables.breathingRate', VITAL_UNITS.BR],
  ['HR', 'summary.tables.pulseRateRadar', VITAL_UNITS.HR],
  ['MOV', 'summary.tables.bodyMovement', ''],
  ['SPO2', 'summary.tables.spo2', VITAL_UNITS.SPO2],
  ['PR', 'summary.tables.pulseRate', VITAL_UNITS.PR],
] as const;

function Table({ title, rows, testId, note }: { title: string; rows: Array<[string, string]>; testId: string; note?: string }) {
  return (
    <section className="summary-table" data-testid={testId}>
      <h4>{title}</h4>
      {note && <p className="muted summary-note" data-testid={`${testId}-note`}>{note}</p>}
      <table>
        <tbody>
          {rows.map(([label, value]) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              <td className={value.startsWith('– (') ? 'summary-reason' : undefined}>{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** The night's KPI summary (POST /analytics/patient/all-kpi-summary). */
export function useNightSummary(patientId: number, night: NightInfo | null) {
  return useQuery({
    queryKey: ['patient', patientId, 'summary', night?.night],
    queryFn: async ({ signal }) => (await call('POST /analytics/patient/all-kpi-summary', { body: { patient_id: patientId, night: night!.night } }, { signal })).data,
    enabled: night !== null,
  });
}

/**
 * The Summary tab (spec 2 §2): the selected night's tables — recording, recorded weight,
 * RII, AHI and ODI (not for paid memberships), customized index, the vital channels'
 * statistics and the histories of symptoms, medication and diet plan — or the no-summary
 * message when the patient has no night.
 */
export function SummaryPanel({ patient, night }: { patient: PatientInfo; night: NightInfo | null }) {
  const { t } = useTranslation();
  const summary = useNightSummary(patient.patient_id, night);
  if (!night) return <p className="muted" data-testid="no-summary">{t('summary.none')}</p>;
  if (summary.isError) return <Alert tone="error" testId="summary-error">{errorText(t, summary.error)}</Alert>;
  if (!summary.data) return <p className="muted loading" role="status">{t('common.loading')}</p>;
  return (
    <>
      <SummaryTables night={night} summary={summary.data} />
      <HistoryTables patientId={patient.patient_id} night={night} />
      <AgreementTables patientId={patient.patient_id} night={night} />
    </>
  );
}

/** The device's own summary of the night's day (ResMed STR.edf): its AHI and indices, usage, mask on/off. */
function DeviceSummaryTable({ day, zone }: { day: DeviceSummaryDay; zone: string }) {
  const { t, i18n } = useTranslation();
  const n = (v: number | null) => (v === null ? '–' : formatValue(v, 1, i18n.language));
  return (
    <Table
      title={t('nightBasis.deviceTable', { file: day.file_name, day: day.day })}
      testId="summary-device"
      rows={[
        [t('nightBasis.deviceAhi'), n(day.ahi)],
        [t('nightBasis.hi'), n(day.hi)],
        [t('nightBasis.ai'), n(day.ai)],
        [t('nightBasis.oai'), n(day.oai)],
        [t('nightBasis.cai'), n(day.cai)],
        [t('nightBasis.uai'), n(day.uai)],
        [t('nightBasis.usage'), hours(day.usage_min === null ? null : day.usage_min / 60)],
        [t('nightBasis.maskSessions'), day.mask_sessions.map((m) => `${formatClock(m.on_ms, zone)}–${formatClock(m.off_ms, zone)}`).join(', ') || '–'],
      ]}
    />
  );
}

/** The summary's tables (the Summary tab and the night report). */
export function SummaryTables({ night, summary: s }: { night: NightInfo; summary: NightSummary }) {
  const { t, i18n } = useTranslation();
  const zone = night.timezone;
  const n = (v: number | null | undefined, digits = 1) => (v === null || v === undefined ? '–' : formatValue(v, digits, i18n.language));
  // Without sleep staging the indices are per hour of monitoring: say so (REI).
  const rei = s.index_basis === 'monitoring';
  // No breathing signal (or none during the sleep): AHI/REI and RII are "–" with the reason, never 0.
  const noBasis = ahiBasisReason(s.ahi_basis);
  const indexValue = (v: number | null | undefined) => (noBasis && (v === null || v === undefined) ? `– (${t(noBasis)})` : n(v, 2));
  // The hours an index is per, shown when they are not the headline's (TST, or the monitoring time):
  // the breathing sensor or the oximeter was off for part of the sleep (decision 1033).
  const shortOf = (h: number | null | undefined, of: number | null) => h !== null && h !== undefined && of !== null && h > 0 && Math.abs(h - of) >= 1 / 3600;
  const ahiHoursRow: Array<[string, string]> = !rei && !noBasis && shortOf(s.ahi_hours, s.total_sleep_time) ? [[t('nightBasis.ahiHours'), hours(s.ahi_hours)]] : [];
  const odiOf = rei ? s.monitoring_time : s.total_sleep_time;
  const odiHoursRow: Array<[string, string]> = s.odi !== null && s.odi !== undefined && shortOf(s.odi_hours, odiOf) ? [[t(rei ? 'nightBasis.odiHoursMonitoring' : 'nightBasis.odiHours'), hours(s.odi_hours)]] : [];
  const odiReason = s.odi === null && s.odi_basis && s.odi_basis !== 'spo2' ? ODI_REASONS[s.odi_basis] : null;
  const noOdi = odiReason !== null;
  const odiValue = odiReason ? `– (${t(odiReason)})` : n(s.odi, 2);
  // A count beside an index with no basis is no count: nothing could be scored, so "–" (its reason on the index's row), not 0.
  const count = (v: number, none: boolean) => (none ? '–' : String(v));
  const latencies = s.latencies && Object.values(s.latencies).some((v) => v !== null) ? s.latencies : null;
  return (
    <div className="summary-panel" data-testid="summary-panel">
      <RecordingTable night={night} summary={s} />
      {latencies && (
        <Table
          title={t('nightBasis.latencies')}
          testId="summary-latencies"
          rows={([['nightBasis.latencyDeep', latencies.deep], ['nightBasis.latencyLight', latencies.light], ['nightBasis.latencyRem', latencies.rem]] as const).map(
            ([key, v]) => [t(key), v === null ? '–' : t('summary.minutes', { count: v })] as [string, string],
          )}
        />
      )}
      {s.device_summary && s.ahi !== undefined && <DeviceSummaryTable day={s.device_summary} zone={zone} />}
      {s.recorded_weight !== null && (
        <Table title={t('summary.tables.weight')} testId="summary-weight" rows={[[t('summary.fields.weight'), `${n(s.recorded_weight)} kg`]]} />
      )}
      <Table
        title={t('summary.tables.rii')}
        testId="summary-rii"
        note={s.ahi_basis === 'no_breathing_signal' ? t(s.odi_basis === 'spo2' ? 'nightBasis.noBreathingNote' : 'nightBasis.noBreathingNoSpo2Note') : s.ahi_basis === 'no_breathing_signal_in_sleep' ? t('nightBasis.noBreathingInSleepNote') : undefined}
        rows={[[t('summary.fields.rii'), indexValue(s.rii)], [t('summary.fields.riiDivisor'), t(`profile.rii.${s.rii_divisor}` as 'profile.rii.TBT', { defaultValue: s.rii_divisor })]]}
      />
      {s.ahi !== undefined && (
        <Table
          title={rei ? t('scoring.reiTable') : t('summary.tables.ahi')}
          testId="summary-ahi"
          note={s.events_source === 'consensus' ? t('summary.eventsFromConsensus') : s.ahi_basis === 'no_breathing_signal_in_sleep' ? t('nightBasis.noBreathingInSleepNote') : undefined}
          rows={[
            [rei ? t('scoring.rei') : t('summary.fields.ahi'), indexValue(s.ahi)],
            [t('summary.fields.apneas'), count(s.apneas, !!noBasis)],
            [t('summary.fields.hypopneas'), count(s.hypopneas, !!noBasis)],
            ...(rei ? [[t('scoring.monitoringTime'), hours(s.monitoring_time)] as [string, string]] : []),
            ...ahiHoursRow,
          ]}
        />
      )}
      {s.odi !== undefined && (
        <Table
          title={t('summary.tables.odi')}
          testId="summary-odi"
          rows={[[rei ? t('scoring.odiMonitoring') : t('summary.fields.odi'), odiValue], [t('summary.fields.desaturations'), count(s.desaturations, noOdi)], [t('summary.fields.rule'), `${s.desaturation_rule} %`], ...odiHoursRow]}
        />
      )}
      {/* Annotations counted by category (spec 2 §3), not the detector's events: said in the title and the note, so
          "Apnea 0" here beside the AHI/REI table's apneas reads as two facts, not one number twice. */}
      <Table
        title={t('summary.tables.customizedIndexAnnotations')}
        testId="summary-customized"
        note={s.ahi === undefined ? t('summary.customizedNoteAlone') : t('summary.customizedNote', { table: rei ? t('scoring.reiTable') : t('summary.tables.ahi') })}
        rows={Object.entries(s.customized_index).map(([label, count]) => [t('summary.annotatedLabel', { label: categoryName(t, { label })! }), String(count)])}
      />
      <VitalTables summary={s} />
    </div>
  );
}

/** Why the sleep figures are "–" when they are (SOL alone: staged, but no sleep scored). */
const SLEEP_REASONS = { no_staging: 'nightBasis.noStaging', no_bed_time: 'nightBasis.noBedTime', staging: 'nightBasis.noSleepScored' } as const;

/**
 * Start, stop, bed times, bed and sleep time, efficiency, latency, WASO, signal and breathing
 * time; a figure the night cannot give is "–" with the reason (no sleep staging, no time in bed,
 * no sleep scored, no quality or breathing-rate channel), never a bare dash.
 */
function RecordingTable({ night, summary: s }: { night: NightInfo; summary: NightSummary }) {
  const { t, i18n } = useTranslation();
  const zone = night.timezone;
  const n = (v: number | null | undefined, digits = 1) => (v === null || v === undefined ? '–' : formatValue(v, digits, i18n.language));
  const why = (key: (typeof SLEEP_REASONS)[keyof typeof SLEEP_REASONS] | 'nightBasis.noSqbChannel' | 'nightBasis.noBrChannel') => `– (${t(key)})`;
  // TST, SE and WASO are null exactly when the night has no staging or no time in bed; SOL also when no sleep was scored.
  const sleep = (v: number | null, text: (v: number) => string) => (v !== null ? text(v) : why(SLEEP_REASONS[s.sleep_basis]));
  return (
    <Table
      title={t('summary.tables.recording')}
      testId="summary-recording"
      note={s.corrected ? t('summary.correctedNote') : s.bed_times_from_lights ? t('summary.lightsNote') : s.bed_times_from_recording ? t('summary.recordingBedNote') : undefined}
      rows={[
        [t('summary.fields.start'), formatClock(s.recording_start_time, zone)],
        [t('summary.fields.stop'), formatClock(s.recording_stop_time, zone)],
        [t('summary.fields.bedIn'), s.bed_in_time ?? '--:--'],
        [t('summary.fields.bedOut'), s.bed_out_time ?? '--:--'],
        [t('summary.fields.totalBedTime'), hours(s.total_bed_time)],
        [t('summary.fields.totalSleepTime'), sleep(s.total_sleep_time, hours)],
        [t('summary.fields.sleepEfficiency'), sleep(s.sleep_efficiency, (v) => `${n(v)} %`)],
        [t('summary.fields.sol'), sleep(s.sol, (v) => t('summary.minutes', { count: v }))],
        [t('summary.fields.waso'), sleep(s.waso, (v) => t('summary.minutes', { count: v }))],
        // null exactly when the night has no such channel (contract/analytics.ts).
        [t('summary.fields.goodSignal'), s.good_signal_duration === null ? why('nightBasis.noSqbChannel') : hours(s.good_signal_duration)],
        [t('summary.fields.breathingTime'), s.total_breathing_time === null ? why('nightBasis.noBrChannel') : hours(s.total_breathing_time)],
      ]}
    />
  );
}

/** One table of percentiles per vital the night has; a sensor without a valid value says so. */
function VitalTables({ summary: s }: { summary: NightSummary }) {
  const { t, i18n } = useTranslation();
  const n = (v: number | null | undefined) => (v === null || v === undefined ? '–' : formatValue(v, 1, i18n.language));
  return (
    <>
      {VITAL_TABLES.filter(([code]) => s.percentiles[code]).map(([code, key, unit]) => {
        const v = s.percentiles[code]!;
        return (
          <Table
            key={code}
            title={unit ? t('summary.tables.withUnit', { title: t(key), unit }) : t(key)}
            testId={`summary-${code}`}
            note={v.count === 0 ? t('summary.noValidValueNote') : undefined}
            rows={[
              [t('summary.fields.median'), n(v.medianPercentile)],
              [t('summary.fields.p10'), n(v.lowerPercentile)],
              [t('summary.fields.p90'), n(v.upperPercentile)],
              [t('summary.fields.mean'), n(v.mean)],
              [t('summary.fields.min'), n(v.min)],
              [t('summary.fields.max'), n(v.max)],
            ]}
          />
        );
      })}
    </>
  );
}
