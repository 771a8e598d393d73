// Sleep stages as charts draw them, in the browser's loader and in the server's overviews
// alike (one mapping, so an overview of the stages is what the engine shows once loaded).

/** Sleep-stage device codes to chart values (spec 2 §9): 1 deep→0, 2 light→1, 4 REM→2, 5 awake→3. */
const STAGE_MAP: Readonly<Record<number, number>> = { 1: 0, 2: 1, 4: 2, 5: 3 };

/** The channel whose stored codes are mapped before they are charted. */
export const STAGES_CODE = 'SLP_STGS';

/** Maps stage codes in place; unknown codes other than the missing codes become -1 (missing). */
export function mapStages(samples: Int16Array | Float32Array, scale = 1, offset = 0): void {
  for (let i = 0; i < samples.length; i++) {
    const raw = samples[i]!;
    if (raw === -1 || raw === -2) continue;
    const mapped = STAGE_MAP[Math.round(raw * scale + offset)];
    samples[i] = mapped === undefined ? -1 : (mapped - offset) / scale;
  }
}
