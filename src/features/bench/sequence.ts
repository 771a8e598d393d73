// The scripted benchmark sequence: arrow-key paging in 30-s windows, zooming in and out,
// full-night pans and full-night redraws, on our renderer and on uPlot with the same data.
import type { FrameInfo } from '../../charts/gl/renderer';
import type { ChartScreen } from '../../charts/screen';
import type { PresetId } from '../../time/constants';
import { percentile } from '../../../engine/percentile';
import { KEY_DEBOUNCE_MS } from '../../time/epochs';

/** Frames of our renderer as they are drawn, and waiting for the next final one. */
export class FrameLog {
  readonly frames: FrameInfo[] = [];
  private waiters: ((f: FrameInfo) => void)[] = [];

  readonly push = (f: FrameInfo): void => {
    this.frames.push(f);
    if (!f.complete) return;
    const waiting = this.waiters;
    this.waiters = [];
    for (const w of waiting) w(f);
  };

  /** The next frame that drew final data for its range. */
  nextComplete(timeoutMs = 10_000): Promise<FrameInfo> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no complete frame')), timeoutMs);
      this.waiters.push((f) => {
        clearTimeout(timer);
        resolve(f);
      });
    });
  }
}

const nextFrame = () => new Promise<number>((r) => requestAnimationFrame(r));

async function settle(screen: ChartScreen, log: FrameLog): Promise<void> {
  screen.renderer.requestFrame();
  for (let i = 0; i < 200; i++) {
    await nextFrame();
    await nextFrame();
    if (screen.feeder.covers() && log.frames.at(-1)?.complete) return;
  }
}

/** Where one zoom or pan spent its time (ms from the action): the benchmark's breakdown. */
export interface Timed {
  /** The action to the end of the first final frame. */
  latency: number;
  /** The engine's views arrived (null: the frame was drawn from buffers already there). */
  data: number | null;
  /** The final frame started; its own duration (draw to gl.finish). */
  frameStart: number;
  frame: number;
  /** Frames drawn before the final one (stretched old data while the worker computed). */
  early: number;
  /** What the action was (a preset, or the pan's target hour). */
  label?: string;
}

/**
 * Times an action from its start to the end of the first final frame after it; null for an
 * action that leaves the range as it was (a pan already at the night's edge): the renderer
 * draws no frame for it (nothing on screen changes), so there is nothing to time.
 */
async function timed(screen: ChartScreen, log: FrameLog, action: () => void): Promise<Timed | null> {
  const waiting = log.nextComplete();
  let data: number | null = null;
  const off = screen.feeder.onData(() => {
    data ??= performance.now();
  });
  const from = log.frames.length;
  const before = screen.view.store.state.range;
  const t = performance.now();
  action();
  if (screen.view.store.state.range === before) {
    off();
    waiting.catch(() => undefined);
    await nextFrame();
    return null;
  }
  const f = await waiting;
  off();
  const early = log.frames.indexOf(f, from) - from;
  await nextFrame();
  return { latency: f.end - t, data: data === null ? null : data - t, frameStart: f.start - t, frame: f.end - f.start, early };
}

/**
 * Times a full-night range change as work: from the action until the feeder has the
 * engine's new views, plus the frame that draws them — the idle wait for the display's
 * next frame left out, as uPlot's synchronous redraw has none.
 */
async function timedWork(screen: ChartScreen, log: FrameLog, action: () => void): Promise<number> {
  const arrived = new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no views arrived')), 10_000);
    const off = screen.feeder.onData(() => {
      off();
      clearTimeout(timer);
      resolve(performance.now());
    });
  });
  const waiting = log.nextComplete();
  const t = performance.now();
  action();
  const dataAt = await arrived;
  const f = await waiting;
  await nextFrame();
  return dataAt - t + (f.end - f.start);
}

/** Measured page steps and the unmeasured warm-up steps before them (ours and uPlot's alike). */
const PAGING_STEPS = 100;
const PAGING_WARMUP = 20;

