// The synchronized view range as a valtio store. React reads only `preset` and the
// undo/redo availability; the renderer, axes and readouts subscribe outside React,
// so a pan or a page step never re-renders a component.
import { proxy, ref, subscribe } from 'valtio/vanilla';
import type { TimeRange } from '../time/range';
import { initialView, viewReducer, type ViewAction, type ViewState } from './viewReducer';

export interface ViewStore {
  /** Current window; replaced (never mutated) so subscribers can compare by identity. */
  range: TimeRange;
  domain: TimeRange;
  preset: ViewState['preset'];
  canUndo: boolean;
  canRedo: boolean;
  /** Counts reset zooms, so value-axis (XY) zooms can follow. */
  resets: number;
  /** The reducer's full state (with its stacks), kept out of valtio's tracking. */
  state: ViewState;
}

/** Creates a view store; the review screen and the benchmark page each own one. */
export function createViewStore(domain?: TimeRange) {
  const start = initialView(domain);
  const store = proxy<ViewStore>({
    range: ref(start.range),
    domain: ref(start.domain),
    preset: start.preset,
    canUndo: false,
    canRedo: false,
    resets: 0,
    state: ref(start),
  });
  const listeners = new Set<(range: TimeRange) => void>();

  /** Applies an action; listeners hear about a new range synchronously (same task as the key press). */
  function dispatch(action: ViewAction): void {
    const prev = store.state;
    const next = viewReducer(prev, action);
    if (next === prev) return;
    store.state = ref(next);
    const rangeChanged = next.range !== prev.range;
    if (rangeChanged) store.range = ref(next.range);
    if (next.domain !== prev.domain) store.domain = ref(next.domain);
    if (next.preset !== store.preset) store.preset = next.preset;
    if (store.canUndo !== next.past.length > 0) store.canUndo = next.past.length > 0;
    if (store.canRedo !== next.future.length > 0) store.canRedo = next.future.length > 0;
    if (action.type === 'reset') store.resets++;
    if (rangeChanged) for (const l of listeners) l(next.range);
  }

  /** Hears every new range at once (not batched like valtio's subscribe); returns the unsubscribe. */
  function onRange(listener: (range: TimeRange) => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  return { store, dispatch, onRange, subscribe: (cb: () => void) => subscribe(store, cb) };
}

export type ViewController = ReturnType<typeof createViewStore>;
