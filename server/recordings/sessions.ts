/**
 * A night is all of its sessions. A CPAP night where the mask came off twice is three sets of
 * files (ResMed: a BRP, PLD, SA2, EVE, CSL per session); the same signal of each session is
 * one channel of the night, the sessions one after the other with a gap between them, as an
 * EDF+D file keeps discontinuous records: nothing is invented in a gap, its samples are
 * missing (NaN). Which source keeps a code is decided by content, never by file order.
 */
import { validSampleCount } from '../../engine/valid-count';
import type { ChannelData, Segment } from './model';

/** A channel with the file it came from. */
export interface SourcedChannel {
  channel: ChannelData;
  fileName: string;
}

/** Where a code of the night came from (the import summary's "source" column). */
export interface CodeSource {
  code: string;
  label: string;
  files: string[];
  /** Valid samples (0: every sample missing). */
  valid: number;
}

/** Samples that are valid by the engine's rules. */
export function validCountOf(c: ChannelData): number {
  return validSampleCount({ code: c.code, samples: c.samples, scale: c.scale, offset: c.offset, missingCodes: c.missingCodes ?? [] });
}

const sameCodes = (a?: readonly number[], b?: readonly number[]) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** True when b can continue a's channel: same signal (label, unit, rate), same digital scale and missing codes. */
export function joinable(a: ChannelData, b: ChannelData): boolean {
  return a.code === b.code && a.label === b.label && a.unit === b.unit && a.sampleRate === b.sampleRate && a.scale === b.scale && a.offset === b.offset && sameCodes(a.missingCodes, b.missingCodes);
}

/** Index of b's first sample on a's sample grid (the offset snaps to the nearest sample: at most half a sample period). */
export function gridIndex(a: Pick<ChannelData, 't0' | 'sampleRate'>, t0: number): number {
  return Math.round(((t0 - a.t0) * a.sampleRate) / 1000);
}

/** The samples the pieces' readers rejected, together (none: no field). */
function rejectedOf(pieces: readonly ChannelData[]): Pick<ChannelData, 'rejected'> {
  const rejected = pieces.reduce(
    (r, p) => ({ outOfRange: r.outOfRange + (p.rejected?.outOfRange ?? 0), nonFinite: r.nonFinite + (p.rejected?.nonFinite ?? 0) }),
    { outOfRange: 0, nonFinite: 0 },
  );
  return rejected.outOfRange || rejected.nonFinite ? { rejected } : {};
}

/** A channel's sessions (ChannelData.segments), or the channel as one session. */
export function segmentsOf(c: ChannelData): readonly Segment[] {
  return c.segments ?? [{ t0: c.t0, at: 0, n: c.samples.length }];
}

/**
 * The pieces of one signal as one channel on the first piece's sample grid (pieces sorted by
 * t0, none overlapping the one before). Contiguous int16 pieces stay int16; with a gap the
 * channel becomes float32 digital values (exact for int16 and 24-bit values) with NaN in
 * the gap, as EDF+D records with gaps are read. The channel remembers each piece's own start
 * (`segments`), so a stored night it joins later places each on its own nearest sample.
 */
export function joinPieces(pieces: readonly ChannelData[]): ChannelData {
  if (pieces.length === 1) return pieces[0];
  const first = pieces[0];
  const starts = pieces.map((p) => gridIndex(first, p.t0));
  const last = pieces.length - 1;
  const total = starts[last] + pieces[last].samples.length;
  const contiguous = pieces.every((_, i) => i === 0 || starts[i] === starts[i - 1] + pieces[i - 1].samples.length);
  const allInt16 = pieces.every((p) => p.storage === 'int16');
  let samples: Int16Array | Float32Array;
  if (contiguous && allInt16) {
    samples = new Int16Array(total);
    pieces.forEach((p, i) => samples.set(p.samples, starts[i]));
  } else {
    samples = new Float32Array(total).fill(Number.NaN);
    pieces.forEach((p, i) => samples.set(p.samples, starts[i]));
  }
  const segments = pieces.flatMap((p, i) => segmentsOf(p).map((s) => ({ t0: s.t0, at: starts[i] + s.at, n: s.n })));
  return { ...first, storage: contiguous && allInt16 ? 'int16' : 'float32', samples, segments, ...rejectedOf(pieces) };
}

