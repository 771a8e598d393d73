// `npm run validate`: Nocturne's scoring against references nobody tuned it to.
// - Real nights (tests/fixtures/real): the ResMed CPAP nights' flow against the events the
//   device itself scored (EVE files, ResMed's end-of-event convention from vendors.ts).
// - Simulated nights: several profiles, radar and PSG, each scored with and without its
//   oximetry, against the truth of what the generator wrote (scoringTruth on `written`: whole
//   clearly reduced breaths, desaturations as written in SPO2; events below the AASM criteria
//   are no truth events), matched one-to-one (matchEvents).
// Prints tables and writes bench/results/validation.json. The rules are general AASM rules
// (engine/detect/respiratory.ts); nothing here is tuned to these nights.
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { analyseNight, matchEvents, toSeries, type Agreement, type EventEdges, type NightAnalysis, type NightInput, type Series } from '../engine/detect';
import { nightFromFiles } from '../server/recordings/assemble';
import type { ChannelData, Night } from '../server/recordings/model';
import { deviceEvents, isRespiratory } from '../server/recordings/vendors';
import { scoringReference, simulateNight } from '../server/simulator';
import { importPathValidation } from './validate-import';

const CODED = new Set(['SQB', 'SA', 'TB', 'SLP_STGS']);
const INPUTS = ['SPO2', 'SPO2_PSG', 'Y_DIST', 'NC_PSG', 'THRX_PSG', 'ABD_PSG', 'SQB', 'SLP_STGS', 'SA', 'TB', 'BR', 'MOV'] as const;
const OXIMETRY = new Set(['SPO2', 'SPO2_PSG']);

/** A night's channels as the server's analysis reads them (analyse.ts nightInput). */
export function channelsOf(night: Night, withOximetry = true, missingCodes?: readonly number[]): NightInput['channels'] {
  const out: NightInput['channels'] = {};
  for (const c of night.channels) {
    if (!(INPUTS as readonly string[]).includes(c.code)) continue;
    if (!withOximetry && OXIMETRY.has(c.code)) continue;
    out[c.code as (typeof INPUTS)[number]] = series(c, missingCodes);
  }
  return out;
}

const series = (c: ChannelData, missingCodes?: readonly number[]): Series =>
  toSeries(c.code, c.samples, c.sampleRate, c.t0, c.scale, c.offset, CODED.has(c.code) ? [] : missingCodes ?? [-1, -2]);

const r3 = (x: number | null) => (x === null ? null : Math.round(x * 1000) / 1000);

/** The agreement figures of one night or one group of nights. */
function figures(a: Pick<Agreement, 'reference' | 'detected' | 'matched'>) {
  return {
    reference: a.reference,
    found: a.matched,
    missed: a.reference - a.matched,
    extra: a.detected - a.matched,
    sensitivity: a.reference > 0 ? r3(a.matched / a.reference) : null,
    ppv: a.detected > 0 ? r3(a.matched / a.detected) : null,
  };
}

const REAL_NIGHTS = [
  { night: '20250808', eve: 'snore_resmed_20250808_010203_EVE.edf', files: ['snore_resmed_20250808_010210_BRP.edf', 'snore_resmed_20250808_010210_SA2.edf', 'snore_resmed_20250808_010210_PLD.edf'] },
  { night: '20251025', eve: 'snore_resmed_20251025_005805_EVE.edf', files: ['snore_resmed_20251025_005814_BRP.edf'] },
] as const;