/** Lets the spec's key debounce pass since the last plain arrow press (a user's presses are no closer). */
const debounce = () => new Promise((r) => setTimeout(r, KEY_DEBOUNCE_MS + 10));

/** Waits a random part of a frame interval: real key presses arrive at any phase of the display's frame. */
const randomPhase = () => new Promise((r) => setTimeout(r, Math.random() * 16));

/** The display's frame interval, ms: the median of 30 animation-frame deltas. */
async function frameInterval(): Promise<number> {
  const deltas: number[] = [];
  let last = await nextFrame();
  for (let i = 0; i < 30; i++) {
    const now = await nextFrame();
    deltas.push(now - last);
    last = now;
  }
  return percentile(deltas, 0.5);
}

/**
 * One page step as a user makes it, timed the same way for us and for uPlot: a display
 * frame starts (vsync), the key arrives at a random phase of it, the step is painted at
 * `end`. It made the next display frame when `end` is before the end of the first frame
 * that starts after the key (`vsync + k·interval`, k the first whole number of intervals
 * after the key, plus one interval). `work`: the time spent painting (ours: the frame
 * that drew it, to gl.finish; uPlot: setScale on every chart until its canvases rastered).
 */
interface PageStep {
  latency: number;
  work: number;
  missed: boolean;
}

async function pageStep(interval: number, step: () => Promise<{ end: number; work: number }>): Promise<PageStep> {
  const vsync = await nextFrame();
  await randomPhase();
  const t = performance.now();
  const { end, work } = await step();
  const deadline = vsync + Math.ceil((t - vsync) / interval) * interval + interval;
  return { latency: end - t, work, missed: end > deadline };
}

export interface OurResults {
  paging: number[];
  /** Duration of the frame that drew each page step (our share of the latency). */
  pagingWork: number[];
  /** Page steps not painted in the next display frame. */
  pagingMissed: number;
  /** Page steps whose first frame lacked their data (a second frame once the worker answered). */
  pagingSecondFrames: number;
  /** The display's frame interval, ms. */
  interval: number;
  zoom: number[];
  pan: number[];
  /** The slowest zoom and pan with where their time went. */
  slowest: { zoom: Timed; pan: Timed };
  fullChange: number[];
  fullRedraw: number[];
  frames: number[];
}

/** Runs the sequence on our screen. Keys go through the real keydown handler. */
export async function runOurs(screen: ChartScreen, log: FrameLog): Promise<OurResults> {
  const { dispatch } = screen.view;
  const domain = screen.view.store.state.domain;
  const first = log.frames.length;
  await settle(screen, log);

  const fullRedraw: number[] = [];
  for (let i = 0; i < 30; i++) {
    const waiting = log.nextComplete();
    // The same picture again: drawn all the same (the renderer skips a frame that would draw nothing new).
    screen.renderer.redraw();
    const f = await waiting;
    fullRedraw.push(f.end - f.start);
    await nextFrame();
  }
  const fullChange: number[] = [];
  for (let i = 0; i < 20; i++) {
    // 95% of the night: new columns, so the engine recomputes every view.
    fullChange.push(await timedWork(screen, log, () => dispatch({ type: 'zoom', range: { t0: domain.t0 + (domain.t1 - domain.t0) * 0.05, t1: domain.t1 } })));
    fullChange.push(await timedWork(screen, log, () => dispatch({ type: 'reset' })));
  }

  dispatch({ type: 'preset', preset: '30s' });
  await settle(screen, log);
  const interval = await frameInterval();
  let secondFrames = 0;
  const press = (key: string) => pageStep(interval, async () => {
    const waiting = log.nextComplete();
    const from = log.frames.length;
    // The real keydown handler, with the spec's debounce: presses come KEY_DEBOUNCE_MS apart.
    window.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
    screen.renderer.requestFrame();
    const f = await waiting;
    // A frame drawn before the final one lacked the step's data: the step waited on the worker.
    if (log.frames.slice(from, log.frames.indexOf(f)).some((d) => !d.complete)) secondFrames++;
    return { end: f.end, work: f.end - f.start };
  });
  const steps: PageStep[] = [];
  // Warm-up steps (JIT, first buffer growth) are not measured, as in bench/timing.ts.
  for (let i = 0; i < PAGING_WARMUP; i++) {
    await debounce();
    await press('ArrowRight');
  }
  secondFrames = 0;
  for (let i = 0; i < PAGING_STEPS; i++) {
    await debounce();
    steps.push(await press(i % 40 < 30 ? 'ArrowRight' : 'ArrowLeft'));
  }
  const paging = steps.map((p) => p.latency);
  const pagingWork = steps.map((p) => p.work);
  const pagingMissed = steps.filter((p) => p.missed).length;

  const { zoom, pan } = await runZoomPan(screen, log);
  dispatch({ type: 'reset' });
  await settle(screen, log);
  const frames = log.frames.slice(first).map((f) => f.end - f.start);
  const slowestOf = (ts: Timed[]) => ts.reduce((a, b) => (b.latency > a.latency ? b : a));
  return {
    paging, pagingWork, pagingMissed, pagingSecondFrames: secondFrames, interval,
    zoom: zoom.map((z) => z.latency), pan: pan.map((p) => p.latency), slowest: { zoom: slowestOf(zoom), pan: slowestOf(pan) },
    fullChange, fullRedraw, frames,
  };
}

