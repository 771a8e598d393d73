/**
 * How a source signal's label (EDF, CSV) is read, the same on both sides: the server maps
 * labels to Nocturne's channel codes by it (server/recordings/labels.ts), and the UI names
 * the labels that stay codes of their own (src/builtInNames.ts, decision 1001).
 */

/** ResMed writes the sample period after a dot: 'Flow.40ms', 'SpO2.1s', 'Leak.2s', 'TidVol.0.5s'. */
const RESMED_SUFFIX = /\.(\d+(?:\.\d+)?)(ms|s)$/i;

/** The key a label is matched by: suffix stripped, lower case, letters and digits only. */
export function normaliseLabel(label: string): string {
  return label.trim().replace(RESMED_SUFFIX, '').toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** A sample period as the label wrote it: its value, its unit, and the decimals it was written with. */
export interface LabelPeriod {
  value: number;
  unit: 'ms' | 's';
  decimals: number;
}

/** The sample period a label carries ('Leak.2s' → 2 s, 'Flow.40ms' → 40 ms), or null when it carries none. */
export function labelPeriod(label: string): LabelPeriod | null {
  const m = RESMED_SUFFIX.exec(label.trim());
  if (!m) return null;
  return { value: Number(m[1]), unit: m[2]!.toLowerCase() as 'ms' | 's', decimals: m[1]!.split('.')[1]?.length ?? 0 };
}
