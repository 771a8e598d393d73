// The engine's CPU-heavy work on a night, given samples already read from the database: the
// one protocol module both sides of the engine pool import (engine-pool.ts on the event loop,
// engine-worker.ts in the worker threads). The same functions run inline when there is no pool
// (ENGINE_POOL=0), so a figure never depends on where it was computed.
import { hz, ms, px, type WindowStats } from '../../engine/index';
import { analyseNight, excludedIndexRanges, toSeries, type AnalysisWindow, type NightAnalysis, type NightInput } from '../../engine/detect';
import { mapStages, STAGES_CODE } from '../../engine/stages';
import { encodeView } from '../../engine/viewWire';
import { scratchNight, serverEngine } from './engine';
import { ownsBuffer } from './buffers';

/** A channel's samples as stored (int16 or float32 with scale/offset) and how to read them. */
export interface StoredChannel {
  code: string;
  samples: Int16Array | Float32Array;
  sampleRate: number;
  t0Ms: number;
  scale: number;
  offset: number;
  missingCodes: readonly number[];
}

/** The fields of a stored channel's row (recordings/store.ts ChannelRow) that say how to read its samples. */
interface ChannelRowScale {
  code: string;
  sample_rate: number;
  t0_ms: number;
  scale: number;
  offset_value: number;
  missing_codes: number[];
}

/** A channel row's samples with how to read them. */
export function storedChannel(row: ChannelRowScale, samples: Int16Array | Float32Array): StoredChannel {
  return { code: row.code, samples, sampleRate: row.sample_rate, t0Ms: Number(row.t0_ms), scale: row.scale, offset: row.offset_value, missingCodes: row.missing_codes };
}

/** A night's analysis: the detectors' channels as stored, and the settings and corrections. */
export interface AnalyseTask {
  kind: 'analyse';
  startMs: number;
  stopMs: number;
  /** In the order the database lists them (a later channel of the same code wins, as before). */
  channels: StoredChannel[];
  desaturationRule: NonNullable<NightInput['desaturationRule']>;
  riiDivisor: NonNullable<NightInput['riiDivisor']>;
  window: AnalysisWindow | null;
}

/** Whole-night statistics of channels over [fromMs, toMs), with the corrections' window (if any) read as missing outside it. */
interface StatsTask {
  kind: 'stats';
  label: string;
  channels: StoredChannel[];
  fromMs: number;
  toMs: number;
  window: AnalysisWindow | null;
}

/** The encoded M4 view (engine/viewWire.ts) of [t0Ms, t1Ms) in `pixels` columns of one channel. */
interface OverviewTask {
  kind: 'overview';
  label: string;
  channel: StoredChannel;
  t0Ms: number;
  t1Ms: number;
  pixels: number;
}

export type EngineTask = AnalyseTask | StatsTask | OverviewTask;

/** What each task answers. */
export interface EngineResults {
  analyse: NightAnalysis;
  stats: [code: string, stats: WindowStats][];
  overview: Uint8Array;
}

export type EngineResult<T extends EngineTask> = EngineResults[T['kind']];

/** The stored channels a night's detectors read, as the engine's Series. */
export function nightInputOf(task: AnalyseTask): NightInput {
  const channels: NightInput['channels'] = {};
  for (const c of task.channels) {
    channels[c.code as keyof NightInput['channels']] = toSeries(c.code, c.samples, c.sampleRate, c.t0Ms, c.scale, c.offset, c.missingCodes);
  }
  return {
    startMs: task.startMs,
    stopMs: task.stopMs,
    channels,
    desaturationRule: task.desaturationRule,
    riiDivisor: task.riiDivisor,
    ...(task.window ? { window: task.window } : {}),
  };
}

/**
 * Stored samples as the engine reads them under a window: a float32 copy (same scale, offset
 * and missing codes) with NaN — always missing — outside it. The stored array is not touched.
 */
function maskStored(samples: Int16Array | Float32Array, t0Ms: number, rateHz: number, w: AnalysisWindow): Float32Array {
  const out = Float32Array.from(samples);
  for (const [a, b] of excludedIndexRanges(w, t0Ms, rateHz, out.length)) out.fill(Number.NaN, a, b);
  return out;
}

async function channelStats(task: StatsTask): Promise<[string, WindowStats][]> {
  const engine = await serverEngine();
  const night = scratchNight(task.label);
  const out: [string, WindowStats][] = [];
  try {
    for (const c of task.channels) {
      const samples = task.window ? maskStored(c.samples, c.t0Ms, c.sampleRate, task.window) : c.samples;
      engine.load({ night, code: c.code, samples, sampleRateHz: hz(c.sampleRate), t0Ms: ms(c.t0Ms), scale: c.scale, offset: c.offset, missingCodes: c.missingCodes });
      out.push([c.code, engine.stats({ night, code: c.code }, ms(task.fromMs), ms(task.toMs), 'auto')]);
    }
  } finally {
    engine.close(night);
  }
  return out;
}

async function overview(task: OverviewTask): Promise<Uint8Array> {
  const c = task.channel;
  // Stages are charted mapped, as the browser's loader maps them.
  if (c.code === STAGES_CODE) mapStages(c.samples, c.scale, c.offset);
  const engine = await serverEngine();
  const night = scratchNight(task.label);
  try {
    const info = engine.load({ night, code: c.code, samples: c.samples, sampleRateHz: hz(c.sampleRate), t0Ms: ms(c.t0Ms), scale: c.scale, offset: c.offset, missingCodes: c.missingCodes });
    const view = engine.view({ night, code: c.code }, ms(task.t0Ms), ms(task.t1Ms), px(task.pixels));
    return encodeView(view, { min: info.min, max: info.max, count: info.count, validCount: info.validCount });
  } finally {
    engine.close(night);
  }
}

/** Does one task (in a worker thread, or inline). The task's sample arrays may be changed or kept. */
export async function runEngineTask<T extends EngineTask>(task: T): Promise<EngineResult<T>> {
  const t = task as EngineTask;
  switch (t.kind) {
    case 'analyse':
      return analyseNight(nightInputOf(t)) as EngineResult<T>;
    case 'stats':
      return (await channelStats(t)) as EngineResult<T>;
    case 'overview':
      return (await overview(t)) as EngineResult<T>;
  }
}

/** The sample buffers a task owns whole: moved to the worker rather than copied. */
export function taskBuffers(task: EngineTask): ArrayBuffer[] {
  const channels = task.kind === 'overview' ? [task.channel] : task.channels;
  const out = new Set<ArrayBuffer>();
  for (const { samples } of channels) {
    if (ownsBuffer(samples) && samples.byteLength > 0) out.add(samples.buffer);
  }
  return [...out];
}
