// The reports' "what was measured" section of a night (issue 31 point 9) and the trend's
// uncertainty table (point 8), drawn with the report's Writer; words in measured-texts.ts.
import { formatHours } from '../../engine/duration';
import { FEW_NIGHTS, indexSpread } from '../../contract/trendSpread';
import type { NightContent } from './content';
import { MEASURED_TEXTS } from './measured-texts';
import { fill } from './texts';
import { reportChannelName } from './names';
import type { Writer } from './writer';

const DASH = '–';

/** A night index as the report prints it: "–" with the reason when it has no basis. */
export function indexCell(w: Writer, value: number | null | undefined, basis: string | undefined): string {
  const m = MEASURED_TEXTS[w.content.language];
  const reason = { no_breathing_signal: m.noBreathing, no_breathing_signal_in_sleep: m.noBreathingInSleep }[basis ?? ''];
  if (reason && (value === null || value === undefined)) return `${DASH} (${reason})`;
  return w.n(value, 2);
}

/** The ODI, or "–" with why (no SpO2 channel, none valid, no monitoring time). */
export function odiCell(w: Writer, value: number | null | undefined, basis: string | undefined): string {
  const m = MEASURED_TEXTS[w.content.language];
  const reason = { no_spo2_channel: m.noSpo2Channel, no_valid_spo2: m.noValidSpo2, no_spo2_in_sleep: m.noSpo2InSleep, no_monitoring_time: m.noMonitoringTime }[basis ?? ''];
  return (value === null || value === undefined) && reason ? `${DASH} (${reason})` : w.n(value, 2);
}

/** A sleep figure (TST, SE, SOL, WASO) as the report prints it: `text`, or "–" with why the night has none. */
export function sleepCell(w: Writer, text: string | null, basis: string | undefined): string {
  if (text !== null) return text;
  const m = MEASURED_TEXTS[w.content.language];
  const reason = { no_staging: m.noStaging, no_bed_time: m.noBedTime, staging: m.noSleepScored }[basis ?? ''];
  return reason ? `${DASH} (${reason})` : DASH;
}

/** A figure that needs a channel the night may not have (GSD: SQB, TBR: BR): "–" with that reason when it is null. */
export function channelCell(w: Writer, value: number | null, missing: 'noSqbChannel' | 'noBrChannel'): string {
  return value === null ? `${DASH} (${MEASURED_TEXTS[w.content.language][missing]})` : formatHours(value);
}

/** Under a table of nights, the dates whose sleep figures are "–" for want of staging. */
export function noStagingNote(w: Writer, nights: readonly { date: string; summary: { sleep_basis: string } }[]): void {
  const dates = nights.filter((x) => x.summary.sleep_basis === 'no_staging').map((x) => x.date);
  if (dates.length > 0) w.note(fill(MEASURED_TEXTS[w.content.language].noStagingNights, { dates: dates.join(', ') }));
}

/**
 * Under the vitals table, why a row is all "–": the night has no such channel (`absent`), or
 * its sensor recorded no valid value (`empty`).
 */
export function vitalsNotes(w: Writer, absent: readonly string[], empty: readonly string[]): void {
  const m = MEASURED_TEXTS[w.content.language];
  if (absent.length > 0) w.note(fill(m.notRecorded, { channels: absent.join(', ') }));
  if (empty.length > 0) w.note(fill(m.noValidValue, { channels: empty.join(', ') }));
}

/** What the ODI is per (decision 1033): the time (or the sleep) with a valid SpO2, or why there is none. */
function odiNote(w: Writer, night: NightContent): string {
  const m = MEASURED_TEXTS[w.content.language];
  const s = night.summary;
  const basis = 'odi_basis' in s ? s.odi_basis : undefined;
  if (basis === 'no_spo2_in_sleep') return m.basisNoSpo2InSleep;
  const oximetry = night.measured?.oximetry;
  if (!oximetry) return basis === 'no_valid_spo2' ? m.basisNoValidOximetry : m.basisNoOximetry;
  const hours = 'odi_hours' in s && s.odi_hours !== undefined ? s.odi_hours : s.index_basis === 'sleep' ? s.total_sleep_time : s.monitoring_time;
  return fill(s.index_basis === 'sleep' ? m.basisOdiSleep : m.basisOdi, { rule: s.desaturation_rule, h: formatHours(hours), source: reportChannelName(w.content.language, oximetry) });
}

