import type { Night } from './model';
import type { CodeSource } from './sessions';

/** One imported channel as the import summary lists it. */
interface SummaryChannel {
  code: string;
  label: string;
  /** Samples per second. */
  rate: number;
  unit: string;
  samples: number;
  /** Samples made missing: outside the code's physiological range / not finite (ranges.ts). */
  outOfRange: number;
  nonFinite: number;
}

/** What an import did with each signal of its files (issue 12 §7–8). */
export interface ImportSummary {
  channels: SummaryChannel[];
  /** Checksum and status signals, not imported as channels. */
  skipped: { file: string; label: string; reason: string }[];
  /** Labels the default map would have given a code their unit or rate does not fit: kept under their own label. */
  unmapped: { file: string; label: string; code: string; reason: string }[];
  /** Which file(s) each code came from, with its valid samples (a channel with none never holds a code one with data can fill). */
  sources: CodeSource[];
}

interface FileMeta {
  fileName?: string;
  skippedSignals?: { label: string; reason: string }[];
  unmappedLabels?: { label: string; code: string; reason: string }[];
}

/** The summary of a night just read from files (before it is stored). */
export function importSummary(night: Night): ImportSummary {
  const files = (night.meta.files as FileMeta[] | undefined) ?? [];
  return {
    channels: night.channels.map((c) => ({
      code: c.code,
      label: c.label,
      rate: c.sampleRate,
      unit: c.unit,
      samples: c.samples.length,
      outOfRange: c.rejected?.outOfRange ?? 0,
      nonFinite: c.rejected?.nonFinite ?? 0,
    })),
    skipped: files.flatMap((f) => (f.skippedSignals ?? []).map((s) => ({ file: f.fileName ?? '', label: s.label, reason: s.reason }))),
    unmapped: files.flatMap((f) => (f.unmappedLabels ?? []).map((u) => ({ file: f.fileName ?? '', ...u }))),
    sources: sourcesOf(night),
  };
}

/** The sources of the night's channels under the codes they are stored with (a merge may rename them). */
function sourcesOf(night: Night): CodeSource[] {
  const listed = (night.meta.sources as CodeSource[] | undefined) ?? [];
  return night.channels.map((c) => {
    const s = listed.find((x) => x.code === c.code) ?? listed.find((x) => x.label === c.label);
    return { code: c.code, label: c.label, files: s?.files ?? [], valid: s?.valid ?? c.samples.length };
  });
}