/** One real night against its device-scored events. */
export function realNight(spec: (typeof REAL_NIGHTS)[number], eventEdges?: EventEdges) {
  const dir = new URL('../tests/fixtures/real/', import.meta.url);
  const names = [...spec.files, spec.eve];
  const night = nightFromFiles(names.map((name) => ({ name, bytes: new Uint8Array(readFileSync(new URL(name, dir))) })), { timezone: 'UTC' });
  // EDF samples are physical values with no missing codes of their own (issue 12 point 6),
  // except the SA2 oximeter's all-missing channel, which arrives as its own code below.
  const analysis = analyseNight({ startMs: night.startMs, stopMs: night.stopMs, channels: channelsOf(night, true, []), eventEdges });
  const reference = deviceEvents({ fileName: spec.eve }, night.events).filter((e) => isRespiratory(e.kind));
  const agreement = matchEvents(reference, analysis.respiratory);
  const hours = analysis.kpis.monitoringH;
  return {
    night: spec.night,
    files: names,
    device_events: reference.length,
    ...figures(agreement),
    nocturne_index: analysis.kpis.ahi,
    nocturne_index_basis: analysis.kpis.indexBasis,
    nocturne_index_label: analysis.kpis.indexBasis === 'monitoring' ? 'REI (monitoring time)' : 'AHI',
    device_ahi: hours > 0 ? Math.round((reference.length / hours) * 100) / 100 : null,
    monitoring_h: hours,
    oximetry: hasOximetry(night),
    flow_only_hypopneas: analysis.respiratory.filter((e) => e.flowOnly).length,
    apneas: analysis.kpis.apneas,
    hypopneas: analysis.kpis.hypopneas,
    missed_events: reference.filter((_, i) => !agreement.pairs.some((p) => p[0] === i)).map((e) => ({ kind: e.kind, onset: new Date(e.onsetMs).toISOString(), duration_s: e.durationMs / 1000 })),
    extra_events: analysis.respiratory.filter((_, i) => !agreement.pairs.some((p) => p[1] === i)).map((e) => ({ kind: e.kind, onset: new Date(e.onsetMs).toISOString(), ...e.reason })),
  };
}

function hasOximetry(night: Night): boolean {
  return night.channels.some((c) => OXIMETRY.has(c.code) && Array.from(series(c, []).values).some((v) => Number.isFinite(v) && v > 0 && v <= 100));
}

export const SIM_NIGHTS = [
  { profile: 'healthy', psg: false },
  { profile: 'mild_osa', psg: true },
  { profile: 'moderate_osa', psg: false },
  { profile: 'severe_osa', psg: true },
  { profile: 'central', psg: false },
  { profile: 'moderate_osa', psg: true },
  { profile: 'severe_osa', psg: false },
  { profile: 'central', psg: true },
] as const;

/** The simulated nights, each scored with and without its oximetry. */
export function simulatedNights(count = SIM_NIGHTS.length, eventEdges?: EventEdges) {
  const rows: Array<Record<string, unknown>> = [];
  const total = { with: { reference: 0, detected: 0, matched: 0 }, without: { reference: 0, detected: 0, matched: 0 } };
  const strictTotal = { with: { reference: 0, detected: 0, matched: 0 }, without: { reference: 0, detected: 0, matched: 0 } };
  const desat = { reference: 0, detected: 0, matched: 0 };
  for (const [i, spec] of SIM_NIGHTS.slice(0, count).entries()) {
    const night = simulateNight({ seed: `validate-${i}`, startMs: Date.UTC(2026, 0, 10 + i, 21, 30), durationMs: 8 * 3_600_000, profile: spec.profile, psg: spec.psg });
    for (const oximetry of [true, false]) {
      const analysis: NightAnalysis = analyseNight({ startMs: night.startMs, stopMs: night.stopMs, channels: channelsOf(night, oximetry), eventEdges });
      const ref = scoringReference(night.truth, { channel: spec.psg ? 'flow' : 'radar', oximetry, desaturationRule: 3 });
      const a = matchEvents(ref.events, analysis.respiratory, { borderline: ref.borderline });
      // Strictly: every borderline event counted as a truth event the detector had to find.
      const strict = matchEvents([...ref.events, ...ref.borderline], analysis.respiratory);
      const t = total[oximetry ? 'with' : 'without'];
      const s = strictTotal[oximetry ? 'with' : 'without'];
      s.reference += strict.reference;
      s.detected += strict.detected;
      s.matched += strict.matched;
      t.reference += a.reference;
      t.detected += a.detected;
      t.matched += a.matched;
      if (oximetry) {
        const desatTruth = night.truth.filter((e) => e.kind === 'desaturation' && (e.written?.drop ?? 0) >= 3 && e.durationMs >= 10_000);
        const d = matchEvents(desatTruth, analysis.desaturations);
        desat.reference += d.reference;
        desat.detected += d.detected;
        desat.matched += d.matched;
      }
      rows.push({
        night: `${spec.profile} (${spec.psg ? 'PSG flow' : 'radar'})`,
        oximetry,
        drawn: night.truth.filter((e) => e.kind === 'obstructive_apnea' || e.kind === 'central_apnea' || e.kind === 'hypopnea').length,
        ...figures(a),
        borderline: a.borderline,
        borderline_detected: a.borderlineDetected,
        strict: { sensitivity: figures(strict).sensitivity, ppv: figures(strict).ppv },
        ahi: analysis.kpis.ahi,
        basis: analysis.kpis.indexBasis,
      });
    }
  }
  return {
    nights: rows,
    with_oximetry: figures({ reference: total.with.reference, detected: total.with.detected, matched: total.with.matched }),
    without_oximetry: figures({ reference: total.without.reference, detected: total.without.detected, matched: total.without.matched }),
    strict_with_oximetry: figures(strictTotal.with),
    strict_without_oximetry: figures(strictTotal.without),
    desaturations: figures(desat),
  };
}

