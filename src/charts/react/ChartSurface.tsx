import { createContext, useContext, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import type { TimeRange } from '../core/range';
import type { ViewSource } from '../feeder';
import type { RendererOptions } from '../gl/renderer';
import { ChartScreen } from '../screen';

const ScreenContext = createContext<ChartScreen | null>(null);

/** The chart screen of the surrounding ChartSurface. */
export function useChartScreen(): ChartScreen {
  const screen = useContext(ScreenContext);
  if (!screen) throw new Error('useChartScreen outside ChartSurface');
  return screen;
}

/**
 * Owns the one canvas and WebGL context of a screen (fixed over the viewport, under
 * the DOM overlays) and the ChartScreen; renders its children once both exist.
 */
export function ChartSurface({ source, domain, options, children }: {
  source: ViewSource;
  domain: TimeRange;
  options?: RendererOptions;
  children: (screen: ChartScreen) => ReactNode;
}) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [screen, setScreen] = useState<ChartScreen | null>(null);
  useLayoutEffect(() => {
    const created = new ChartScreen(canvasRef.current!, source, domain, options);
    setScreen(created);
    return () => created.destroy();
    // One screen per surface (created once): its owner remounts it with a key for another night.
  }, []);
  return (
    <>
      <canvas ref={canvasRef} className="chart-canvas" aria-hidden="true" data-testid="chart-canvas" />
      {screen && <ScreenContext.Provider value={screen}>{children(screen)}</ScreenContext.Provider>}
    </>
  );
}
