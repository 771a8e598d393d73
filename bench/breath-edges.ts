// `node --import tsx bench/breath-edges.ts`: the validation (bench/validate.ts, same nights
// and seeds) with respiratory event edges read on whole breaths (eventEdges 'breaths',
// engine/detect/breaths.ts) beside the default edges on the signal, in the same run.
// Also times analyseNight with either edges on the 8-h severe-OSA nights (radar and PSG flow,
// with oximetry), rounds interleaved. Writes bench/results/breath-edges.json.
import { mkdir, writeFile } from 'node:fs/promises';
import { analyseNight } from '../engine/detect';
import { simulateNight } from '../server/simulator';
import { percentile, timeOnce } from './timing';
import { channelsOf, realNights, SIM_NIGHTS, simulatedNights } from './validate';

const ROUNDS = 9;

const out: Record<string, unknown> = { generated: new Date().toISOString() };
for (const eventEdges of ['signal', 'breaths'] as const) {
  const real = realNights(eventEdges).map((r) => ({ night: r.night, device_events: r.device_events, found: r.found, extra: r.extra }));
  const sim = simulatedNights(undefined, eventEdges);
  out[eventEdges] = { real, with_oximetry: sim.with_oximetry, without_oximetry: sim.without_oximetry, nights: sim.nights };
  console.log(eventEdges, JSON.stringify(real), JSON.stringify({ with: sim.with_oximetry, without: sim.without_oximetry }));
}
const speed: Record<string, unknown> = {};
for (const i of [6, 3]) {
  const spec = SIM_NIGHTS[i];
  const night = simulateNight({ seed: `validate-${i}`, startMs: Date.UTC(2026, 0, 10 + i, 21, 30), durationMs: 8 * 3_600_000, profile: spec.profile, psg: spec.psg });
  const input = { startMs: night.startMs, stopMs: night.stopMs, channels: channelsOf(night, true) };
  const times = { signal: [] as number[], breaths: [] as number[] };
  for (const e of ['signal', 'breaths'] as const) analyseNight({ ...input, eventEdges: e });
  for (let r = 0; r < ROUNDS; r++) for (const e of ['signal', 'breaths'] as const) times[e].push(timeOnce(() => analyseNight({ ...input, eventEdges: e })));
  const figures = (t: number[]) => ({ p50_ms: Math.round(percentile(t, 0.5)), p90_ms: Math.round(percentile(t, 0.9)) });
  speed[`${spec.profile} (${spec.psg ? 'PSG flow' : 'radar'}), 8 h`] = { rounds: ROUNDS, signal: figures(times.signal), breaths: figures(times.breaths) };
}
out.speed = speed;
console.log(JSON.stringify(speed));
await mkdir(new URL('./results/', import.meta.url), { recursive: true });
await writeFile(new URL('./results/breath-edges.json', import.meta.url), JSON.stringify(out, null, 2) + '\n');
