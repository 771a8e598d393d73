import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LayoutWatch } from '../../src/charts/gl/layoutWatch';

/**
 * The one canvas follows boxes the layout slides (a dashboard tile moved by the grid, the
 * sidebar's width): while such a CSS transition runs there is no event on the way, so the
 * watch asks for a frame every display frame until it ends.
 */
describe('LayoutWatch and layout transitions', () => {
  let listeners: Map<string, Set<(e: unknown) => void>>;
  let frames: ((t: number) => void)[];
  let now: number;
  let changes: number;
  let watch: LayoutWatch;

  beforeEach(() => {
    listeners = new Map();
    frames = [];
    now = 1_000;
    changes = 0;
    const on = (type: string, fn: (e: unknown) => void) => {
      if (!listeners.has(type)) listeners.set(type, new Set());
      listeners.get(type)!.add(fn);
    };
    const off = (type: string, fn: (e: unknown) => void) => listeners.get(type)?.delete(fn);
    vi.stubGlobal('document', { addEventListener: on, removeEventListener: off, body: null, documentElement: null });
    vi.stubGlobal('window', { addEventListener: () => undefined, removeEventListener: () => undefined });
    vi.stubGlobal('requestAnimationFrame', (fn: (t: number) => void) => frames.push(fn));
    vi.stubGlobal('cancelAnimationFrame', () => undefined);
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    watch = new LayoutWatch(() => changes++);
  });
  afterEach(() => {
    watch.destroy();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  const fire = (type: string, target: object, propertyName: string) => {
    for (const fn of listeners.get(type) ?? []) fn({ type, target, propertyName });
  };
  /** One display frame: the frames asked for run; returns the changes reported in it. */
  const frame = () => {
    const due = frames;
    frames = [];
    now += 16;
    const before = changes;
    for (const f of due) f(now);
    return changes - before;
  };

  it('asks for a frame every display frame while a tile slides, and stops once it has arrived', () => {
    const tile = { isConnected: true };
    fire('transitionrun', tile, 'transform');
    expect([frame(), frame(), frame()]).toEqual([1, 1, 1]);
    fire('transitionend', tile, 'transform');
    // The end itself asks for one more draw (the box's last place); then no more frames.
    expect(changes).toBe(4);
    expect(frame()).toBe(1);
    expect([frame(), frame()]).toEqual([0, 0]);
  });

  it('follows two properties of one box until both ended, and a cancelled one as ended', () => {
    const sidebar = { isConnected: true };
    fire('transitionrun', sidebar, 'grid-template-columns');
    fire('transitionrun', sidebar, 'width');
    fire('transitioncancel', sidebar, 'width');
    expect(frame()).toBe(1);
    expect(frame()).toBe(1);
    fire('transitionend', sidebar, 'grid-template-columns');
    frame();
    expect(frame()).toBe(0);
  });

  it('ignores transitions that move nothing (colours, shadows, opacity)', () => {
    const button = { isConnected: true };
    for (const property of ['background-color', 'color', 'box-shadow', 'opacity']) fire('transitionrun', button, property);
    expect(frames).toHaveLength(0);
  });

  it('stops following a box removed mid-way (no end comes) and, at the latest, 2 s after the last start', () => {
    const removed = { isConnected: true };
    fire('transitionrun', removed, 'transform');
    frame();
    removed.isConnected = false;
    frame();
    expect(frame()).toBe(0);
    const stuck = { isConnected: true };
    fire('transitionrun', stuck, 'left');
    let frames2s = 0;
    while (frame() > 0 && frames2s < 1_000) frames2s++;
    expect(frames2s).toBeGreaterThan(100);
    expect(frames2s).toBeLessThanOrEqual(2_000 / 16 + 1);
  });
});
