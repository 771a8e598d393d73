// What the sidebar and the scoring panel read off the whole night's annotations (the counts per
// kind, the channels and authors the filters offer, the longest annotation), kept up to date
// for the changed span of each new list instead of counted again over all of them.
import { changedSpan } from './incremental';
import type { Annotation } from './model';

interface Counts {
  system: number;
  custom: number;
  desaturation: number;
  device: number;
}

export interface Tally {
  counts: Counts;
  /** The channels the annotations are on, sorted (the channel filter's choices). */
  channels: readonly string[];
  /** The annotations' authors (device events have none), by name (the author filter's choices). */
  authors: ReadonlyArray<{ id: number; name: string }>;
  /** At least the longest annotation's length (ms): how far before a window an annotation over it may start. */
  longestMs: number;
}

const kindOf = (a: Pick<Annotation, 'type'>): keyof Counts =>
  a.type === 'custom' ? 'custom' : a.type === 'desaturation' ? 'desaturation' : a.type === 'device' ? 'device' : 'system';

/** The running counts behind a tally. */
class Running {
  counts: Counts = { system: 0, custom: 0, desaturation: 0, device: 0 };
  readonly channels = new Map<string, number>();
  readonly authors = new Map<number, { name: string; n: number }>();
  longestMs = 0;
  /** Whether a channel or an author came or went since the choices were last listed. */
  reshaped = true;

  add(a: Annotation, by: 1 | -1): void {
    this.counts[kindOf(a)] += by;
    for (const c of a.kpiList) {
      const n = (this.channels.get(c) ?? 0) + by;
      if (n > 0) this.channels.set(c, n);
      else this.channels.delete(c);
      if (n === 0 || (n === 1 && by === 1)) this.reshaped = true;
    }
    if (a.type !== 'device' && a.created_by !== null) this.author(a.created_by, a, by);
    if (by === 1) this.longestMs = Math.max(this.longestMs, a.end_ms - a.start_ms);
  }

  private author(id: number, a: Annotation, by: 1 | -1): void {
    const seen = this.authors.get(id);
    if (!seen) {
      if (by === 1) this.authors.set(id, { name: a.created_by_name ?? '', n: 1 });
      this.reshaped = true;
      return;
    }
    seen.n += by;
    if (seen.n <= 0) {
      this.authors.delete(id);
      this.reshaped = true;
    } else if (!seen.name && a.created_by_name && by === 1) {
      seen.name = a.created_by_name;
      this.reshaped = true;
    }
  }
}

/** A span this long or longer is counted again in full. */
const WHOLE = 2048;

/**
 * The tally of a night's list, kept up to date: each new list is counted in its changed span
 * only. The choices' arrays are the previous ones while no channel or author came or went.
 */
export function incrementalTally(): (list: readonly Annotation[]) => Tally {
  let input: readonly Annotation[] | null = null;
  let running = new Running();
  let tally: Tally = { counts: running.counts, channels: [], authors: [], longestMs: 0 };
  return (list) => {
    if (list === input) return tally;
    const prev = input;
    input = list;
    const span = prev ? changedSpan(prev, list) : null;
    if (!prev || !span || span.prevEnd - span.from + (span.nextEnd - span.from) >= WHOLE) {
      running = new Running();
      for (const a of list) running.add(a, 1);
    } else {
      running.counts = { ...running.counts };
      for (let i = span.from; i < span.prevEnd; i++) running.add(prev[i], -1);
      for (let i = span.from; i < span.nextEnd; i++) running.add(list[i], 1);
    }
    const reshaped = running.reshaped;
    running.reshaped = false;
    tally = {
      counts: running.counts,
      channels: reshaped ? [...running.channels.keys()].sort() : tally.channels,
      authors: reshaped ? [...running.authors].map(([id, { name }]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id) : tally.authors,
      longestMs: running.longestMs,
    };
    return tally;
  };
}
