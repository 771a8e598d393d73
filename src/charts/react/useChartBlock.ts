import { useLayoutEffect, useRef, useState } from 'react';
import type { ChartBlock } from '../gl/block';
import type { ChartScreen } from '../screen';

/** Registers a block for the element the returned ref lands on; unregisters on unmount. */
export function useChartBlock(screen: ChartScreen, id: string) {
  const ref = useRef<HTMLDivElement>(null);
  const [block, setBlock] = useState<ChartBlock | null>(null);
  useLayoutEffect(() => {
    const b = screen.renderer.addBlock(id);
    b.el = ref.current;
    setBlock(b);
    screen.renderer.requestFrame();
    return () => screen.dropBlock(b);
  }, [screen, id]);
  return { ref, block };
}

/** Tells the screen the plots' width whenever the measured element resizes. */
export function usePlotWidth(screen: ChartScreen) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    screen.setPlotWidth(el.getBoundingClientRect().width);
    const observer = new ResizeObserver(() => {
      screen.setPlotWidth(el.getBoundingClientRect().width);
      screen.renderer.requestFrame();
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [screen]);
  return ref;
}

/** Marks the element the returned ref lands on as drawn over the charts (sticky strips). */
export function useOccluder<T extends HTMLElement>(screen: ChartScreen) {
  const ref = useRef<T>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    screen.renderer.occluders.add(el);
    screen.renderer.requestFrame();
    return () => {
      screen.renderer.occluders.delete(el);
    };
  }, [screen]);
  return ref;
}