/**
 * `old`, a channel of a stored night, with `piece` of the same signal from a later upload:
 * before it, after it, or across its gaps — where they overlap, no sample is held by both
 * (the gaps between sessions are missing samples, NaN). Every session of both (`segments`)
 * is placed as one upload of them all places it (joinPieces): the earliest exactly at its
 * time, each other one on its own nearest sample of that grid, never on the nearest sample
 * of a grid that was itself rounded: sessions 1–2 uploaded one day and 3–4 the next, or 3–4
 * and then 1–2, make the same channel as all four at once. Null when they are not one signal
 * or both hold a sample at one time (`piece` is then kept as a channel of its own: nothing
 * is overwritten).
 */
export function joinInto(old: ChannelData, piece: ChannelData): ChannelData | null {
  if (!joinable(old, piece)) return null;
  const sessions = [...segmentsOf(old).map((s) => ({ s, of: old })), ...segmentsOf(piece).map((s) => ({ s, of: piece }))].sort((x, y) => x.s.t0 - y.s.t0);
  const grid = { t0: sessions[0]!.s.t0, sampleRate: old.sampleRate };
  const blocks = sessions.map(({ s, of }) => ({ t0: s.t0, at: gridIndex(grid, s.t0), samples: of.samples.subarray(s.at, s.at + s.n) }));
  const length = Math.max(...blocks.map((b) => b.at + b.samples.length));
  const segments = blocks.map((b) => ({ t0: b.t0, at: b.at, n: b.samples.length }));
  const { rejected: _, ...rest } = old;
  const joined = { ...rest, t0: grid.t0, segments, ...rejectedOf([old, piece]) };
  // One session after the other, int16 all: the samples as they are (no gap to mark).
  const contiguous = blocks.every((b, i) => i === 0 || b.at === blocks[i - 1]!.at + blocks[i - 1]!.samples.length);
  if (contiguous && old.storage === 'int16' && piece.storage === 'int16') {
    const samples = new Int16Array(length);
    for (const b of blocks) samples.set(b.samples, b.at);
    return { ...joined, storage: 'int16', samples };
  }
  const samples = new Float32Array(length).fill(Number.NaN);
  for (const b of blocks) {
    for (let j = 0; j < b.samples.length; j++) {
      const v = b.samples[j]!;
      if (Number.isNaN(v)) continue;
      if (!Number.isNaN(samples[b.at + j]!)) return null;
      samples[b.at + j] = v;
    }
  }
  return { ...joined, storage: 'float32', samples };
}

interface Chain {
  pieces: ChannelData[];
  files: string[];
  endIndex: number;
  /** Position of its first piece in the input: the night lists channels in file and signal order. */
  order: number;
}

