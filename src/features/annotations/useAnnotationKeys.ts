import { useEffect, useRef } from 'react';
import type { ViewController } from '../../state/view';
import { isTextEntry } from '../../ui/keys';
import { epochAt, neighbour, neighbourOutside, type Annotation } from './model';

interface Options {
  view: ViewController;
  annotations: readonly Annotation[];
  recordingStart: number;
  enabled: boolean;
  /** Marks [start, end) with the last used category; returns false when there is none yet. */
  mark(startMs: number, endMs: number): boolean;
  /** Opens the popup for [start, end) (no category used yet). */
  open(startMs: number, endMs: number): void;
}


/**
 * Keys for annotators working at speed: M marks the current 30-s window (or the epoch at the
 * centre of a wider view) with the last used category; ] and [ jump to the next and previous
 * annotation, centring it in the window (in the 30-s preset: showing the epoch that holds its start).
 */
export function useAnnotationKeys(o: Options): void {
  const latest = useRef(o);
  latest.current = o;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const { view, annotations, recordingStart, enabled, mark, open } = latest.current;
      if (!enabled || e.ctrlKey || e.metaKey || e.altKey || isTextEntry(e.target) || document.querySelector('dialog[open]')) return;
      const range = view.store.state.range;
      if (e.key === 'm' || e.key === 'M') {
        const width = range.t1 - range.t0;
        const w = width <= 60_000 ? { start: range.t0, end: range.t1 } : epochAt((range.t0 + range.t1) / 2, recordingStart);
        if (!mark(w.start, w.end)) open(w.start, w.end);
        e.preventDefault();
      } else if (e.key === ']' || e.key === '[') {
        const direction = e.key === ']' ? 1 : -1;
        // Scoring (30 s): the epoch that holds the annotation's start, on the grid.
        const scoring = view.store.state.preset === '30s';
        const next = scoring ? neighbourOutside(annotations, range, direction) : neighbour(annotations, (range.t0 + range.t1) / 2, direction);
        if (next) view.dispatch({ type: 'moveTo', at: next.start_ms, snap: scoring });
        e.preventDefault();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
