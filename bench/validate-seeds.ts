// `node --import tsx bench/validate-seeds.ts <prefix>`: the simulated validation nights (validate.ts's profiles
// and channels) on other seeds (`<prefix>-0` …), per night and way: a check that the figures
// are not the validation seeds' alone. Prints only.
import { analyseNight, matchEvents } from '../engine/detect';
import { scoringReference, simulateNight } from '../server/simulator';
import { channelsOf, SIM_NIGHTS } from './validate';
const prefix = process.argv[2] ?? 'other';
const out: string[] = [];
const pool = { ox: [0, 0, 0], no: [0, 0, 0] };
for (const [i, spec] of SIM_NIGHTS.entries()) {
  const night = simulateNight({ seed: `${prefix}-${i}`, startMs: Date.UTC(2026, 0, 10 + i, 21, 30), durationMs: 8 * 3_600_000, profile: spec.profile, psg: spec.psg });
  for (const oximetry of [true, false]) {
    const a = analyseNight({ startMs: night.startMs, stopMs: night.stopMs, channels: channelsOf(night, oximetry) });
    const ref = scoringReference(night.truth, { channel: spec.psg ? 'flow' : 'radar', oximetry, desaturationRule: 3 });
    const m = matchEvents(ref.events, a.respiratory, { borderline: ref.borderline });
    const t = pool[oximetry ? 'ox' : 'no'];
    t[0] += m.reference;
    t[1] += m.detected;
    t[2] += m.matched;
    out.push(`${spec.profile}/${spec.psg ? 'psg' : 'radar'}/${oximetry ? 'ox' : 'no'} ${m.matched}/${m.reference} s=${m.sensitivity?.toFixed(3)} p=${m.ppv?.toFixed(3)}`);
  }
}
for (const [k, [r, d, hit]] of Object.entries(pool)) out.push(`pooled ${k}: sensitivity ${(hit / r).toFixed(3)} PPV ${(hit / d).toFixed(3)} (${hit} of ${r}, ${d} detected)`);
console.log(out.join('\n'));
