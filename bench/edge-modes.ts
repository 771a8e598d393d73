// `node --import tsx bench/edge-modes.ts [modes…]`: the validation nights (bench/validate.ts,
// same nights and seeds) scored with each way of reading event edges (default: hybrid and
// signal), each night simulated once; prints the figures per mode. An experiment tool, no file written.
import { analyseNight, matchEvents, type EventEdges } from '../engine/detect';
import { scoringTruth, simulateNight } from '../server/simulator';
import { channelsOf, realNights, SIM_NIGHTS } from './validate';

const modes = (process.argv.slice(2).length ? process.argv.slice(2) : ['hybrid', 'signal']) as EventEdges[];
const total: Record<string, { reference: number; detected: number; matched: number }> = {};
const add = (key: string, a: { reference: number; detected: number; matched: number }) => {
  const t = (total[key] ??= { reference: 0, detected: 0, matched: 0 });
  t.reference += a.reference;
  t.detected += a.detected;
  t.matched += a.matched;
};
for (const mode of modes) console.log(mode, JSON.stringify(realNights(mode).map((r) => ({ night: r.night, found: r.found, extra: r.extra, missed: r.missed_events, extras: r.extra_events }))));
for (const [i, spec] of SIM_NIGHTS.entries()) {
  const night = simulateNight({ seed: `validate-${i}`, startMs: Date.UTC(2026, 0, 10 + i, 21, 30), durationMs: 8 * 3_600_000, profile: spec.profile, psg: spec.psg });
  for (const oximetry of [true, false]) {
    const truth = scoringTruth(night.truth, { channel: spec.psg ? 'flow' : 'radar', oximetry, desaturationRule: 3 });
    for (const mode of modes) {
      const analysis = analyseNight({ startMs: night.startMs, stopMs: night.stopMs, channels: channelsOf(night, oximetry), eventEdges: mode });
      const a = matchEvents(truth, analysis.respiratory);
      add(`${mode} ${oximetry ? 'with' : 'without'}`, a);
      console.log(mode, spec.profile, spec.psg ? 'psg' : 'radar', oximetry, a.reference, a.detected, a.matched);
    }
  }
}
for (const [k, t] of Object.entries(total)) console.log(k, t, 'sens', (t.matched / t.reference).toFixed(3), 'ppv', (t.matched / t.detected).toFixed(3));
