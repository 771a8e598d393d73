import { describe, expect, it } from 'vitest';
import { AnnotationLayers, type AnnotationBand } from '../../src/charts/annotationLayers';
import { ChartBlock } from '../../src/charts/gl/block';
import { changedSpan, incrementalFilter, incrementalMap } from '../../src/features/annotations/incremental';
import { edited, insertSorted, withoutIds } from '../../src/features/annotations/listCache';
import { choices } from '../../src/features/annotations/listFilter';
import { counts, neighbour, neighbourOutside, type Annotation } from '../../src/features/annotations/model';
import { overlapping } from '../../src/features/annotations/ScoringPanel';
import { incrementalTally } from '../../src/features/annotations/tally';

// Issue 36 point 1: what is derived from the night's list is brought up to date for the changed
// span of each write, and must always equal deriving it again from the whole list.

const CODES = ['BR', 'HR', 'SPO2', 'I', 'Q'];
const TYPES = ['custom', 'custom', 'system', 'desaturation', 'device'] as const;

/** A small deterministic random source. */
function random(seed: number) {
  let s = seed;
  return (n: number) => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s % n;
  };
}

function annotation(id: number, r: (n: number) => number): Annotation {
  const start = r(500) * 1000;
  const kpiList = r(3) === 0 ? [CODES[r(5)], CODES[r(5)]].filter((c, i, all) => all.indexOf(c) === i) : [CODES[r(5)]];
  return {
    annotation_map_id: id, type: TYPES[r(5)], night: 1, kpi: kpiList.join(','), kpiList, start_ms: start, end_ms: start + (1 + r(60)) * 1000, start_time: '', end_time: '',
    duration: '0:00:10', comment: '', label: 1 + r(3), color_code: ['#DA7171', '#7FB3D5', '#76D7C4'][r(3)], created_by: 7 + r(3), created_by_name: ['Ada', 'Bo', ''][r(3)], updated_by: 7, updated_date: '', delete_flag: 0, version: 1,
  };
}

/** A run of writes as the cache makes them: adds, deletes, edits (moving or not), and now and then a reload. */
function* writes(seed: number, steps: number): Generator<Annotation[]> {
  const r = random(seed);
  let id = 1;
  let list: Annotation[] = insertSorted([], Array.from({ length: 300 }, () => annotation(id++, r)));
  yield list;
  for (let i = 0; i < steps; i++) {
    const pick = () => list[r(list.length)]?.annotation_map_id ?? 0;
    const kind = r(10);
    if (kind < 3) list = insertSorted(list, [annotation(id++, r)]);
    else if (kind < 5) list = withoutIds(list, [pick(), pick()]);
    else if (kind < 7) list = edited(list, pick(), { comment: `c${i}` });
    else if (kind < 9) list = edited(list, pick(), { start_time: r(500) * 1000, kpi: [CODES[r(5)]] });
    else list = insertSorted([], Array.from({ length: 100 + r(400) }, () => annotation(id++, r)));
    yield list;
  }
}

