import { useEffect, type RefObject } from 'react';

/** Room kept between a sticky bar and what the page scrolls into view beside it, px. */
const CLEARANCE_GAP = 8;

/**
 * While `ref`'s sticky bar is on the page, the page scrolls focused and scrolled-to elements
 * clear of it (the document's scroll padding on that side: its sticky offset + its height): a
 * keyboard user tabbing up the charts would otherwise land on buttons under the navigator, and
 * tabbing down on ones under the time axis. Measured by a ResizeObserver (after layout, so the
 * night's first render forces none) and whenever the bar's height changes.
 */
export function useStickyClearance(ref: RefObject<HTMLElement | null>, side: 'start' | 'end'): void {
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const root = document.documentElement.style;
    const prop = side === 'start' ? 'scrollPaddingBlockStart' : 'scrollPaddingBlockEnd';
    const observer = new ResizeObserver(([entry]) => {
      const height = entry?.borderBoxSize?.[0]?.blockSize ?? el.getBoundingClientRect().height;
      const style = getComputedStyle(el);
      const inset = parseFloat(side === 'start' ? style.insetBlockStart : style.insetBlockEnd) || 0;
      root[prop] = `${Math.ceil(inset + height) + CLEARANCE_GAP}px`;
    });
    observer.observe(el);
    return () => {
      observer.disconnect();
      root[prop] = '';
    };
  }, [ref, side]);
}
