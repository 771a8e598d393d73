import { describe, expect, it } from 'vitest';
import { edited, insertSorted, provisional, replaced, withoutIds } from '../../src/features/annotations/listCache';
import { choices, filtered, NO_FILTER, sourceOf } from '../../src/features/annotations/listFilter';
import type { Annotation } from '../../src/features/annotations/model';

// Issue 36 point 1: the cached list changed in place of a refetch, and the list's filters.

const a = (id: number, start: number, extra: Partial<Annotation> = {}): Annotation => ({
  annotation_map_id: id, type: 'custom', night: 1, kpi: 'BR', kpiList: ['BR'], start_ms: start, end_ms: start + 10_000, start_time: '', end_time: '',
  duration: '0:00:10', comment: '', label: 1, color_code: '#DA7171', created_by: 7, created_by_name: 'Ada Test', updated_by: 7, updated_date: '', delete_flag: 0, version: 1, ...extra,
});

describe('the cached annotation list', () => {
  const list = [a(1, 1000), a(2, 2000), a(3, 2000), a(4, 5000)];

  it('inserts in (start, id) order without changing the list given', () => {
    const out = insertSorted(list, [a(9, 2000), a(0, 0), a(10, 9000)]);
    expect(out.map((x) => x.annotation_map_id)).toEqual([0, 1, 2, 3, 9, 4, 10]);
    expect(list).toHaveLength(4);
  });

  it('a provisional annotation is what the draft will make, under a negative id', () => {
    const p = provisional({ kpi: ['BR', 'HR'], start_time: 3000, duration: '0:1:5', label: 2, color_code: '#7FB3D5', comment: "O\\'Neill" }, { id: 7, name: 'Ada Test' });
    expect(p).toMatchObject({ kpi: 'BR,HR', start_ms: 3000, end_ms: 68_000, duration: '0:01:05', label: 2, comment: "O'Neill", created_by_name: 'Ada Test' });
    expect(p.annotation_map_id).toBeLessThan(-1e11);
    expect(provisional({ kpi: ['BR'], start_time: 0, duration: '90', label: 1, color_code: '#DA7171', comment: '' }, { id: 7, name: '' }).end_ms).toBe(90_000);
  });

  it('an edit moves an annotation whose start changed, a delete flag takes it out', () => {
    expect(edited(list, 1, { start_time: 6000 }).map((x) => x.annotation_map_id)).toEqual([2, 3, 4, 1]);
    expect(edited(list, 2, { comment: 'x' })[1].comment).toBe('x');
    expect(edited(list, 2, { delete_flag: 1 }).map((x) => x.annotation_map_id)).toEqual([1, 3, 4]);
    expect(withoutIds(list, [1, 4]).map((x) => x.annotation_map_id)).toEqual([2, 3]);
  });

  it("the server's answer replaces the guess and keeps the author's name", () => {
    const saved = a(3, 500, { version: 2, created_by_name: undefined });
    const out = replaced(list, 3, saved);
    expect(out.map((x) => x.annotation_map_id)).toEqual([3, 1, 2, 4]);
    expect(out[0]).toMatchObject({ version: 2, created_by_name: 'Ada Test' });
  });
});

describe('the list filters', () => {
  const list = [a(1, 0), a(2, 1, { type: 'system', label: 2 }), a(3, 2, { type: 'device', kpiList: ['HR'] }), a(4, 3, { created_by: 8, created_by_name: 'Bo', kpiList: ['BR', 'HR'] })];

  it('filter by category, channel, author and source', () => {
    expect(filtered(list, NO_FILTER)).toBe(list);
    expect(filtered(list, { ...NO_FILTER, category: 2 }).map((x) => x.annotation_map_id)).toEqual([2]);
    expect(filtered(list, { ...NO_FILTER, channel: 'HR' }).map((x) => x.annotation_map_id)).toEqual([3, 4]);
    expect(filtered(list, { ...NO_FILTER, author: 7 }).map((x) => x.annotation_map_id)).toEqual([1, 2]);
    expect(filtered(list, { ...NO_FILTER, source: 'human', channel: 'BR' }).map((x) => x.annotation_map_id)).toEqual([1, 4]);
    expect(list.map(sourceOf)).toEqual(['human', 'automatic', 'device', 'human']);
  });

  it("offers the night's channels and authors (device events have none)", () => {
    expect(choices(list)).toEqual({ channels: ['BR', 'HR'], authors: [{ id: 7, name: 'Ada Test' }, { id: 8, name: 'Bo' }] });
  });
});
