// `node --import tsx bench/detector-speed.ts [old engine/detect dir]`: analyseNight on the
// 8-h severe-OSA validation nights (radar and PSG flow, with oximetry; same seeds as
// validate.ts), 9 rounds, interleaved: this tree's detector with its default edges and with
// the opt-in hybrid edges, and, when given, another tree's engine/detect (e.g. a copy of main's, for
// old vs new in the same run). Prints p50/p90 ms and writes bench/results/detector-speed.json.
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { analyseNight, type NightInput } from '../engine/detect';
import { simulateNight } from '../server/simulator';
import { percentile, timeOnce } from './timing';
import { channelsOf, SIM_NIGHTS } from './validate';

const ROUNDS = 9;
const oldDir = process.argv[2];
const old = oldDir ? ((await import(pathToFileURL(resolve(oldDir, 'index.ts')).href)) as { analyseNight: (n: NightInput) => unknown }) : null;
const runs: Record<string, (input: NightInput) => unknown> = {
  new: (input) => analyseNight(input),
  'new, hybrid edges': (input) => analyseNight({ ...input, eventEdges: 'hybrid' }),
  ...(old ? { old: (input: NightInput) => old.analyseNight(input) } : {}),
};
const out: Record<string, unknown> = { generated: new Date().toISOString(), rounds: ROUNDS, old: oldDir ?? null, load_before: loadavg().map((x) => Math.round(x * 10) / 10), cores: cpus().length };
for (const i of [6, 3]) {
  const spec = SIM_NIGHTS[i];
  const night = simulateNight({ seed: `validate-${i}`, startMs: Date.UTC(2026, 0, 10 + i, 21, 30), durationMs: 8 * 3_600_000, profile: spec.profile, psg: spec.psg });
  const input: NightInput = { startMs: night.startMs, stopMs: night.stopMs, channels: channelsOf(night, true) };
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(runs).map((k) => [k, []]));
  for (const run of Object.values(runs)) run(input);
  for (let r = 0; r < ROUNDS; r++) for (const [k, run] of Object.entries(runs)) times[k].push(timeOnce(() => run(input)));
  const row = Object.fromEntries(Object.entries(times).map(([k, t]) => [k, { p50_ms: Math.round(percentile(t, 0.5)), p90_ms: Math.round(percentile(t, 0.9)) }]));
  out[`${spec.profile} (${spec.psg ? 'PSG flow' : 'radar'}), 8 h`] = row;
  console.log(spec.profile, spec.psg ? 'PSG flow' : 'radar', JSON.stringify(row));
}
out.load_after = loadavg().map((x) => Math.round(x * 10) / 10);
await mkdir(new URL('./results/', import.meta.url), { recursive: true });
await writeFile(new URL('./results/detector-speed.json', import.meta.url), JSON.stringify(out, null, 2) + '\n');
