import { useEffect, useState } from 'react';
import { chartsFramed, chartsFramedYet } from '../gl/stats';

/** Longest a part waits for the first chart frame (a night with nothing to draw never has one). */
const FRAMED_WAIT_MS = 1000;

/**
 * False until this page's first frame with chart data (or `timeoutMs`), then true; true at once
 * on every later screen of the page. For the parts of a screen its first chart need not wait
 * for (decision 1018): rendered in the same task as the charts, they held the first paint back.
 */
export function useChartsFramed(timeoutMs = FRAMED_WAIT_MS): boolean {
  const [framed, setFramed] = useState(chartsFramedYet);
  useEffect(() => {
    if (framed) return;
    let live = true;
    void chartsFramed(timeoutMs).then(() => {
      if (live) setFramed(true);
    });
    return () => {
      live = false;
    };
  }, [framed, timeoutMs]);
  return framed;
}
