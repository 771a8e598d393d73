import { useLayoutEffect, useMemo, useRef } from 'react';
import { ChartBlock } from '../gl/block';
import type { ChartScreen } from '../screen';

/**
 * A block for the element the returned ref lands on: made in the render, registered with the
 * renderer in the commit, unregistered on unmount. The block is there in the first render, so
 * the chart's own layout effects hand it its series in the same commit (a block set as state in
 * a layout effect rendered every chart a second time before the screen's first frame).
 */
export function useChartBlock(screen: ChartScreen, id: string) {
  const ref = useRef<HTMLDivElement>(null);
  // A new screen (another night's surface) or id gets a new block: `screen` keys it, it is not read.
  const block = useMemo(() => new ChartBlock(id), [screen, id]);
  useLayoutEffect(() => {
    screen.renderer.adoptBlock(block);
    block.el = ref.current;
    screen.renderer.requestFrame();
    return () => screen.dropBlock(block);
  }, [screen, block]);
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
