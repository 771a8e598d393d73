import { useEffect, useRef } from 'react';
import type { ViewController } from '../../state/view';
import { isTextEntry } from '../../ui/keys';
import { SCORING_DIGITS } from './scoringKeys';

interface Options {
  view: ViewController;
  enabled: boolean;
  /** Scores the window with the category bound to `digit`; false when nothing is bound. */
  score(digit: string): boolean;
  /** Undoes / redoes the latest annotation edit; false when there is none. */
  undo(): boolean;
  redo(): boolean;
}

/**
 * The scoring keys: 1–9 assign the category bound to the key to the epoch on screen;
 * Ctrl+Z undoes the latest annotation edit (then, with none left, the latest zoom), and
 * Ctrl+Shift+Z or Ctrl+Y redoes.
 */
export function useScoringKeys(o: Options): void {
  const latest = useRef(o);
  latest.current = o;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const { view, enabled, score, undo, redo } = latest.current;
      if (!enabled || e.altKey || isTextEntry(e.target) || document.querySelector('dialog[open]')) return;
      const mod = e.ctrlKey || e.metaKey;
      const key = e.key.toLowerCase();
      if (mod && key === 'z' && !e.shiftKey) {
        if (!undo()) view.dispatch({ type: 'undo' });
        e.preventDefault();
      } else if (mod && ((key === 'z' && e.shiftKey) || key === 'y')) {
        if (!redo()) view.dispatch({ type: 'redo' });
        e.preventDefault();
      } else if (!mod && !e.repeat && (SCORING_DIGITS as readonly string[]).includes(e.key)) {
        if (score(e.key)) e.preventDefault();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