/** The code a channel is kept under when `taken` already holds codes: its source label, else '<label>#2', '#3' … */
export function fallbackCode(channel: Pick<ChannelData, 'code' | 'label'>, taken: ReadonlySet<string>): string {
  if (!taken.has(channel.code)) return channel.code;
  if (!taken.has(channel.label)) return channel.label;
  for (let n = 2; ; n++) {
    const candidate = `${channel.label}#${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/**
 * The channels of a night's files, one per signal: pieces of the same signal from
 * different sessions (same code, label, unit, rate and scale, not overlapping in time)
 * joined into one. When several channels still offer one code (two oximeters, a CPAP's
 * all-missing pulse beside an oximeter's), the one with the most valid samples keeps it
 * (ties: earlier t0, then file name), so a channel whose every sample is missing never takes
 * a code one with data can fill; the others keep their own label (fallbackCode). `taken`:
 * codes already in the night (a later upload's channels join those first, see night-files.ts).
 * Channels come in the order of `input` (assembleNight sorts files by start, then name, so
 * the order files arrive in changes nothing).
 */
export function joinChannels(input: readonly SourcedChannel[], taken: Set<string> = new Set()): { channels: ChannelData[]; sources: CodeSource[] } {
  const sorted = input
    .map((s, i) => ({ ...s, i }))
    .sort((a, b) => a.channel.t0 - b.channel.t0 || (a.fileName < b.fileName ? -1 : a.fileName > b.fileName ? 1 : a.i - b.i));
  const chains: Chain[] = [];
  for (const { channel, fileName, i } of sorted) {
    const chain = chains.find((c) => joinable(c.pieces[0], channel) && gridIndex(c.pieces[0], channel.t0) >= c.endIndex);
    if (chain) {
      chain.pieces.push(channel);
      chain.endIndex = gridIndex(chain.pieces[0], channel.t0) + channel.samples.length;
      chain.order = Math.min(chain.order, i);
      if (!chain.files.includes(fileName)) chain.files.push(fileName);
    } else chains.push({ pieces: [channel], files: [fileName], endIndex: channel.samples.length, order: i });
  }
  chains.sort((a, b) => a.order - b.order);
  const joined = chains.map((c) => ({ chain: c, channel: joinPieces(c.pieces) }));
  const valid = new Map(joined.map((j) => [j.chain, validCountOf(j.channel)]));
  // Per code, the chain with data keeps it; every code's winner is placed before any fallback label.
  const ranked = [...joined].sort(
    (a, b) => (valid.get(b.chain)! - valid.get(a.chain)!) || a.channel.t0 - b.channel.t0 || (a.chain.files[0] < b.chain.files[0] ? -1 : a.chain.files[0] > b.chain.files[0] ? 1 : a.chain.order - b.chain.order),
  );
  const codeOf = new Map<Chain, string>();
  for (const j of ranked) {
    if (!taken.has(j.channel.code)) {
      codeOf.set(j.chain, j.channel.code);
      taken.add(j.channel.code);
    }
  }
  for (const j of ranked) {
    if (codeOf.has(j.chain)) continue;
    const code = fallbackCode(j.channel, taken);
    codeOf.set(j.chain, code);
    taken.add(code);
  }
  const channels = joined.map((j) => {
    const code = codeOf.get(j.chain)!;
    return code === j.channel.code ? j.channel : { ...j.channel, code };
  });
  const sources = joined.map((j, k) => ({ code: channels[k].code, label: j.channel.label, files: j.chain.files, valid: valid.get(j.chain)! }));
  return { channels, sources };
}

/** A file of a night as recording_meta.files lists it. */
export interface NightFileMeta {
  fileName?: string;
  /** 'EDF', 'EDF+D', 'oximeter-csv' … */
  format?: string;
  startMs?: number;
  stopMs?: number;
  /** Signals the file brought (0: annotations only); absent for nights stored before sessions. */
  signals?: number;
}

/** One session of a night: a stretch of time its signal files cover together. */
export interface NightSession {
  start: number;
  end: number;
  duration_ms: number;
  files: string[];
}

/**
 * The sessions of a night from its files: signal files whose spans overlap (or touch within
 * a minute) form one session; an annotation-only file (ResMed EVE/CSL) joins the session it
 * starts in or nearest to, whatever its events span. A signal file covering several sessions
 * (an all-night oximeter) joins them into one.
 */
export function nightSessions(files: readonly NightFileMeta[]): NightSession[] {
  const known = files.filter((f): f is Required<Pick<NightFileMeta, 'fileName' | 'startMs' | 'stopMs'>> & NightFileMeta => typeof f.fileName === 'string' && Number.isFinite(f.startMs) && Number.isFinite(f.stopMs));
  const signal = known.filter((f) => f.signals === undefined || f.signals > 0);
  const base = signal.length > 0 ? signal : known;
  const TOUCH_MS = 60_000;
  const sessions: NightSession[] = [];
  for (const f of [...base].sort((a, b) => a.startMs - b.startMs || (a.fileName < b.fileName ? -1 : 1))) {
    const last = sessions[sessions.length - 1];
    if (last && f.startMs <= last.end + TOUCH_MS) {
      last.end = Math.max(last.end, f.stopMs);
      last.files.push(f.fileName);
    } else sessions.push({ start: f.startMs, end: f.stopMs, duration_ms: 0, files: [f.fileName] });
  }
  for (const f of known) {
    if (base.includes(f) || sessions.length === 0) continue;
    // From the file's start to the session (0 inside it): ResMed writes a session's (AirSense 11) or a
    // night's (AirSense 10) EVE and CSL seconds before its first signal file, under its start time.
    const distance = (s: NightSession) => (f.startMs < s.start ? s.start - f.startMs : Math.max(0, f.startMs - s.end));
    const best = sessions.reduce((a, b) => (distance(b) < distance(a) ? b : a));
    best.files.push(f.fileName);
  }
  for (const s of sessions) {
    s.duration_ms = s.end - s.start;
    s.files.sort();
  }
  return sessions;
}
