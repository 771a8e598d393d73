import { describe, expect, it } from 'vitest';
import { epochCount, epochNumber, epochStep, snapStart, EPOCH_MS } from '../../src/time/epochs';
import { initialView, viewReducer, type ViewAction, type ViewState } from '../../src/state/viewReducer';
import { EditHistory } from '../../src/features/annotations/editHistory';
import { annotationChannels, defaultBindings, scoredWindow, scoringDraft } from '../../src/features/annotations/scoringKeys';
import { ChartBlock } from '../../src/charts/gl/block';
import { easeY } from '../../src/charts/gl/renderer';

const domain = { t0: 1_700_000_000_000, t1: 1_700_000_000_000 + 10 * 3_600_000 + 12_345 };
const run = (state: ViewState, ...actions: ViewAction[]) => actions.reduce(viewReducer, state);

describe('scoring epochs', () => {
  it('counts epochs from the recording start, the last one partial', () => {
    expect(epochCount(domain)).toBe(1201);
    expect(epochNumber({ t0: domain.t0, t1: domain.t0 + EPOCH_MS }, domain)).toBe(1);
    expect(epochNumber({ t0: domain.t0 + 411 * EPOCH_MS, t1: domain.t0 + 412 * EPOCH_MS }, domain)).toBe(412);
  });

  it('steps whole windows on the epoch grid, clamped to the night', () => {
    const off = { t0: domain.t0 + 36_000, t1: domain.t0 + 66_000 };
    expect(epochStep(off, domain, 1)).toEqual({ t0: domain.t0 + 60_000, t1: domain.t0 + 90_000 });
    expect(epochStep({ t0: domain.t0, t1: domain.t0 + EPOCH_MS }, domain, -1)).toEqual({ t0: domain.t0, t1: domain.t0 + EPOCH_MS });
    expect(snapStart({ t0: domain.t0 + 44_000, t1: domain.t0 + 74_000 }, domain).t0).toBe(domain.t0 + 30_000);
    // After Shift+→ (18 s into epoch 14, epoch 15 shown in part), → shows epoch 15, not 16; ← epoch 14.
    const shifted = { t0: domain.t0 + 13 * EPOCH_MS + 18_000, t1: domain.t0 + 14 * EPOCH_MS + 18_000 };
    expect(epochNumber(epochStep(shifted, domain, 1), domain)).toBe(15);
    expect(epochStep(shifted, domain, 1).t0).toBe(domain.t0 + 14 * EPOCH_MS);
    expect(epochNumber(epochStep(shifted, domain, -1), domain)).toBe(14);
    expect(epochStep(shifted, domain, -1).t0).toBe(domain.t0 + 13 * EPOCH_MS);
  });

  it('the 30-s preset starts on the grid; epoch steps are not undo steps; an overview click picks the epoch clicked', () => {
    const s = run(initialView(domain), { type: 'drag', from: domain.t0 + 100_000, to: domain.t0 + 200_000 }, { type: 'preset', preset: '30s' });
    expect(s.range).toEqual({ t0: domain.t0 + 90_000, t1: domain.t0 + 120_000 });
    const past = s.past.length;
    const stepped = run(s, { type: 'epoch', direction: 1 }, { type: 'epoch', direction: 1 });
    expect(stepped.range.t0).toBe(domain.t0 + 150_000);
    expect(stepped.past.length).toBe(past);
    expect(run(s, { type: 'moveTo', at: domain.t0 + 3_600_000 + 17_000, snap: true }).range.t0).toBe(domain.t0 + 3_600_000);
    // An annotation jump centres its start, off the grid.
    expect(run(s, { type: 'moveTo', at: domain.t0 + 3_600_000 + 17_000 }).range.t0).toBe(domain.t0 + 3_600_000 + 2_000);
    expect(run(s, { type: 'scrub', t0: domain.t0 + 100_000, snap: true }).range.t0).toBe(domain.t0 + 90_000);
  });
});

describe('undo and redo of annotation edits', () => {
  it('walks back and forth, and a new edit clears what was undone', async () => {
    const log: string[] = [];
    const h = new EditHistory();
    const edit = (name: string) => ({ label: name, undo: async () => void log.push(`-${name}`), redo: async () => void log.push(`+${name}`) });
    h.push(edit('a'));
    h.push(edit('b'));
    expect((await h.undo())?.label).toBe('b');
    expect((await h.undo())?.label).toBe('a');
    expect(await h.undo()).toBeNull();
    expect((await h.redo())?.label).toBe('a');
    h.push(edit('c'));
    expect(h.canRedo).toBe(false);
    expect(log).toEqual(['-b', '-a', '+a']);
  });

  it('keeps an edit whose undo failed', async () => {
    const h = new EditHistory();
    h.push({ label: 'x', undo: async () => { throw new Error('offline'); }, redo: async () => {} });
    await expect(h.undo()).rejects.toThrow('offline');
    expect(h.canUndo).toBe(true);
  });
});

describe('scoring keys', () => {
  const cats = [1, 2, 3].map((id) => ({ label_id: id, label: `c${id}`, color_code: '#DA7171', type: 'built-in' as const, version: 1 }));
  it('binds the categories in order by default and writes a 30-s annotation of the epoch', () => {
    expect(defaultBindings(cats)).toEqual({ 1: 1, 2: 2, 3: 3 });
    const w = scoredWindow({ t0: domain.t0 + 60_000, t1: domain.t0 + 90_000 }, domain.t0);
    expect(scoringDraft(cats[2]!, w, ['BR'])).toEqual({ kpi: ['BR'], start_time: domain.t0 + 60_000, duration: '30', label: 3, color_code: '#DA7171', comment: '' });
    // A wider window scores the epoch at its centre.
    expect(scoredWindow({ t0: domain.t0, t1: domain.t0 + 180_000 }, domain.t0)).toEqual({ start: domain.t0 + 90_000, end: domain.t0 + 120_000 });
  });
  it('expands IQ and keeps only the night’s channels', () => {
    expect(annotationChannels(['IQ', 'BR', 'SLP_STGS'], ['I', 'Q', 'BR'])).toEqual(['I', 'Q', 'BR']);
  });
});

describe('auto-scaled value axes', () => {
  it('widen at once (never clipping) and narrow over frames', () => {
    const b = new ChartBlock('x');
    b.yMin = -37;
    b.yMax = 40;
    b.yAuto = true;
    b.yTarget = [-4, 4.5];
    let frames = 0;
    while (easeY(b)) {
      frames++;
      expect(b.yMin).toBeLessThanOrEqual(-4);
      expect(b.yMax).toBeGreaterThanOrEqual(4.5);
    }
    expect(frames).toBeGreaterThan(2);
    expect([b.yMin, b.yMax]).toEqual([-4, 4.5]);
    b.yTarget = [-10, 4];
    easeY(b);
    expect(b.yMin).toBe(-10);
  });
});
