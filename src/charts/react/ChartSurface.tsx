import { createContext, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import type { TimeRange } from '../../time/range';
import type { ViewSource } from '../feeder';
import type { RendererOptions } from '../gl/renderer';
import { ChartScreen } from '../screen';
import { takeFirstCanvas } from '../gl/warmCanvas';

const ScreenContext = createContext<ChartScreen | null>(null);

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
  const hostRef = useRef<HTMLSpanElement>(null);
  const [screen, setScreen] = useState<ChartScreen | null>(null);
  useLayoutEffect(() => {
    // A first-paint screen's canvas may have been made ahead, with its picture memory (decision 1029).
    const canvas = options?.glAfterFirstPaint ? takeFirstCanvas() : document.createElement('canvas');
    canvas.className = 'chart-canvas';
    canvas.setAttribute('aria-hidden', 'true');
    canvas.dataset.testid = 'chart-canvas';
    hostRef.current!.append(canvas);
    const created = new ChartScreen(canvas, source, domain, options);
    setScreen(created);
    return () => {
      created.destroy();
      // The renderer's canvas: a WebGL one in this one's place once it left 2D (glAfterFirstPaint).
      created.renderer.canvas.remove();
      canvas.remove();
    };
    // One screen per surface (created once): its owner remounts it with a key for another night.
  }, []);
  return (
    <>
      <span ref={hostRef} className="chart-canvas-host" />
      {screen && <ScreenContext.Provider value={screen}>{children(screen)}</ScreenContext.Provider>}
    </>
  );
}
