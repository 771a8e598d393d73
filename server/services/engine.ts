import { hz, loadEngine, ms, type Engine, type WindowStats } from '../../engine/index';
import type { Queryable } from '../db/adapter';
import { loadSamples, type ChannelRow, type RecordingRow } from '../recordings/store';
import type { AnalysisWindow } from '../../engine/detect';
import { maskStored } from '../analytics/corrections';

let engine: Promise<Engine> | null = null;

/**
 * The signal engine for the server (the same WebAssembly the browser runs, so one
 * implementation computes every number shown). Loaded once, on first use.
 */
export function serverEngine(): Promise<Engine> {
  engine ??= loadEngine().catch((err: Error) => {
    engine = null;
    throw new Error(`The signal engine could not be loaded (${err.message}). Run "npm run build:engine".`);
  });
  return engine;
}

let seq = 0;
/** A night name no other request uses, so concurrent requests never share engine channels. */
export const scratchNight = (label: string) => `${label}#${++seq}`;

/**
 * Statistics of whole nights' channels, computed by the engine: each channel is loaded into
 * a scratch night, measured over the recording, and freed again. With a corrections window,
 * over [bed-in, bed-out] with the time outside it (and in its invalid spans) read as missing.
 */
export async function nightChannelStats(
  db: Queryable,
  recording: Pick<RecordingRow, 'id' | 'start_ms' | 'stop_ms'>,
  channels: readonly ChannelRow[],
  window: AnalysisWindow | null = null,
): Promise<Map<string, WindowStats>> {
  const engine = await serverEngine();
  const name = scratchNight(`night-${recording.id}`);
  const out = new Map<string, WindowStats>();
  try {
    for (const c of channels) {
      const stored = await loadSamples(db, c);
      const samples = window ? maskStored(stored, Number(c.t0_ms), c.sample_rate, window) : stored;
      engine.load({ night: name, code: c.code, samples, sampleRateHz: hz(c.sample_rate), t0Ms: ms(c.t0_ms), scale: c.scale, offset: c.offset_value, missingCodes: c.missing_codes });
      const [from, to] = window ? [window.bedInMs, window.bedOutMs] : [Number(recording.start_ms), Number(recording.stop_ms) + 1];
      out.set(c.code, engine.stats({ night: name, code: c.code }, ms(from), ms(to), 'auto'));
    }
  } finally {
    engine.close(name);
  }
  return out;
}
