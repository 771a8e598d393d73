// `npm run validate`: the detectors against ground truth. Simulated nights against the
// simulator's truth, and the real ResMed night's Flow against the 7 events the device
// itself scored. Prints a table and writes bench/results/validation.json.
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { analyseNight, detectRespiratoryEvents, toSeries, type DetectedEvent, type NightInput, type Series } from '../engine/detect';
import { nightFromFiles } from '../server/recordings/assemble';
import type { ChannelData, NightEvent } from '../server/recordings/model';
import { simulateNight } from '../server/simulator';

/** Two events match when they overlap, allowing 10 s between them. */
const TOLERANCE_MS = 10_000;
const overlaps = (a: { onsetMs: number; durationMs: number }, b: { onsetMs: number; durationMs: number }) =>
  a.onsetMs < b.onsetMs + b.durationMs + TOLERANCE_MS && b.onsetMs < a.onsetMs + a.durationMs + TOLERANCE_MS;

const series = (c: ChannelData): Series => toSeries(c.code, c.samples, c.sampleRate, c.t0, c.scale, c.offset, c.code === 'SQB' || c.code === 'SA' || c.code === 'TB' ? [] : [-1, -2]);

function score(truth: Array<{ onsetMs: number; durationMs: number }>, found: DetectedEvent[]) {
  const hits = truth.filter((t) => found.some((f) => overlaps(f, t))).length;
  const good = found.filter((f) => truth.some((t) => overlaps(f, t))).length;
  return { truth: truth.length, found: found.length, hits, good };
}

const NIGHTS = [
  { profile: 'healthy', psg: false },
  { profile: 'mild_osa', psg: true },
  { profile: 'moderate_osa', psg: false },
  { profile: 'severe_osa', psg: true },
  { profile: 'central', psg: false },
  { profile: 'moderate_osa', psg: true },
] as const;

export async function main() {
  const resp = { truth: 0, found: 0, hits: 0, good: 0 };
  const desat = { truth: 0, found: 0, hits: 0, good: 0 };
  const rows: Record<string, string | number>[] = [];
  for (const [i, spec] of NIGHTS.entries()) {
    const night = simulateNight({ seed: `validate-${i}`, startMs: Date.UTC(2026, 0, 10 + i, 21, 30), durationMs: 8 * 3_600_000, profile: spec.profile, psg: spec.psg });
    const channels: NightInput['channels'] = {};
    for (const c of night.channels) if (['SPO2', 'Y_DIST', 'SQB', 'SLP_STGS', 'SA', 'TB', 'BR'].includes(c.code)) channels[c.code as keyof NightInput['channels']] = series(c);
    const a = analyseNight({ startMs: night.startMs, stopMs: night.stopMs, channels });
    const r = score(night.truth.filter((t) => t.kind === 'obstructive_apnea' || t.kind === 'central_apnea' || t.kind === 'hypopnea'), a.respiratory);
    const d = score(night.truth.filter((t) => t.kind === 'desaturation'), a.desaturations);
    for (const k of ['truth', 'found', 'hits', 'good'] as const) {
      resp[k] += r[k];
      desat[k] += d[k];
    }
    rows.push({ night: `${spec.profile} (radar)`, respiratory_truth: r.truth, respiratory_found: r.found, respiratory_hits: r.hits, desat_truth: d.truth, desat_found: d.found, desat_hits: d.hits, AHI: a.kpis.ahi ?? '—', ODI: a.kpis.odi ?? '—' });
  }

  const dir = new URL('../tests/fixtures/real/', import.meta.url);
  const files = ['snore_resmed_20250808_010210_BRP.edf', 'snore_resmed_20250808_010203_EVE.edf', 'snore_resmed_20250808_010210_SA2.edf'].map((f) => ({ name: f, bytes: new Uint8Array(readFileSync(new URL(f, dir))) }));
  const resmed = nightFromFiles(files, { timezone: 'UTC' });
  const flow = series(resmed.channels.find((c) => c.code === 'NC_PSG')!);
  const oximeter = series(resmed.channels.find((c) => c.code === 'SPO2_PSG')!);
  const reference: NightEvent[] = resmed.events.filter((e) => /apnea|hypopnea/i.test(e.text));
  // ResMed writes the time an event ended (the flow is low just before each onset) and
  // duration 0 for hypopneas: match against the 40 s before each mark as well.
  const refWindows = reference.map((e) => ({ onsetMs: e.onsetMs - Math.max(e.durationMs, 10_000) - 30_000, durationMs: Math.max(e.durationMs, 10_000) + 30_000 }));
  const strictAnalysis = analyseNight({ startMs: resmed.startMs, stopMs: resmed.stopMs, channels: { NC_PSG: flow, SPO2_PSG: oximeter } });
  const strict = strictAnalysis.respiratory;
  const flowOnly = detectRespiratoryEvents(flow, [], { flowOnlyHypopneas: true });
  const found = (events: DetectedEvent[]) => refWindows.filter((w) => events.some((e) => overlaps(e, w))).length;
  const extra = (events: DetectedEvent[]) => events.filter((e) => !refWindows.some((w) => overlaps(e, w))).length;
  const missingOximetry = oximeter.values.every((v) => !Number.isFinite(v));

  const results = {
    sim_nights: NIGHTS.length,
    sim_sensitivity: resp.hits / resp.truth,
    sim_ppv: resp.good / resp.found,
    sim_desat_sensitivity: desat.hits / desat.truth,
    sim_desat_ppv: desat.good / desat.found,
    resmed_reference_events: reference.length,
    resmed_found: found(strict),
    resmed_extra: extra(strict),
    resmed_found_flow_only: found(flowOnly),
    resmed_extra_flow_only: extra(flowOnly),
    resmed_oximetry_missing: missingOximetry,
  };
  console.table(rows);
  console.table(Object.fromEntries(Object.entries(results).map(([k, v]) => [k, typeof v === 'number' ? Math.round(v * 1000) / 1000 : v])));
  console.log(
    `Simulated: respiratory sensitivity ${results.sim_sensitivity.toFixed(3)}, PPV ${results.sim_ppv.toFixed(3)}; desaturations ${results.sim_desat_sensitivity.toFixed(3)} / ${results.sim_desat_ppv.toFixed(3)} (goal ≥ 0.90 each).\n` +
      `ResMed (AASM rules): ${results.resmed_found} of ${reference.length} found, ${results.resmed_extra} extra` +
      (missingOximetry ? ' — the night has no oximetry (SA2 all missing), so no hypopnea can be confirmed by a desaturation.' : '.') +
      `\nResMed flow only (hypopnea = ≥30% drop for ≥10 s, no desaturation needed): ${results.resmed_found_flow_only} of ${reference.length} found, ${results.resmed_extra_flow_only} extra.`,
  );
  await mkdir(new URL('./results/', import.meta.url), { recursive: true });
  await writeFile(new URL('./results/validation.json', import.meta.url), JSON.stringify(results, null, 2) + '\n');
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
