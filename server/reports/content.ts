// The report's content (the provider's "process KPIs" and "create content" steps): every
// figure from the same server functions as the Summary (nightSummary), charts as the
// engine's downsampled views (min/max per column). Nothing is invented: a value the night
// does not have stays null and prints "–".
import { hz, ms, px } from '../../engine/index';
import type { Queryable } from '../db/adapter';
import { analyticsSettings } from '../analytics/settings';
import { ANALYSIS_VERSION, analysisOf, analysisParams } from '../analytics/analyse';
import { nightSummary, type NightSummary } from '../analytics/summary';
import { listChannels, listRecordings, loadSamples, type ChannelRow, type RecordingRow } from '../recordings/store';
import { nightDate } from '../recordings/night-key';
import { scratchNight, serverEngine } from '../services/engine';
import type { ReportLanguage, ReportType } from '../../contract/report-types';
import { listCorrections, windowOf } from '../analytics/corrections';
import { viewOf } from '../../contract/report-types';
import { measuredOf, type MeasuredContent } from './measured-content';
import { reportCategoryName, reportComment } from './names';

/** Columns of a chart's view (the chart's width in PDF points). */
const CHART_COLUMNS = 480;

/** An engine view reduced to what a chart draws: min and max per column (null: no valid sample). */
export interface ChartView {
  t0: number;
  t1: number;
  min: Array<number | null>;
  max: Array<number | null>;
}

interface ReportAnnotation {
  startMs: number;
  endMs: number;
  label: string;
  kpi: string;
  comment: string;
}

/** A manual correction in force on the night (the figures follow it). */
interface ReportCorrection {
  kind: 'bed_times' | 'invalid_span';
  startMs: number;
  endMs: number;
  reason: string;
  by: string;
}

export interface NightContent {
  date: string;
  recording: Pick<RecordingRow, 'id' | 'night_key' | 'device_id' | 'timezone' | 'start_ms' | 'stop_ms'>;
  /** Files the night was imported from (0 for a night a Nocturne device recorded). */
  fileCount: number;
  summary: NightSummary;
  spo2: ChartView | null;
  hypnogram: ChartView | null;
  annotations: ReportAnnotation[];
  /** Corrections in force (the newest bed times, the invalid spans not undone) and the spans they leave out. */
  corrections: ReportCorrection[];
  excluded: Array<{ startMs: number; endMs: number }>;
  /** Night reports: the device's counts and the agreement (measured-content.ts). */
  measured?: MeasuredContent;
}

export interface ReportContent {
  type: ReportType;
  view: 'single' | 'trend';
  language: ReportLanguage;
  version: number;
  patient: { code: string; name: string };
  practice: string;
  generatedAt: number;
  nights: NightContent[];
}

export interface ReportRequest {
  patientId: number;
  practiceId: number;
  type: ReportType;
  language: ReportLanguage;
  version: number;
  paid: boolean;
  /** Night keys (Unix seconds) of the checked dates. */
  dates: number[];
}

/** The engine's view of one channel over the night: loaded into a scratch night, viewed, freed. */
async function channelView(db: Queryable, recording: RecordingRow, channel: ChannelRow): Promise<ChartView> {
  const engine = await serverEngine();
  const name = scratchNight(`report-${recording.id}`);
  try {
    engine.load({ night: name, code: channel.code, samples: await loadSamples(db, channel), sampleRateHz: hz(channel.sample_rate), t0Ms: ms(channel.t0_ms), scale: channel.scale, offset: channel.offset_value, missingCodes: channel.missing_codes });
    const v = engine.view({ night: name, code: channel.code }, ms(recording.start_ms), ms(recording.stop_ms), px(CHART_COLUMNS));
    const keep = (x: number) => (Number.isFinite(x) ? Math.round(x * 100) / 100 : null);
    return { t0: recording.start_ms, t1: recording.stop_ms, min: Array.from(v.min, keep), max: Array.from(v.max, keep) };
  } finally {
    engine.close(name);
  }
}