describe('incremental derivations of the night list', () => {
  it('finds the one changed span', () => {
    const [x, y, z, w] = [{}, {}, {}, {}];
    expect(changedSpan([x, y, z], [x, y, z])).toEqual({ from: 3, prevEnd: 3, nextEnd: 3 });
    expect(changedSpan([x, y, z], [x, w, y, z])).toEqual({ from: 1, prevEnd: 1, nextEnd: 2 });
    expect(changedSpan([x, y, z], [x, z])).toEqual({ from: 1, prevEnd: 2, nextEnd: 1 });
  });

  it('the spans writes record leave everything outside them as it was', () => {
    let before: readonly Annotation[] = [];
    for (const list of writes(5, 300)) {
      const { from, prevEnd, nextEnd } = changedSpan(before, list);
      expect(prevEnd - from).toBeGreaterThanOrEqual(0);
      expect(before.length - prevEnd).toBe(list.length - nextEnd);
      for (let i = 0; i < from; i++) expect(list[i]).toBe(before[i]);
      for (let i = prevEnd; i < before.length; i++) expect(list[nextEnd + i - prevEnd]).toBe(before[i]);
      before = list;
    }
  });

  it('filter, map and tally always equal their whole-list answers', () => {
    const keep = (a: Annotation) => a.type !== 'system' && a.kpiList.includes('BR');
    const filter = incrementalFilter(keep);
    const map = incrementalMap((a: Annotation) => ({ id: a.annotation_map_id }));
    const tally = incrementalTally();
    let before: readonly Annotation[] = [];
    for (const list of writes(7, 400)) {
      const kept = filter(list);
      expect(kept).toEqual(list.filter(keep));
      if (before.filter(keep).every((a, i) => a === kept[i]) && before.filter(keep).length === kept.length) expect(filter(list)).toBe(kept);
      expect(map(list).map((x) => x.id)).toEqual(list.map((a) => a.annotation_map_id));
      const t = tally(list);
      expect(t.counts).toEqual(counts(list));
      expect({ channels: t.channels, authors: t.authors.map((x) => x.id).sort() }).toEqual({ channels: choices(list).channels, authors: choices(list).authors.map((x) => x.id).sort() });
      expect(t.longestMs).toBeGreaterThanOrEqual(Math.max(0, ...list.map((a) => a.end_ms - a.start_ms)));
      before = list;
    }
  });

  it('the window and the neighbours by binary search equal a pass over the list', () => {
    const tally = incrementalTally();
    for (const list of writes(11, 60)) {
      const longest = tally(list).longestMs;
      for (const [t0, t1] of [[0, 30_000], [100_000, 160_000], [499_000, 600_000]]) {
        expect(overlapping(list, t0, t1, longest)).toEqual(list.filter((a) => a.start_ms < t1 && a.end_ms > t0));
        const sorted = [...list].sort((a, b) => a.start_ms - b.start_ms);
        expect(neighbour(list, t0, 1)).toBe(sorted.find((a) => a.start_ms > t0 + 500) ?? null);
        expect(neighbour(list, t1, -1)).toBe([...sorted].reverse().find((a) => a.start_ms < t1 - 500) ?? null);
        expect(neighbourOutside(list, { t0, t1 }, 1)).toBe(sorted.find((a) => a.start_ms >= t1) ?? null);
        expect(neighbourOutside(list, { t0, t1 }, -1)).toBe([...sorted].reverse().find((a) => a.start_ms < t0) ?? null);
      }
    }
  });
});

/** What a layer sink was last given for each block and key: its quads, sorted (their order draws the same). */
function recorder() {
  const layers = new Map<string, string[]>();
  const sink = (block: ChartBlock, key: string, quads: Float32Array, vertices: number) => {
    const out: string[] = [];
    for (let i = 0; i < vertices * 2; i += 12) out.push(Array.from(quads.subarray(i, i + 12)).join(' '));
    layers.set(`${block.id}/${key}`, out.sort());
  };
  return { layers, sink };
}

describe('annotation layers', () => {
  it('written for the changed bands only, they end as a layout from scratch', () => {
    const blocks = [new ChartBlock('br'), new ChartBlock('hr'), new ChartBlock('iq'), new ChartBlock('both')];
    const series = [['BR'], ['HR'], ['I', 'Q'], ['BR', 'SPO2']];
    const live = recorder();
    const layers = new AnnotationLayers(live.sink, () => 0);
    blocks.forEach((b, i) => layers.setBlock(b, series[i]));
    const toBand = (a: Annotation): AnnotationBand => ({ startMs: a.start_ms, endMs: a.end_ms, color: [a.label / 4, 0, 0, 0.3], codes: a.kpiList, style: a.type === 'device' ? 'device' : 'band' });
    const bands = incrementalMap(toBand);
    for (const list of writes(3, 300)) {
      const last = bands(list);
      layers.setBands(last);
      const scratch = recorder();
      const fresh = new AnnotationLayers(scratch.sink, () => 0);
      blocks.forEach((b, i) => fresh.setBlock(b, series[i]));
      fresh.setBands(last);
      for (const [key, quads] of live.layers) expect(quads, key).toEqual(scratch.layers.get(key) ?? []);
      for (const [key, quads] of scratch.layers) expect(live.layers.get(key), key).toEqual(quads);
    }
  });
});
