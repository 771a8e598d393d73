import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChannelRef, ViewResult } from '../../engine/index';
import { ChartBlock } from '../../src/charts/gl/block';
import type { ChartRenderer, RendererOptions } from '../../src/charts/gl/renderer';
import { ChartScreen } from '../../src/charts/screen';

// The screen without WebGL: a renderer that records what it is asked to do (given to the
// screen, not mocked: the unit files share one module registry, where another file may have
// loaded the screen with the real renderer first).
const calls: string[] = [];
class FakeRenderer {
  range = { t0: 0, t1: 1 };
  constructor(_canvas: unknown, readonly options: RendererOptions) {}
  addBlock = (id: string) => new ChartBlock(id);
  setLayer = () => undefined;
  setVisible = () => undefined;
  removeBlock = () => undefined;
  requestFrame = () => calls.push('request');
  drawNow = () => calls.push(this.options.isComplete?.() ? 'draw' : 'skip');
  destroy = () => undefined;
}
const fake = (canvas: HTMLCanvasElement, options: RendererOptions) => new FakeRenderer(canvas, options) as unknown as ChartRenderer;

const H = 3_600_000;
const night = { t0: 1_700_000_000_000, t1: 1_700_000_000_000 + 10 * H };

function flatViews(refs: readonly ChannelRef[], t0: number, t1: number, pixels: number): Promise<ViewResult[]> {
  const col = () => new Float32Array(pixels).fill(1);
  const x = Float32Array.from({ length: pixels }, (_, i) => ((i + 0.5) * (t1 - t0)) / pixels);
  return Promise.resolve(refs.map(() => ({ origin: t0, pixels, pxMs: (t1 - t0) / pixels, x, first: col(), min: col(), max: col(), last: col(), flags: new Uint8Array(pixels), buffer: new ArrayBuffer(0) }) as unknown as ViewResult));
}

describe('chart screen', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('draws a range change the buffers hold in its own task, and only asks for a frame for one they do not', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const screen = new ChartScreen({} as HTMLCanvasElement, { views: flatViews }, night, {}, fake);
    screen.setPlotWidth(1000);
    screen.setBlock(screen.renderer.addBlock('BR'), [{ ref: { night: 'n', code: 'BR' }, style: 'line', color: [0, 0, 0, 1] }]);
    screen.view.dispatch({ type: 'zoom', range: { t0: night.t0 + H, t1: night.t0 + 2 * H } });
    // The visible window, then its margins a moment later.
    await vi.advanceTimersByTimeAsync(500);
    expect(screen.feeder.covers()).toBe(true);
    // A pan inside the fetched margins: drawn now.
    calls.length = 0;
    screen.view.dispatch({ type: 'moveTo', at: night.t0 + 2 * H });
    expect(calls.at(-1)).toBe('draw');
    // A zoom needs new columns: a frame is asked for, nothing drawn until they arrive.
    calls.length = 0;
    screen.view.dispatch({ type: 'zoom', range: { t0: night.t0 + 2 * H, t1: night.t0 + 2 * H + 60_000 } });
    expect(calls).toContain('request');
    expect(calls).not.toContain('draw');
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.at(-1)).toBe('draw');
    screen.destroy();
  });
});