/** The basis of each index, the device's own counts and daily summary, and the agreement table. */
export function measuredSection(w: Writer, night: NightContent) {
  const m = MEASURED_TEXTS[w.content.language];
  const s = night.summary;
  const measured = night.measured;
  w.heading(m.measured, 11);
  if (s.ahi_basis === 'no_breathing_signal') w.note(m.basisNoBreathing);
  else if (s.ahi_basis === 'no_breathing_signal_in_sleep') w.note(m.basisNoBreathingInSleep);
  else if (s.index_basis === 'sleep') w.note(fill(m.basisAhiSleep, { h: formatHours(s.ahi_hours ?? s.total_sleep_time), tst: formatHours(s.total_sleep_time) }));
  else w.note(fill(m.basisAhiMonitoring, { h: formatHours(s.monitoring_time), source: s.breathing_source ? reportChannelName(w.content.language, s.breathing_source) : DASH }));
  w.note(odiNote(w, night));
  if (s.ahi_basis === 'breathing_signal') w.note(fill(m.basisRii, { divisor: s.rii_divisor }));
  if (!measured) return;
  if (measured.sessions.length > 1) {
    const zone = night.recording.timezone;
    const hm = (t: number) => new Date(t).toLocaleTimeString('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit' });
    const total = measured.sessions.reduce((sum, x) => sum + (x.end - x.start), 0);
    w.heading(fill(m.sessions, { n: measured.sessions.length, h: formatHours(total / 3_600_000) }), 10);
    w.table(
      [m.session, m.sessionStart, m.sessionEnd, m.sessionDuration, m.sessionFiles],
      measured.sessions.map((x, i) => [String(i + 1), hm(x.start), hm(x.end), formatHours((x.end - x.start) / 3_600_000), String(x.files.length)]),
      [0.1, 0.2, 0.2, 0.25, 0.25],
      8,
    );
    // The files in full, wrapped, under the table (a cell would cut them).
    measured.sessions.forEach((x, i) => w.note(`${i + 1}: ${x.files.join(', ')}`));
  }
  const d = measured.device;
  // A PSG's scoring file was scored by a person or a lab's software, not by a device.
  const scorer = d.scoredBy === 'scorer';
  w.heading(scorer ? m.scorer : m.device, 10);
  w.note(d.total > 0 ? fill(scorer ? m.scorerEvents : m.deviceEvents, { files: d.files.join(', '), apneas: d.apneas, hypopneas: d.hypopneas, total: d.total }) : m.noDeviceEvents);
  const day = s.device_summary;
  if (day) {
    w.note(fill(m.deviceDay, {
      file: day.file_name, day: day.day, ahi: w.n(day.ahi), hi: w.n(day.hi), ai: w.n(day.ai), oai: w.n(day.oai), cai: w.n(day.cai), uai: w.n(day.uai),
      usage: formatHours(day.usage_min === null ? null : day.usage_min / 60), sessions: day.mask_sessions.length,
    }));
  }
  const a = measured.agreement;
  if (a && 'notCompared' in a) w.note(fill(m.notCompared, { reason: a.notCompared === 'no_breathing_signal' ? m.noBreathing : m.noBreathingInSleep }));
  else if (a) {
    w.heading(fill(scorer ? m.scorerAgreement : m.agreement, { tol: a.toleranceS }), 10);
    w.table(
      [scorer ? m.scorerReference : m.reference, m.detected, m.matched, m.missed, m.extra, m.sensitivity, m.ppv],
      [[String(a.reference), String(a.detected), String(a.matched), String(a.missed), String(a.extra), w.n(a.sensitivity, 2), w.n(a.ppv, 2)]],
      [0.16, 0.16, 0.14, 0.13, 0.13, 0.14, 0.14],
      8,
    );
  }
}

/** The trend's indices over the chosen nights: mean, 95 % t-interval, SD, nights and the severity call. */
export function trendSpreadSection(w: Writer) {
  const m = MEASURED_TEXTS[w.content.language];
  const nights = w.content.nights;
  const paid = nights.length > 0 && !('ahi' in nights[0]!.summary);
  const rei = nights.some((x) => x.summary.index_basis === 'monitoring');
  const rows: Array<[string, Array<number | null>]> = [
    ...(paid ? [] : ([[rei ? `${w.t.ahi}/REI` : w.t.ahi, nights.map((x) => ('ahi' in x.summary ? x.summary.ahi : null))], [w.t.odi, nights.map((x) => ('odi' in x.summary ? x.summary.odi : null))]] as Array<[string, Array<number | null>]>)),
    [w.t.rii, nights.map((x) => x.summary.rii)],
  ];
  w.heading(m.spread, 11);
  w.table(
    [m.index, m.nightsCol, m.mean, m.ci, m.sd, m.severity],
    rows.map(([label, values]) => {
      const s = indexSpread(values);
      if (!s) return [label, '0', DASH, DASH, DASH, DASH];
      const flag = s.fewNights || s.severityUncertain ? ' *' : '';
      return [label, String(s.nights), w.n(s.mean, 2), s.ci95 ? `${w.n(s.ci95[0], 2)}–${w.n(s.ci95[1], 2)}` : DASH, w.n(s.sd, 2), `${m[s.severity]}${flag}`];
    }),
    [0.16, 0.1, 0.14, 0.24, 0.12, 0.24],
    8,
  );
  w.note(fill(m.spreadMethod, { few: FEW_NIGHTS }));
}
