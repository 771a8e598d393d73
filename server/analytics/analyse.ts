import type { Queryable } from '../db/adapter';
import { DETECTOR_VERSION, type NightAnalysis, type NightInput } from '../../engine/detect';
import { ENGINE_VERSION } from '../../engine/index';
import { isLiveRecording, listChannels, loadSamples, type RecordingRow } from '../recordings/store';
import { onEngine } from '../services/engine-pool';
import { nightInputOf, storedChannel, type AnalyseTask, type StoredChannel } from '../services/engine-work';
import type { AnalyticsSettings } from './settings';
import { correctionState, CURRENT_REV_SQL } from './corrections';
import type { AnalysisWindow } from '../../engine/detect';
import { trendIndices, type TrendIndices } from './figures';
import { liveCached, liveProgress } from './liveCache';
import { actigraphNight, type ActigraphNight } from './actigraphNight';

const INPUTS = ['SPO2', 'SPO2_PSG', 'Y_DIST', 'NC_PSG', 'THRX_PSG', 'ABD_PSG', 'SQB', 'SLP_STGS', 'SA', 'TB', 'BR', 'MOV'] as const;

/** The night's stored channels the detectors read, with its settings and the physician's corrections (window) when it has any. */
async function analyseTask(db: Queryable, recording: RecordingRow, settings: AnalyticsSettings, window: AnalysisWindow | null): Promise<AnalyseTask> {
  const channels: StoredChannel[] = [];
  for (const c of await listChannels(db, [recording.id])) {
    if ((INPUTS as readonly string[]).includes(c.code)) channels.push(storedChannel(c, await loadSamples(db, c)));
  }
  return {
    kind: 'analyse',
    startMs: Number(recording.start_ms),
    stopMs: Number(recording.stop_ms),
    channels,
    desaturationRule: settings.desaturationRule,
    riiDivisor: settings.riiDivisor,
    window,
  };
}

/** The night's channels as the detectors read them, with the physician's corrections (window) when it has any. */
export async function nightInput(db: Queryable, recording: RecordingRow, settings: AnalyticsSettings, window: AnalysisWindow | null = null): Promise<NightInput> {
  return nightInputOf(await analyseTask(db, recording, settings, window));
}

/** The engine's analysis of a night as it is stored now, in a worker thread (503 engine_busy when the pool is full). */
function analyse(db: Queryable, recording: RecordingRow, settings: AnalyticsSettings, window: AnalysisWindow | null): Promise<NightAnalysis> {
  return onEngine(() => analyseTask(db, recording, settings, window));
}

/**
 * The version a cached analysis was computed with: the WASM engine's and the detectors'.
 * A new detector version makes every cached analysis stale, so old nights are rescored.
 */
export const ANALYSIS_VERSION = `${ENGINE_VERSION}+detect${DETECTOR_VERSION}`;

/** The key of an analysis's settings in night_analyses.params. */
export const analysisParams = (settings: AnalyticsSettings) => `dsat${settings.desaturationRule}-rii${settings.riiDivisor}`;

/**
 * The analysis of a night under the physician's settings and the night's manual corrections:
 * computed by the engine's detectors once, then read from night_analyses (the samples never
 * change once stored; a correction or its undo empties the night's rows).
 */
