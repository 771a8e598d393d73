import type { Queryable } from '../db/adapter';
import type { RecordingRow } from '../recordings/store';
import { listChannels } from '../recordings/store';
import { deviceSummaryFor } from '../recordings/device-summaries';
import type { WindowStats } from '../../engine/types';
import { customizedIndex } from '../../engine/detect';
import type { EventsSource } from '../../contract/scoring-rounds';
import { adjudicatedRound } from '../scoring/repository';
import { consensusAhi, consensusEvents } from '../scoring/service';
import { indexFigures, lowestSpo2, recordedWeight, round2, sleepFigures, spo2Stats, stageLatencies, STATS_CODES } from './figures';
import { channelStatsOf } from './channelStats';
import { analysisOf } from './analyse';
import { bedTimesFrom } from './corrections';
import { hhmm } from './actigraphNight';
import type { AnalyticsSettings } from './settings';
import { labelsOfRecord } from './repository';

/** A channel's whole-night figures, 2 decimals, with the count of valid samples they are made of (0: every figure is "–", the sensor recorded no valid value). */
const figuresOf = (s: WindowStats) => ({ lowerPercentile: round2(s.p10), medianPercentile: round2(s.p50), upperPercentile: round2(s.p90), mean: round2(s.mean), min: round2(s.min), max: round2(s.max), count: s.count });

/** Percentiles of the vital channels over the night, from the stored whole-night statistics. */
function percentiles(stats: Map<string, WindowStats>) {
  const out: Record<string, { lowerPercentile: number | null; medianPercentile: number | null; upperPercentile: number | null; mean: number | null; min: number | null; max: number | null; count: number }> = {};
  for (const [code, s] of stats) {
    if (code !== 'weight' && code !== 'SPO2' && code !== 'SPO2_PSG') out[code] = figuresOf(s);
  }
  // The summary's SpO2 is the night's SpO2, an oximeter's or a PSG's (spo2Stats).
  const spo2 = spo2Stats(stats);
  if (spo2) out.SPO2 = figuresOf(spo2);
  return out;
}

/**
 * Why the ODI has a value or is "–": 'spo2' (counted on the oximeter's SpO2), 'no_spo2_channel'
 * (the night has no SpO2 channel), 'no_valid_spo2' (it has one, with no valid value in the
 * analysed time: a ResMed SA2 file without an oximeter attached, or an excluded span),
 * 'no_spo2_in_sleep' (valid SpO2, but during none of the staged sleep: the oximeter was worn
 * while awake) or 'no_monitoring_time' (valid SpO2, but no hour to count it per).
 */
function odiBasis(odi: number | null, codes: readonly string[], spo2: WindowStats | undefined, indexBasis: 'sleep' | 'monitoring'): 'spo2' | 'no_spo2_channel' | 'no_valid_spo2' | 'no_spo2_in_sleep' | 'no_monitoring_time' {
  if (odi !== null) return 'spo2';
  if (!codes.includes('SPO2') && !codes.includes('SPO2_PSG')) return 'no_spo2_channel';
  if (!spo2 || spo2.count === 0) return 'no_valid_spo2';
  return indexBasis === 'sleep' ? 'no_spo2_in_sleep' : 'no_monitoring_time';
}

/**
 * A night's KPI summary (spec 2 §3 "Summary KPI record"): one function for the Summary tab,
 * the KPI calls and the PDF report, so every place prints the same number.
 */
export async function nightSummary(db: Queryable, recording: RecordingRow, settings: AnalyticsSettings, paid: boolean) {
  const a = await analysisOf(db, recording, settings);
  const labels = await labelsOfRecord(db, recording.id);
  const zone = recording.timezone;
  const s = a.sleep;
  const channels = await listChannels(db, [recording.id]);
  const stats = await channelStatsOf(db, recording, channels.filter((c) => (STATS_CODES as readonly string[]).includes(c.code)));
  const sleep = sleepFigures(a, channels.map((c) => c.code));
  const index = indexFigures(a);
  // A night adjudicated by double scoring counts the consensus's apneas and hypopneas (decision 0989).
  const round = await adjudicatedRound(db, recording.id);
  const consensus = round === null ? null : await consensusEvents(db, recording, round);
  const eventsSource: EventsSource = consensus ? 'consensus' : 'automatic';
  const base = {
    night: recording.night_key,
    device_id: recording.device_id,
    breathing_source: a.breathingSource,
    rii: index.rii,
    rii_divisor: a.kpis.riiDivisor,
    // 'sleep': AHI/ODI per hour of sleep; 'monitoring': no sleep staging, per hour of monitoring (REI).
    index_basis: index.indexBasis,
    // 'no_breathing_signal': AHI and RII are null (an oximeter-only night), never 0.
    ahi_basis: index.ahiBasis,
    monitoring_time: index.monitoringH,
    // The hours AHI is per: sleep with a breathing signal (staged), else the monitoring time (decision 1033).
    ahi_hours: index.ahiHoursH,
    good_signal_duration: sleep.gsdH,
    total_breathing_time: sleep.tbrH,
    total_sleep_time: sleep.totalSleepH,
    // Why TST, SE, SOL and WASO are "–" when they are (no staging, no time in bed).
    sleep_basis: sleep.basis,
    total_bed_time: a.kpis.tbtH,
    sleep_efficiency: sleep.efficiency,
    sol: sleep.solMin,
    waso: sleep.wasoMin,
    // Minutes from sleep onset to the first deep, light and REM epoch (staging: device or hypnogram).
    latencies: stageLatencies(a),
    // The device's own summary of this night's day (ResMed STR.edf), or null.
    device_summary: await deviceSummaryFor(db, recording.patient_id, recording.night_key),
    bed_in_time: hhmm(s.bedInMs, zone),
    bed_out_time: hhmm(s.bedOutMs, zone),
    recorded_weight: recordedWeight(stats),
    lowest_spo2: lowestSpo2(stats),
    recording_start_time: recording.start_ms,
    recording_stop_time: recording.stop_ms,
    apneas: consensus?.apneas ?? a.kpis.apneas,
    hypopneas: consensus?.hypopneas ?? a.kpis.hypopneas,
    events_source: eventsSource,
    events_round_id: round,
    desaturations: a.kpis.desaturations,
    desaturation_rule: settings.desaturationRule,
    customized_index: customizedIndex(labels.map((l) => l.label)),
    percentiles: percentiles(stats),
    // Analysed under the physician's manual corrections (bed times, invalid spans); bed times
    // from the files' lights markers are the night's own, not a correction (decision 1023).
    corrected: bedTimesFrom(a.window) === 'correction' || (a.window?.invalid.length ?? 0) > 0,
    bed_times_from_lights: bedTimesFrom(a.window) === 'lights',
    // Nothing says when the patient went to bed (no correction, no lights markers, no in-bed
    // signal): the recording's own start and stop are the bed times, and the summary says so.
    bed_times_from_recording: bedTimesFrom(a.window) === 'recording' && !channels.some((c) => c.code === 'TB'),
  };
  // Spec 2 §1: paid memberships get no AHI or ODI automated items.
  const ahi = consensus ? consensusAhi(consensus.apneas + consensus.hypopneas, a) : index.ahi;
  return paid ? base : { ...base, ahi, odi: index.odi, odi_basis: odiBasis(index.odi, channels.map((c) => c.code), spo2Stats(stats), index.indexBasis), odi_hours: index.odiHoursH };
}

export type NightSummary = Awaited<ReturnType<typeof nightSummary>>;