/** Page steps made before zooming when the zoom/pan part runs alone (the full sequence pages first). */
const ZOOM_PAN_LEAD_STEPS = 6;

/**
 * Zooms through the presets and back, then pans a 1-h window across the night in 21 jumps,
 * each timed from the action to the end of its first final frame. Run alone by
 * `run({ only: 'zoompan' })` (bench/render-ab.ts), from a 30-s window as paging leaves it.
 */
export async function runZoomPan(screen: ChartScreen, log: FrameLog, alone = false): Promise<{ zoom: Timed[]; pan: Timed[] }> {
  const { dispatch } = screen.view;
  const domain = screen.view.store.state.domain;
  if (alone) {
    // Where the full sequence's paging leaves it: a 30-s window three hours in.
    dispatch({ type: 'zoom', range: { t0: domain.t0 + 3 * 3_600_000, t1: domain.t0 + 3 * 3_600_000 + 30_000 } });
    await settle(screen, log);
    // …and as its last steps leave it: margins fetched in the background, some still in flight.
    for (let i = 0; i < ZOOM_PAN_LEAD_STEPS; i++) {
      await debounce();
      const waiting = log.nextComplete();
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
      screen.renderer.requestFrame();
      await waiting;
    }
  }
  // Every action starts in an animation-frame callback, as each one after the first does (timed()
  // ends with one): not in the task that drew the last page step, before the browser has even
  // read that frame back for its compositor (no user acts between a frame drawn and shown).
  await nextFrame();
  const zoom: Timed[] = [];
  const presets: PresetId[] = ['1m', '3m', '5m', '8m', '10m', '20m', 'full', '20m', '10m', '5m', '1m', '30s'];
  for (const preset of presets) {
    const z = await timed(screen, log, () => dispatch({ type: 'preset', preset }));
    if (z) zoom.push({ ...z, label: preset });
  }

  const pan: Timed[] = [];
  dispatch({ type: 'zoom', range: { t0: domain.t0, t1: domain.t0 + 3_600_000 } });
  await settle(screen, log);
  for (let i = 0; i <= 20; i++) {
    const at = domain.t0 + ((domain.t1 - domain.t0) * i) / 20;
    const p = await timed(screen, log, () => dispatch({ type: 'moveTo', at }));
    if (p) pan.push({ ...p, label: `${i}/20` });
  }
  return { zoom, pan };
}

/** The subset of uPlot's instance API the peer run uses. */
export interface UplotLike {
  setScale(key: string, limits: { min: number; max: number }): void;
  readonly ctx: CanvasRenderingContext2D;
}