export async function analysisOf(db: Queryable, recording: RecordingRow, settings: AnalyticsSettings): Promise<NightAnalysis> {
  const params = analysisParams(settings);
  // A live night still grows: kept in this process by its committed samples (liveCache.ts), stored once it has ended.
  if (isLiveRecording(recording)) {
    const { samples, rev } = await liveProgress(db, recording.id);
    return liveCached(`analysis|${recording.id}|${params}`, samples, rev, async () => analyse(db, recording, settings, (await correctionState(db, recording)).window));
  }
  const [cached] = await db.query<{ result: NightAnalysis }>('select result from night_analyses where recording_id = $1 and params = $2 and engine_version = $3', [recording.id, params, ANALYSIS_VERSION]);
  if (cached) return cached.result;
  const state = await correctionState(db, recording);
  const result = await analyse(db, recording, settings, state.window);
  // Stored only while the corrections are still those it was computed from.
  await db.query(
    `insert into night_analyses (recording_id, params, engine_version, result, kpis, indices, actigraph) select $1, $2, $3, $4, $6, $7, $8 ${CURRENT_REV_SQL('$1', '$5')}
     on conflict (recording_id, params) do update set engine_version = excluded.engine_version, result = excluded.result,
       kpis = excluded.kpis, indices = excluded.indices, actigraph = excluded.actigraph, computed_at = now()`,
    [
      recording.id,
      params,
      ANALYSIS_VERSION,
      JSON.stringify(result),
      state.rev,
      JSON.stringify(result.kpis),
      JSON.stringify(trendIndices(result)),
      JSON.stringify(await actigraphNight(db, recording, result)),
    ],
  );
  return result;
}

/**
 * The stored trend indices of ended nights under the settings, in one query: a night without
 * a current stored analysis is absent (the caller analyses it with analysisOf). Rows stored
 * before the indices existed get them from their stored result, once.
 */
export async function storedIndices(db: Queryable, recordingIds: readonly number[], settings: AnalyticsSettings): Promise<Map<number, TrendIndices>> {
  const out = new Map<number, TrendIndices>();
  if (recordingIds.length === 0) return out;
  const params = analysisParams(settings);
  const rows = await db.query<{ recording_id: number; indices: TrendIndices | null; result: NightAnalysis | null }>(
    `select recording_id, indices, case when indices is null then result end as result
     from night_analyses where recording_id = any($1::int[]) and params = $2 and engine_version = $3`,
    [recordingIds, params, ANALYSIS_VERSION],
  );
  for (const r of rows) {
    let indices = r.indices;
    if (indices === null && r.result) {
      indices = trendIndices(r.result);
      await db.query('update night_analyses set indices = $4, kpis = coalesce(kpis, $5) where recording_id = $1 and params = $2 and engine_version = $3', [
        r.recording_id,
        params,
        ANALYSIS_VERSION,
        JSON.stringify(indices),
        JSON.stringify(r.result.kpis),
      ]);
    }
    if (indices) out.set(Number(r.recording_id), indices);
  }
  return out;
}

/**
 * The stored actigraphs of nights under the settings, in one query (migration 062): a night
 * without a current stored analysis, or analysed before the actigraph was stored, is absent.
 */
export async function storedActigraphs(db: Queryable, recordingIds: readonly number[], settings: AnalyticsSettings): Promise<Map<number, ActigraphNight>> {
  if (recordingIds.length === 0) return new Map();
  const rows = await db.query<{ recording_id: number; actigraph: ActigraphNight }>(
    'select recording_id, actigraph from night_analyses where recording_id = any($1::int[]) and params = $2 and engine_version = $3 and actigraph is not null',
    [recordingIds, analysisParams(settings), ANALYSIS_VERSION],
  );
  return new Map(rows.map((r) => [Number(r.recording_id), r.actigraph]));
}

/**
 * A night's actigraph when none is stored: made from its analysis, and stored with that analysis
 * when the night has ended (a row stored before migration 062 gets it once). A live night's is
 * made from its kept analysis (liveCache.ts) and never stored.
 */
export async function actigraphOf(db: Queryable, recording: RecordingRow, settings: AnalyticsSettings): Promise<ActigraphNight> {
  const night = await actigraphNight(db, recording, await analysisOf(db, recording, settings));
  if (!isLiveRecording(recording)) {
    await db.query('update night_analyses set actigraph = $4 where recording_id = $1 and params = $2 and engine_version = $3 and actigraph is null', [
      recording.id,
      analysisParams(settings),
      ANALYSIS_VERSION,
      JSON.stringify(night),
    ]);
  }
  return night;
}
