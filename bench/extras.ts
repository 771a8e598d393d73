// `node --import tsx bench/extras.ts`: why each extra (false positive) on the simulated
// validation nights with oximetry happens. Each extra detection is put beside the generator
// event it overlaps most (matching tolerance 5 s) and classified by why that event is no
// truth event: a second detection of a truth event already matched, drawn under 10 s,
// residual over 70 %, desaturation drawn under the rule (split: measured within 1 point of the
// drawn drop on the 1-%-resolution oximeter, or a larger desaturation associated from
// elsewhere), hidden by a radar gap, or no generator event at all. Detections of borderline
// events (scoringReference) are no extras and are left out, as in validate.ts.
// Prints the counts and writes bench/results/extras.json. Same nights and seeds as validate.ts.
import { mkdir, writeFile } from 'node:fs/promises';
import { analyseNight, matchEvents } from '../engine/detect';
import { AASM, scoringReference, simulateNight } from '../server/simulator';
import type { DesaturationTruth, RespiratoryTruth } from '../server/simulator/types';
import { channelsOf, SIM_NIGHTS } from './validate';

const RULE = 3;
const TOL_MS = 5_000;
const causes: Record<string, number> = {};
const extras: Array<Record<string, unknown>> = [];
for (const [i, spec] of SIM_NIGHTS.entries()) {
  const night = simulateNight({ seed: `validate-${i}`, startMs: Date.UTC(2026, 0, 10 + i, 21, 30), durationMs: 8 * 3_600_000, profile: spec.profile, psg: spec.psg });
  const analysis = analyseNight({ startMs: night.startMs, stopMs: night.stopMs, channels: channelsOf(night, true) });
  const ref = scoringReference(night.truth, { channel: spec.psg ? 'flow' : 'radar', oximetry: true, desaturationRule: RULE });
  const truth = ref.events;
  // Detections of borderline events are no extras (docs/decisions/0095-borderline-events-in-the-simulated-validation.md).
  const a = matchEvents(truth, analysis.respiratory, { borderline: ref.borderline });
  const drawn = night.truth.filter((e): e is RespiratoryTruth => e.kind === 'obstructive_apnea' || e.kind === 'central_apnea' || e.kind === 'hypopnea');
  const desats = new Map(night.truth.filter((e): e is DesaturationTruth => e.kind === 'desaturation').map((d) => [d.id, d]));
  const inTruth = new Set(truth.map((t) => t.source.id));
  const matched = new Set(a.pairs.map((p) => truth[p[0]].source.id));
  analysis.respiratory.forEach((e, k) => {
    if (a.pairs.some((p) => p[1] === k) || a.borderlinePairs.some((p) => p[1] === k)) return;
    const overlap = (g: RespiratoryTruth) => Math.min(e.onsetMs + e.durationMs, g.onsetMs + g.durationMs) - Math.max(e.onsetMs, g.onsetMs) + 2 * TOL_MS;
    const near = drawn.filter((g) => overlap(g) > 0).sort((x, y) => overlap(y) - overlap(x))[0];
    const row: Record<string, unknown> = { night: `${spec.profile} (${spec.psg ? 'PSG flow' : 'radar'})`, kind: e.kind, onset: new Date(e.onsetMs).toISOString(), ...e.reason };
    let cause = 'no generator event';
    if (near) {
      const d = desats.get(near.desaturationId);
      const w = near.written[spec.psg ? 'flow' : 'radar'];
      const written = d?.written?.drop ?? 0;
      const measured = e.reason?.desaturationPct;
      Object.assign(row, {
        drawn_kind: near.kind, drawn_duration_s: near.durationMs / 1000, drawn_residual: spec.psg ? near.flowAmplitude : near.amplitude, drawn_desaturation: d?.drop,
        written_duration_s: w ? w.durationMs / 1000 : null, written_residual: w?.residual ?? null, written_desaturation: d?.written?.drop ?? null,
        onset_diff_s: (e.onsetMs - (w ?? near).onsetMs) / 1000,
      });
      const borderline = ref.borderline.some((b) => b.source.id === near.id);
      if (borderline) cause = 'borderline event matched elsewhere';
      else if (inTruth.has(near.id)) cause = matched.has(near.id) ? 'second detection of a matched event' : 'truth event matched elsewhere';
      else if (!w || w.durationMs < AASM.minDurationS * 1000) cause = 'written under 10 s of clearly reduced breaths, measured ≥ 10 s';
      else if (w.residual > AASM.apneaResidual && written < RULE) cause = measured !== undefined && measured - written > 1.5 ? 'desaturation from elsewhere associated' : 'desaturation written under 3 %, measured ≥ 3 %';
      else cause = 'hidden by a radar gap in the truth';
    }
    row.cause = cause;
    causes[cause] = (causes[cause] ?? 0) + 1;
    extras.push(row);
  });
}
console.table(causes);
await mkdir(new URL('./results/', import.meta.url), { recursive: true });
await writeFile(new URL('./results/extras.json', import.meta.url), JSON.stringify({ generated: new Date().toISOString(), causes, extras }, null, 2) + '\n');
