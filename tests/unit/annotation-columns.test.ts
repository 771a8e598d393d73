import { describe, expect, it } from 'vitest';
import type { AnnotationColumns } from '../../contract/annotations';
import { fromColumns, withDevice } from '../../src/features/annotations/columns';
import type { Annotation } from '../../src/features/annotations/model';

// Decision 0994: the list call's compact answer made into the list the screen keeps.

const page = (ids: number[], starts: number[]): AnnotationColumns => ({
  columns: {
    annotation_map_id: ids,
    type: ids.map(() => 'custom' as const),
    night: ids.map(() => 1_795_392_000),
    kpi: ids.map((id) => (id % 2 ? 'BR,HR' : 'SPO2')),
    start_ms: starts,
    end_ms: starts.map((s, i) => s + 10_000 + i * 3_600_000),
    comment: ids.map((id) => `note ${id}`),
    label: ids.map(() => 3),
    color_code: ids.map(() => '#7FB3D5'),
    created_by: ids.map((id) => (id % 2 ? 7 : 8)),
    updated_by: ids.map(() => 8),
    delete_flag: ids.map(() => 0),
    version: ids.map((id) => id + 1),
  },
  authors: [
    { id: 7, name: 'Ada Test' },
    { id: 8, name: 'Bo Test' },
  ],
  device: [],
  next_cursor: null,
});

const device = (id: number, start: number): Annotation => ({
  annotation_map_id: id, type: 'device', night: 1, kpi: 'NC_PSG', kpiList: ['NC_PSG'], start_ms: start, end_ms: start + 1000,
  duration: '0:00:01', comment: 'Central Apnea', label: 1, color_code: '#5D6D7E', created_by: null, updated_by: null, delete_flag: 0, version: 1, read_only: true,
});

describe('the list from columns', () => {
  it('makes each annotation with the fields the list had: channels, duration, author', () => {
    const [a, b] = fromColumns(page([5, 6], [1000, 2000]));
    expect(a).toEqual({
      annotation_map_id: 5, type: 'custom', night: 1_795_392_000, kpi: 'BR,HR', kpiList: ['BR', 'HR'], start_ms: 1000, end_ms: 11_000, duration: '0:00:10',
      comment: 'note 5', label: 3, color_code: '#7FB3D5', created_by: 7, created_by_name: 'Ada Test', updated_by: 8, delete_flag: 0, version: 6,
    });
    expect(b).toMatchObject({ kpiList: ['SPO2'], duration: '1:00:10', created_by_name: 'Bo Test' });
  });

  it('appends the pages in order and merges the device events in by start, then id', () => {
    const own = fromColumns(page([4, 9], [5000, 9000]), fromColumns(page([2, 3], [1000, 5000])));
    expect(own.map((a) => a.annotation_map_id)).toEqual([2, 3, 4, 9]);
    const list = withDevice(own, [device(-2, 9500), device(-7, 5000), device(-1, 0)]);
    expect(list.map((a) => a.annotation_map_id)).toEqual([-1, 2, -7, 3, 4, 9, -2]);
    expect(withDevice(own, [])).toBe(own);
  });
});
