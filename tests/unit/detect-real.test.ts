import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyseNight, matchEvents, toSeries, type NightInput } from '../../engine/detect';
import { nightFromFiles } from '../../server/recordings/assemble';
import { deviceEvents, isRespiratory } from '../../server/recordings/vendors';

/**
 * Nocturne's scoring on the real ResMed CPAP nights in tests/fixtures/real against the
 * events the device itself scored (issue 12 goal: ≥ 6 of 7 found, ≤ 3 extra per night).
 * The rules are general AASM rules; nothing is tuned to these files.
 */
const DIR = new URL('../fixtures/real/', import.meta.url);

function scored(files: string[], eve: string) {
  const names = [...files, eve];
  const night = nightFromFiles(names.map((name) => ({ name, bytes: new Uint8Array(readFileSync(new URL(name, DIR))) })), { timezone: 'UTC' });
  const channels: NightInput['channels'] = {};
  for (const c of night.channels) {
    // EDF samples carry no missing codes of their own: every sample is kept.
    if (c.code === 'NC_PSG' || c.code === 'SPO2_PSG') channels[c.code] = toSeries(c.code, c.samples, c.sampleRate, c.t0, c.scale, c.offset, []);
  }
  const analysis = analyseNight({ startMs: night.startMs, stopMs: night.stopMs, channels });
  const reference = deviceEvents({ fileName: eve }, night.events).filter((e) => isRespiratory(e.kind));
  return { analysis, reference, agreement: matchEvents(reference, analysis.respiratory) };
}

describe('scoring real ResMed CPAP nights against the device-scored events', () => {
  it('20250808 (flow, SpO2 channel all missing): ≥ 6 of 7 found, ≤ 3 extra, flow-only hypopneas, REI over monitoring time', () => {
    const { analysis, reference, agreement } = scored(['snore_resmed_20250808_010210_BRP.edf', 'snore_resmed_20250808_010210_SA2.edf'], 'snore_resmed_20250808_010203_EVE.edf');
    expect(reference).toHaveLength(7);
    expect(agreement.matched).toBeGreaterThanOrEqual(6);
    expect(agreement.extra).toBeLessThanOrEqual(3);
    expect(analysis.breathingSource).toBe('NC_PSG');
    // No oximetry: no desaturation, every hypopnea is flow-only and says so.
    expect(analysis.desaturations).toEqual([]);
    const hypopneas = analysis.respiratory.filter((e) => e.kind === 'hypopnea');
    expect(hypopneas.length).toBeGreaterThan(0);
    for (const h of hypopneas) expect(h).toMatchObject({ flowOnly: true, reason: { rule: 'flow-only hypopnea ≥50 % ≥10 s (no oximetry)' } });
    for (const e of analysis.respiratory) {
      expect(e.reason!.durationS).toBeGreaterThanOrEqual(10);
      expect(e.reason!.dropPct).toBeGreaterThanOrEqual(50);
    }
    // No sleep staging: the index is an REI over ~6.5 h of flow, not null.
    expect(analysis.kpis.indexBasis).toBe('monitoring');
    expect(analysis.kpis.monitoringH).toBeGreaterThan(6.3);
    expect(analysis.kpis.monitoringH).toBeLessThan(6.6);
    expect(analysis.kpis.ahi).toBeCloseTo((analysis.kpis.apneas + analysis.kpis.hypopneas) / analysis.kpis.monitoringH, 1);
  });

  it('20251025 (flow only): ≥ 6 of 7 found, ≤ 3 extra, apneas unclassified without effort belts', () => {
    const { analysis, reference, agreement } = scored(['snore_resmed_20251025_005814_BRP.edf'], 'snore_resmed_20251025_005805_EVE.edf');
    expect(reference).toHaveLength(7);
    expect(agreement.matched).toBeGreaterThanOrEqual(6);
    expect(agreement.extra).toBeLessThanOrEqual(3);
    const apneas = analysis.respiratory.filter((e) => e.kind === 'apnea');
    expect(apneas.length).toBeGreaterThan(0);
    for (const a of apneas) expect(a.apneaType).toBe('unclassified');
    expect(analysis.kpis.ahi).not.toBeNull();
  });
});
