import { hz, loadEngine, ms, type Engine, type WindowStats } from '../../engine/index';
import type { Queryable } from '../db/adapter';
import { loadSamples, type ChannelRow, type RecordingRow } from '../recordings/store';

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
 * a scratch night, measured over the recording, and freed again.
 */
export async function nightChannelStats(
  db: Queryable,
  recording: Pick<RecordingRow, 'id' | 'start_ms' | 'stop_ms'>,
  channels: readonly ChannelRow[],
): Promise<Map<string, WindowStats>> {
  const engine = await serverEngine();
  const name = scratchNight(`night-${recording.id}`);
  const out = new Map<string, WindowStats>();
  try {
    for (const c of channels) {
      engine.load({ night: name, code: c.code, samples: await loadSamples(db, c), sampleRateHz: hz(c.sample_rate), t0Ms: ms(c.t0_ms), scale: c.scale, offset: c.offset_value, missingCodes: c.missing_codes });
      out.set(c.code, engine.stats({ night: name, code: c.code }, ms(recording.start_ms), ms(recording.stop_ms + 1), 'auto'));
    }
  } finally {
    engine.close(name);
  }
  return out;
}
