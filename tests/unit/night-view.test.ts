import { describe, expect, it } from 'vitest';
import { createViewStore } from '../../src/state/view';
import { initialView, UNDO_LIMIT, viewReducer, type ViewAction, type ViewState } from '../../src/state/viewReducer';

const H = 3_600_000;
const night = { t0: 1_000 * H, t1: 1_010 * H };
const run = (state: ViewState, ...actions: ViewAction[]) => actions.reduce(viewReducer, state);

describe('view range reducer', () => {
  it('starts on the full night, or on a preset', () => {
    expect(run(initialView(), { type: 'init', domain: night }).range).toEqual(night);
    const s = run(initialView(), { type: 'init', domain: night, preset: '30s' });
    expect(s.range).toEqual({ t0: night.t0, t1: night.t0 + 30_000 });
    expect(s.preset).toBe('30s');
  });

  it('undoes and redoes zooms but not page steps', () => {
    let s = run(initialView(night), { type: 'preset', preset: '30s' });
    s = run(s, { type: 'page', direction: 1 }, { type: 'page', direction: 1 });
    expect(s.past).toHaveLength(1);
    const paged = s.range;
    s = run(s, { type: 'doubleClick', at: night.t0 + 5 * H });
    expect(s.range.t1 - s.range.t0).toBe(180_000);
    expect(s.preset).toBe('custom');
    s = run(s, { type: 'undo' });
    expect(s.range).toEqual(paged);
    expect(s.preset).toBe('30s');
    s = run(s, { type: 'redo' });
    expect(s.range.t1 - s.range.t0).toBe(180_000);
    s = run(s, { type: 'undo' }, { type: 'undo' });
    expect(s.range).toEqual(night);
    expect(run(s, { type: 'undo' })).toBe(s);
  });

  it('a second double-click shows the scoring epoch that holds the point, on the 30-s grid, in the scoring mode', () => {
    let s = run(initialView(), { type: 'init', domain: night }, { type: 'doubleClick', at: night.t0 + 5 * H + 17_345 });
    expect(s.range.t1 - s.range.t0).toBe(180_000);
    s = run(s, { type: 'doubleClick', at: night.t0 + 5 * H + 44_000 });
    // 5 h 0 min 44 s into the night lies in the epoch from 5 h 0 min 30 s.
    expect(s.range).toEqual({ t0: night.t0 + 5 * H + 30_000, t1: night.t0 + 5 * H + 60_000 });
    expect(s.preset).toBe('30s');
    // The arrow keys then step epoch by epoch on the grid.
    s = run(s, { type: 'epoch', direction: 1 });
    expect(s.range.t0).toBe(night.t0 + 5 * H + 60_000);
  });

  it('a wheel gesture (Ctrl + wheel, a pinch) is one undo step, however many steps it takes', () => {
    const at = night.t0 + 5 * H;
    let s = run(initialView(), { type: 'init', domain: night });
    s = run(s, { type: 'zoomAround', at, factor: 0.8, continues: false }, { type: 'zoomAround', at, factor: 0.8, continues: true }, { type: 'zoomAround', at, factor: 0.8, continues: true });
    expect(s.range.t1 - s.range.t0).toBeCloseTo(10 * H * 0.512, 0);
    expect(s.preset).toBe('custom');
    expect(s.past).toHaveLength(1);
    const first = s.range;
    // A later gesture is a step of its own.
    s = run(s, { type: 'zoomAround', at, factor: 0.5, continues: false });
    expect(s.past).toHaveLength(2);
    s = run(s, { type: 'undo' });
    expect(s.range).toEqual(first);
    s = run(s, { type: 'undo' });
    expect(s.range).toEqual(night);
    // Zooming out past the night changes nothing and adds no step.
    expect(run(s, { type: 'zoomAround', at, factor: 2, continues: false })).toBe(s);
  });

  it('clears the redo stack on a new zoom and resets to the night', () => {
    let s = run(initialView(night), { type: 'drag', from: night.t0 + H, to: night.t0 + 2 * H }, { type: 'undo' });
    expect(s.future).toHaveLength(1);
    s = run(s, { type: 'preset', preset: '5m' });
    expect(s.future).toHaveLength(0);
    s = run(s, { type: 'reset' });
    expect(s.range).toEqual(night);
    expect(s.preset).toBe('full');
  });

  it('keeps at most UNDO_LIMIT steps and ignores no-op actions', () => {
    let s = initialView(night);
    for (let i = 0; i < UNDO_LIMIT + 20; i++) s = run(s, { type: 'zoom', range: { t0: night.t0 + i * 1000, t1: night.t0 + H + i * 1000 } });
    expect(s.past).toHaveLength(UNDO_LIMIT);
    expect(run(s, { type: 'drag', from: night.t0, to: night.t0 + 10 })).toBe(s);
    const full = initialView(night);
    expect(run(full, { type: 'page', direction: 1 })).toBe(full);
  });

  it('moves the window to a point of the overview keeping its width', () => {
    const s = run(initialView(night), { type: 'preset', preset: '10m' }, { type: 'moveTo', at: night.t0 + 5 * H });
    expect(s.range).toEqual({ t0: night.t0 + 5 * H - 300_000, t1: night.t0 + 5 * H + 300_000 });
    expect(s.past).toHaveLength(1);
  });
});

describe('view store', () => {
  it('tells range listeners synchronously and exposes undo/redo flags', () => {
    const view = createViewStore(night);
    const heard: number[] = [];
    const off = view.onRange((r) => heard.push(r.t1 - r.t0));
    view.dispatch({ type: 'preset', preset: '1m' });
    view.dispatch({ type: 'page', direction: 1 });
    expect(heard).toEqual([60_000, 60_000]);
    expect(view.store.canUndo).toBe(true);
    expect(view.store.canRedo).toBe(false);
    view.dispatch({ type: 'undo' });
    expect(view.store.canRedo).toBe(true);
    expect(view.store.preset).toBe('full');
    off();
    view.dispatch({ type: 'redo' });
    expect(heard).toHaveLength(3);
  });
});
