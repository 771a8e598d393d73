// Issue 31 points 6 and 7 at the reader: hypnogram labels to the spec's stage codes (HMC's
// counts as its provenance gives them), and ResMed's STR.edf with its 0..65534 digital range
// read only by the device-summary reader while every other EDF keeps the strict check.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseRecordingFile } from '../../server/recordings/assemble';
import { hypnogramChannel, stageCounts, stageOfText, STAGE_CODES } from '../../server/recordings/edf/hypnogram';
import { isDeviceSummary, readDeviceSummary } from '../../server/recordings/edf/str';
import { readEdf } from '../../server/recordings/edf/reader';

const real = (name: string) => new Uint8Array(readFileSync(new URL(`../fixtures/real/${name}`, import.meta.url)));

describe('hypnogram labels', () => {
  it('R&K, AASM, Sleep-EDF, HMC and EDFbrowser labels become stage codes; movement and "?" are unscored; notes are no stage', () => {
    const { deep, light, rem, awake } = STAGE_CODES;
    const cases: Array<[string, number, number | null]> = [
      ['Sleep stage W', 30, awake], ['Sleep stage 1', 30, light], ['Sleep stage 2', 30, light], ['Sleep stage 3', 30, deep], ['Sleep stage 4', 30, deep],
      ['Sleep stage R', 30, rem], ['Sleep stage N1', 30, light], ['Sleep stage N2', 30, light], ['Sleep stage N3', 30, deep],
      ['W', 30, awake], ['N2', 30, light], ['R', 30, rem], ['REM', 30, rem], ['Wake', 30, awake], ['Stage 2', 30, light], ['4', 30, deep],
      ['Lights off@@EEG F4-A1', 0, null], ['Obstructive Apnea', 12, null], ['R', 0, null], ['2', 0, null],
    ];
    for (const [text, d, code] of cases) expect(stageOfText(text, d), text).toBe(code);
    for (const t of ['Sleep stage ?', 'Movement time', 'M', '?']) expect(Number.isNaN(stageOfText(t, 30)), t).toBe(true);
  });

  it("HMC's hypnogram: W 151, N1 109, N2 430, N3 23, R 141 epochs, as its provenance gives", () => {
    const part = parseRecordingFile('hmc.edf', real('hmc_SN001_hypnogram_test_edfann.edf'));
    expect(stageCounts(part.events)).toEqual({ W: 151, N1: 109, N2: 430, N3: 23, R: 141, unscored: 0 });
    const ch = part.channels.find((c) => c.code === 'SLP_STGS')!;
    const counts = new Map<number, number>();
    for (const v of ch.samples) counts.set(v, (counts.get(v) ?? 0) + 1);
    expect(Object.fromEntries(counts)).toEqual({ 5: 151, 2: 109 + 430, 1: 23, 4: 141 });
    expect(ch).toMatchObject({ sampleRate: 1 / 30, t0: part.events.find((e) => e.text.startsWith('Sleep stage'))!.onsetMs });
  });

  it('an epoch left out between stages stays missing, and a single stage note is no hypnogram', () => {
    const ch = hypnogramChannel([
      { onsetMs: 0, durationMs: 60_000, text: 'Sleep stage W' },
      { onsetMs: 90_000, durationMs: 30_000, text: 'Sleep stage 2' },
    ])!;
    expect(Array.from(ch.samples)).toEqual([5, 5, Number.NaN, 2]);
    expect(hypnogramChannel([{ onsetMs: 0, durationMs: 30_000, text: 'Sleep stage W' }])).toBeNull();
  });
});

describe('ResMed STR.edf', () => {
  it('is told apart by its signals, not its name; a night file is not one', () => {
    expect(isDeviceSummary(real('snore_resmed_STR.edf'))).toBe(true);
    expect(isDeviceSummary(real('snore_resmed_20250808_010210_BRP.edf'))).toBe(false);
  });

  it("a 0..65534 digital range is read as unsigned by the summary reader; the night reader still refuses it", () => {
    const bytes = real('snore_resmed_STR.edf').slice();
    const n = 78;
    // Signal 4 (MaskEvents, 0..255) declared 0..65534, as some STR files do.
    const dmaxAt = 256 + n * (16 + 80 + 8 + 8 + 8 + 8) + 3 * 8;
    bytes.set(new TextEncoder().encode('65534   '), dmaxAt);
    const s = readDeviceSummary(bytes, 'STR.edf', 'UTC');
    expect(s.daysRead).toBe(311);
    expect(s.days).toHaveLength(36);
    expect(s.days[0]).toMatchObject({ day: '2023-08-26', ahi: 0.9, usageMin: 63 });
    const edf = real('sleepedf_SC4001E0_short_psg.edf').slice();
    const signals = 7;
    edf.set(new TextEncoder().encode('65534   '), 256 + signals * (16 + 80 + 8 + 8 + 8 + 8));
    expect(() => readEdf(edf, 'psg.edf')).toThrow(/digital minimum\/maximum: .*65534 is outside the 16-bit range/);
  });
});
