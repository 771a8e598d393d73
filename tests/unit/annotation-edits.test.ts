import { describe, expect, it } from 'vitest';
import type { AnnotationDraft } from '../../src/features/annotations/api';
import { AnnotationEdits, type AnnotationWrites } from '../../src/features/annotations/editCommands';
import { EditHistory } from '../../src/features/annotations/editHistory';
import { parseDuration, parseUtc } from '../../server/annotations/format';
import type { Annotation } from '../../src/features/annotations/model';

/**
 * An in-memory server with the real rules that matter here: new ids on add, versions checked on
 * update, and the span read as the server reads it (a duration in h:m:s, or an end time).
 */
function fakeServer() {
  const rows = new Map<number, Annotation>();
  let next = 1;
  const make = (d: AnnotationDraft, id: number, version: number): Annotation => {
    const end = d.duration !== undefined ? d.start_time + (parseDuration(d.duration) ?? Number.NaN) : d.end_time !== undefined ? parseUtc(d.end_time) : null;
    // The server's answer to a span it cannot read (spec 2 §9's message).
    if (end === null || !(end > d.start_time)) throw new Error('Please select valid annotation duration.');
    return {
      annotation_map_id: id, type: d.type ?? 'custom', night: 1, kpi: d.kpi.join(','), kpiList: d.kpi, start_ms: d.start_time, end_ms: end,
      start_time: '', end_time: '', duration: '', comment: d.comment.replace(/\\(.)/g, '$1'), label: d.label, color_code: d.color_code,
      created_by: 1, updated_by: 1, updated_date: '', delete_flag: 0, version,
    };
  };
  const writes: AnnotationWrites = {
    add: async (d) => {
      const a = make(d, next++, 1);
      rows.set(a.annotation_map_id, a);
      return [a];
    },
    update: async (ref, c) => {
      const cur = rows.get(ref.annotation_map_id);
      if (!cur) throw new Error('not found');
      if (cur.version !== ref.version) throw new Error('stale');
      if (c.delete_flag === 1) {
        rows.delete(cur.annotation_map_id);
        return { ...cur, delete_flag: 1, version: cur.version + 1 };
      }
      const a = make({ ...{ kpi: cur.kpiList, start_time: cur.start_ms, end_time: cur.end_ms, label: cur.label, color_code: cur.color_code, comment: cur.comment }, ...c } as AnnotationDraft, cur.annotation_map_id, cur.version + 1);
      rows.set(a.annotation_map_id, a);
      return a;
    },
    remove: async (ids) => ids.forEach((id) => rows.delete(id)),
  };
  return { rows, writes, durations: () => [...rows.values()].map((a) => (a.end_ms - a.start_ms) / 1000) };
}

/** A draft as the form sends it: its duration in h:m:s. */
const draft = (durationS: number): AnnotationDraft => ({ kpi: ['BR'], start_time: 60_000, duration: `0:${Math.floor(durationS / 60)}:${durationS % 60}`, label: 1, color_code: '#DA7171', comment: "it's" });

describe('undo and redo of annotation edits', () => {
  it('undo of an edit restores the previous version; redo re-applies the edit; the add is undone only after', async () => {
    const s = fakeServer();
    const edits = new AnnotationEdits(s.writes);
    const history = new EditHistory();
    history.push(await edits.add(draft(15), 'Apnea'));
    const added = [...s.rows.values()][0];
    history.push(await edits.edit(added, draft(45), 'Apnea'));
    expect(s.durations()).toEqual([45]);
    await history.undo();
    expect(s.durations()).toEqual([15]);
    await history.redo();
    expect(s.durations()).toEqual([45]);
    await history.undo();
    await history.undo();
    expect(s.durations()).toEqual([]);
    await history.redo();
    await history.redo();
    expect(s.durations()).toEqual([45]);
    expect([...s.rows.values()][0].comment).toBe("it's");
  });

  it('undo of a delete makes the annotation again, and an earlier edit still undoes on the re-made one', async () => {
    const s = fakeServer();
    const edits = new AnnotationEdits(s.writes);
    const history = new EditHistory();
    const [a] = await s.writes.add(draft(15));
    history.push(await edits.edit(a, draft(45), 'Apnea'));
    history.push(await edits.remove([...s.rows.values()], 'Apnea'));
    expect(s.durations()).toEqual([]);
    await history.undo();
    expect(s.durations()).toEqual([45]);
    expect([...s.rows.keys()]).not.toContain(a.annotation_map_id);
    await history.undo();
    expect(s.durations()).toEqual([15]);
    await history.redo();
    await history.redo();
    expect(s.durations()).toEqual([]);
  });

  it('undoes the delete or edit of a mark of an hour, or of 10.25 s at 100.5 s, exactly as it was', async () => {
    const s = fakeServer();
    const edits = new AnnotationEdits(s.writes);
    const history = new EditHistory();
    const [hour] = await s.writes.add({ ...draft(15), duration: '1:00:00' });
    history.push(await edits.remove([hour], 'Hypoapnea'));
    await history.undo();
    expect(s.durations()).toEqual([3600]);
    // An imported mark to the millisecond: its edit undone gives back its own times.
    const [fine] = await s.writes.add({ ...draft(15), start_time: 100_500, duration: undefined, end_time: 110_750 });
    history.push(await edits.edit(fine, draft(45), 'Apnea'));
    await history.undo();
    const back = [...s.rows.values()].find((a) => a.start_ms === 100_500)!;
    expect([back.start_ms, back.end_ms]).toEqual([100_500, 110_750]);
  });
});

describe('presses that come while an undo is saving', () => {
  it('are queued in order, not dropped', async () => {
    const log: string[] = [];
    let release = () => {};
    const slow = new Promise<void>((r) => (release = r));
    const h = new EditHistory();
    h.push({ label: 'a', undo: async () => void log.push('-a'), redo: async () => void log.push('+a') });
    h.push({ label: 'b', undo: async () => { await slow; log.push('-b'); }, redo: async () => void log.push('+b') });
    const first = h.undo();
    const second = h.undo();
    release();
    expect((await first)?.label).toBe('b');
    expect((await second)?.label).toBe('a');
    expect(log).toEqual(['-b', '-a']);
  });
});