/** Process KPIs: the nights' analyses (computed once, then read from night_analyses). */
export async function processKpis(db: Queryable, req: ReportRequest): Promise<RecordingRow[]> {
  const wanted = new Set(req.dates);
  const nights = (await listRecordings(db, req.patientId)).filter((r) => wanted.has(r.night_key)).sort((a, b) => a.night_key - b.night_key);
  const settings = await analyticsSettings(db, req.practiceId);
  // Only nights without a stored analysis are analysed here; stored ones are read once, by the summary.
  const stored = new Set(
    (await db.query<{ recording_id: number }>('select recording_id from night_analyses where recording_id = any($1::int[]) and params = $2 and engine_version = $3', [nights.map((n) => n.id), analysisParams(settings), ANALYSIS_VERSION])).map((r) => Number(r.recording_id)),
  );
  for (const night of nights) if (!stored.has(night.id)) await analysisOf(db, night, settings);
  return nights;
}

/** Create content: the summary of each night, and for night reports its charts and annotations. */
export async function createContent(db: Queryable, req: ReportRequest, nights: RecordingRow[]): Promise<ReportContent> {
  const [patient] = await db.query<{ patient_code: string; first_name: string; last_name: string }>('select patient_code, first_name, last_name from patients where id = $1', [req.patientId]);
  if (!patient) throw new Error('The patient no longer exists.');
  const [practice] = await db.query<{ name: string | null; first_name: string; last_name: string }>(
    'select o.name, u.first_name, u.last_name from users u left join organisations o on o.id = u.organisation_id where u.id = $1',
    [req.practiceId],
  );
  const settings = await analyticsSettings(db, req.practiceId);
  const view = viewOf(req.type);
  const out: NightContent[] = [];
  for (const r of nights) {
    const summary = await nightSummary(db, r, settings, req.paid);
    let spo2: ChartView | null = null;
    let hypnogram: ChartView | null = null;
    let annotations: ReportAnnotation[] = [];
    let measured: MeasuredContent | undefined;
    if (view === 'single') {
      const channels = await listChannels(db, [r.id]);
      measured = await measuredOf(db, r, await analysisOf(db, r, settings), channels.map((c) => c.code));
      const sp = channels.find((c) => c.code === 'SPO2') ?? channels.find((c) => c.code === 'SPO2_PSG');
      if (sp) spo2 = await channelView(db, r, sp);
      const st = channels.find((c) => c.code === 'SLP_STGS');
      if (st) hypnogram = await channelView(db, r, st);
      annotations = (
        await db.query<{ start_ms: string | number; end_ms: string | number; label: string | null; category_type: string | null; kpi: string; comment: string }>(
          `select a.start_ms, a.end_ms, c.label, c.type as category_type, a.kpi, a.comment from annotations a left join annotation_categories c on c.label_id = a.label
           where a.recording_id = $1 and a.delete_flag = 0 and a.type in ('custom', 'system-edit') and a.scoring_round_id is null order by a.start_ms, a.annotation_map_id`,
          [r.id],
        )
      ).map((a) => ({ startMs: Number(a.start_ms), endMs: Number(a.end_ms), label: a.label === null ? '–' : reportCategoryName(req.language, { label: a.label, type: a.category_type }), kpi: a.kpi, comment: reportComment(req.language, a.comment) }));
    }
    const rows = await listCorrections(db, r.id);
    const bed = rows.filter((c) => c.kind === 'bed_times' && c.undone_at === null).at(-1);
    const corrections = rows
      .filter((c) => c.undone_at === null && (c.kind === 'invalid_span' || c === bed))
      .map((c) => ({ kind: c.kind, startMs: c.start_ms, endMs: c.end_ms, reason: c.reason, by: c.created_by_name }));
    const w = windowOf(r, rows);
    const excluded = w
      ? [{ startMs: Number(r.start_ms), endMs: w.bedInMs }, ...w.invalid.map((b) => ({ startMs: b.from, endMs: b.to })), { startMs: w.bedOutMs, endMs: Number(r.stop_ms) }].filter((b) => b.endMs > b.startMs)
      : [];
    const [files] = await db.query<{ n: number }>('select count(*)::int as n from recording_files where recording_id = $1', [r.id]);
    out.push({ date: nightDate(r.night_key), recording: r, fileCount: files?.n ?? 0, summary, spo2, hypnogram, annotations, corrections, excluded, ...(measured ? { measured } : {}) });
  }
  const practiceName = practice?.name?.trim() || [practice?.first_name, practice?.last_name].filter(Boolean).join(' ') || '–';
  return {
    type: req.type,
    view,
    language: req.language,
    version: req.version,
    patient: { code: patient.patient_code, name: [patient.first_name, patient.last_name].filter(Boolean).join(' ') },
    practice: practiceName,
    generatedAt: Date.now(),
    nights: out,
  };
}
