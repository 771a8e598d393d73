// Counters the e2e tests and the benchmark read on window.__nocturneStats. They cost a
// few increments; nothing in the app reads them.

export interface NocturneStats {
  /** Frames the renderer drew (each inside one animation frame callback). */
  frames: number;
  /** GL draw calls issued. */
  drawCalls: number;
  /** Whether the last frame drew data final for its range (not a stretched older view). */
  lastFrameComplete: boolean;
  /** Frames drawn before the data for their range had arrived (a page step that needed a second frame adds one). */
  incompleteFrames: number;
  /** Renders of the review screen's components, by component name. */
  renders: Record<string, number>;
}

declare global {
  interface Window {
    __nocturneStats?: NocturneStats;
  }
}

const fresh = (): NocturneStats => ({ frames: 0, drawCalls: 0, lastFrameComplete: false, incompleteFrames: 0, renders: {} });
const fallback = fresh();

/** The shared counters (on window in a browser). */
export function stats(): NocturneStats {
  if (typeof window === 'undefined') return fallback;
  window.__nocturneStats ??= fresh();
  return window.__nocturneStats;
}

/** Counts one render of a component (call in its body). */
export function countRender(name: string): void {
  const s = stats();
  s.renders[name] = (s.renders[name] ?? 0) + 1;
}

/** User-timing mark of the first frame that drew a chart's data (first paint, read by the benchmark and tests). */
export const FIRST_CHART_MARK = 'nocturne:first-chart';

/** User-timing mark of the first frame that had chart data to draw, on screen or below the fold. */
export const CHARTS_FRAMED_MARK = 'nocturne:charts-framed';

let framed: (() => void) | null = null;
/** Whether this page had its CHARTS_FRAMED_MARK frame. */
let framedYet = false;
const framedPromise = typeof window === 'undefined' ? Promise.resolve() : new Promise<void>((resolve) => (framed = resolve));

/**
 * Resolves once a frame of this page had chart data to draw (the CHARTS_FRAMED_MARK frame;
 * the charts on screen were drawn in it), or after `timeoutMs` if none did: work the first
 * paint does not need waits behind it.
 */
export function chartsFramed(timeoutMs: number): Promise<void> {
  return Promise.race([framedPromise, new Promise<void>((resolve) => setTimeout(resolve, timeoutMs))]);
}

/** Whether a frame of this page had chart data to draw yet (what `chartsFramed` waits for). */
export function chartsFramedYet(): boolean {
  return framedYet;
}

/** Sets a user-timing mark once per page (later calls with the same name do nothing), with `detail` for its readers. */
export function markOnce(name: string, detail?: unknown): void {
  if (typeof performance === 'undefined' || performance.getEntriesByName(name, 'mark').length > 0) return;
  performance.mark(name, detail === undefined ? undefined : { detail });
  if (name !== CHARTS_FRAMED_MARK) return;
  framedYet = true;
  framed?.();
}
