import { useEffect } from 'react';
import type { ViewController } from '../../state/view';
import { isTextEntry } from '../../ui/keys';
import { KEY_DEBOUNCE_MS } from '../../time/epochs';

/** Windows per second a held arrow key scrubs through the night. */
const SCRUB_WINDOWS_PER_S = 4;

/**
 * The left and right arrow keys (spec 2 §2) as a scorer uses them:
 * - a plain press pages once, then further plain presses within the spec's 500 ms
 *   debounce are ignored (ten quick presses are one step, not ten);
 * - in the 30-s preset a plain press steps one whole epoch, on the epoch grid;
 *   elsewhere it pages 20 % of the window (the spec's overview rule);
 * - Shift + arrow always pages 20 % (fine positioning inside an epoch), never debounced;
 * - holding the key scrubs smoothly (one move per display frame) and, in the 30-s
 *   preset, lands on an epoch boundary when released.
 */
export function useArrowPaging(view: ViewController, { debounceMs = KEY_DEBOUNCE_MS, onStep }: {
  debounceMs?: number;
  /** After each step a press made (not the scrub): the screen paints it at once (ChartRenderer.drawNow). */
  onStep?: () => void;
} = {}): void {
  useEffect(() => {
    let lastPlain = -Infinity;
    let scrub: { direction: 1 | -1; frame: number; last: number } | null = null;
    const scoring = () => view.store.state.preset === '30s';
    const tick = (time: number) => {
      if (!scrub) return;
      const dt = Math.min(250, Math.max(0, time - scrub.last));
      scrub.last = time;
      const r = view.store.state.range;
      view.dispatch({ type: 'scrub', t0: r.t0 + scrub.direction * (r.t1 - r.t0) * SCRUB_WINDOWS_PER_S * (dt / 1000) });
      scrub.frame = requestAnimationFrame(tick);
    };
    const stopScrub = () => {
      if (!scrub) return;
      cancelAnimationFrame(scrub.frame);
      scrub = null;
      if (scoring()) view.dispatch({ type: 'scrub', t0: view.store.state.range.t0, snap: true });
      // The release ends the hold: the next plain press steps at once.
      lastPlain = -Infinity;
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
      if (isTextEntry(e.target) || e.altKey || e.ctrlKey || e.metaKey || document.querySelector('dialog[open]')) return;
      e.preventDefault();
      const direction = e.key === 'ArrowRight' ? 1 : -1;
      if (e.shiftKey) {
        view.dispatch({ type: 'page', direction });
        onStep?.();
        return;
      }
      if (e.repeat) {
        if (!scrub) scrub = { direction, frame: requestAnimationFrame(tick), last: performance.now() };
        return;
      }
      const now = performance.now();
      if (now - lastPlain < debounceMs) return;
      lastPlain = now;
      view.dispatch(scoring() ? { type: 'epoch', direction } : { type: 'page', direction });
      onStep?.();
    };
    const onUp = (e: KeyboardEvent) => {
      if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') stopScrub();
    };
    window.addEventListener('keydown', onKey, { capture: true });
    window.addEventListener('keyup', onUp, { capture: true });
    window.addEventListener('blur', stopScrub);
    return () => {
      stopScrub();
      window.removeEventListener('keydown', onKey, { capture: true });
      window.removeEventListener('keyup', onUp, { capture: true });
      window.removeEventListener('blur', stopScrub);
    };
  }, [view, debounceMs, onStep]);
}