export interface PeerResults {
  full: number[];
  paging: number[];
  pagingWork: number[];
  pagingMissed: number;
}

/**
 * Sets the x range of every chart and waits until it is painted: uPlot commits in a
 * microtask, then one pixel read from each canvas makes the browser raster what was
 * drawn (ours is timed to gl.finish, so uPlot's raster is timed too).
 */
async function uplotRedraw(plots: readonly UplotLike[], min: number, max: number): Promise<void> {
  for (const u of plots) u.setScale('x', { min, max });
  await Promise.resolve();
  for (const u of plots) u.ctx.getImageData(0, 0, 1, 1);
}

/** Times uPlot redraws: full-night range changes, then page steps made like ours (30-s epochs, same counts, same timing). */
export async function runUplot(plots: readonly UplotLike[], t0s: number, t1s: number): Promise<PeerResults> {
  const frame = async (min: number, max: number) => {
    const t = performance.now();
    await uplotRedraw(plots, min, max);
    const d = performance.now() - t;
    await nextFrame();
    return d;
  };
  const full: number[] = [];
  for (let i = 0; i < 10; i++) {
    full.push(await frame(t0s + 1, t1s));
    full.push(await frame(t0s, t1s));
  }
  const interval = await frameInterval();
  let a = t0s + 3 * 3600;
  const press = (direction: 1 | -1) => pageStep(interval, async () => {
    const t = performance.now();
    a += direction * 30;
    await uplotRedraw(plots, a, a + 30);
    const end = performance.now();
    return { end, work: end - t };
  });
  for (let i = 0; i < PAGING_WARMUP; i++) await press(1);
  const steps: PageStep[] = [];
  for (let i = 0; i < PAGING_STEPS; i++) steps.push(await press(i % 40 < 30 ? 1 : -1));
  return { full, paging: steps.map((s) => s.latency), pagingWork: steps.map((s) => s.work), pagingMissed: steps.filter((s) => s.missed).length };
}

/** The figures bench/results/render.json holds (ms). */
export function summarize(ours: OurResults, peer: PeerResults) {
  const r = (v: number) => Math.round(v * 100) / 100;
  const oursFull = percentile(ours.fullChange, 0.5);
  const uplotFull = percentile(peer.full, 0.5);
  return {
    paging_p50: r(percentile(ours.paging, 0.5)),
    paging_p95: r(percentile(ours.paging, 0.95)),
    paging_work_p95: r(percentile(ours.pagingWork, 0.95)),
    frame_p50: r(percentile(ours.frames, 0.5)),
    frame_p99: r(percentile(ours.frames, 0.99)),
    uplot_frame_p50: r(uplotFull),
    uplot_ratio: r(uplotFull / oursFull),
    full_night_change_p50: r(oursFull),
    full_night_redraw_p50: r(percentile(ours.fullRedraw, 0.5)),
    uplot_ratio_redraw: r(uplotFull / percentile(ours.fullRedraw, 0.5)),
    zoom_p50: r(percentile(ours.zoom, 0.5)),
    zoom_p95: r(percentile(ours.zoom, 0.95)),
    pan_p50: r(percentile(ours.pan, 0.5)),
    pan_p95: r(percentile(ours.pan, 0.95)),
    zoom_slowest: ours.slowest.zoom,
    pan_slowest: ours.slowest.pan,
    paging_frames_missed_pct: r((100 * ours.pagingMissed) / ours.paging.length),
    paging_second_frames: ours.pagingSecondFrames,
    uplot_paging_frames_missed_pct: r((100 * peer.pagingMissed) / peer.paging.length),
    uplot_paging_work_p95: r(percentile(peer.pagingWork, 0.95)),
    uplot_paging_p50: r(percentile(peer.paging, 0.5)),
    uplot_paging_p95: r(percentile(peer.paging, 0.95)),
    paging_steps: ours.paging.length,
    frame_interval: r(ours.interval),
    frames: ours.frames.length,
  };
}