/** The real nights against their device events. */
export const realNights = (eventEdges?: EventEdges) => REAL_NIGHTS.map((spec) => realNight(spec, eventEdges));

export async function main() {
  const real = realNights();
  const simulated = simulatedNights();
  const goals = {
    real: 'each ResMed night: ≥ 6 of 7 device events found, ≤ 3 extra',
    simulated: 'sensitivity and PPV ≥ 0.90 on every simulated night, with and without oximetry (borderline events counted neither way)',
    real_met: real.every((r) => r.found >= 6 && r.extra <= 3),
    simulated_met: (simulated.nights as Array<{ sensitivity: number | null; ppv: number | null }>).every((f) => (f.sensitivity ?? 0) >= 0.9 && (f.ppv ?? 0) >= 0.9),
  };
  // Every real recording of ../shared/data/real through the import path, merged and per session.
  const imported = await importPathValidation();
  const results = { generated: new Date().toISOString(), goals, real, simulated, imported };
  console.table(real.map(({ missed_events: _m, extra_events: _e, files: _f, ...r }) => r));
  console.table((simulated.nights as Array<Record<string, unknown>>).map(({ strict, ...r }) => ({ ...r, strict: JSON.stringify(strict) })));
  console.table({ with_oximetry: simulated.with_oximetry, without_oximetry: simulated.without_oximetry, strict_with_oximetry: simulated.strict_with_oximetry, strict_without_oximetry: simulated.strict_without_oximetry, desaturations: simulated.desaturations });
  console.log(`Goals — real nights: ${goals.real_met ? 'met' : 'NOT met'}; simulated: ${goals.simulated_met ? 'met' : 'NOT met'}.`);
  console.log(`\nReal nights through the import path (${imported.dir}): one upload per night ("merged") and one per mask session`);
  console.table(imported.nights.map((n) => ({ night: n.night, first_file: n.first_file, sessions: n.sessions, files: n.files, ...Object.fromEntries(Object.entries(n.merged).map(([k, v]) => [`merged ${k}`, v])) })));
  console.table(imported.nights.map((n) => ({ night: n.night, ...Object.fromEntries(Object.entries(n.per_session).map(([k, v]) => [`per session ${k}`, v])) })));
  console.table(imported.pooled);
  console.table(imported.device_summaries);
  console.table(imported.staging);
  console.log(`Goals over the import path — merged: ${imported.goals.merged_met ? 'met' : 'NOT met'}; per session: ${imported.goals.per_session_met ? 'met' : 'NOT met'}.`);
  await mkdir(new URL('./results/', import.meta.url), { recursive: true });
  await writeFile(new URL('./results/validation.json', import.meta.url), JSON.stringify(results, null, 2) + '\n');
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
