// The synchronized x-range of the review screen as an action union and a pure reducer:
// zooms go on an undo stack, page steps do not (they would bury every zoom).
import {
  clampRange, doubleClickRange, dragRange, pageRange, presetRange, sameRange, zoomAroundRange, type TimeRange,
} from '../time/range';
import { PRESETS, type PresetChoice, type PresetId } from '../time/constants';
import { EPOCH_MS, epochStartAt, epochStep, snapStart } from '../time/epochs';

/** Undo entries kept; older ones fall off. */
export const UNDO_LIMIT = 100;

export interface ViewState {
  /** The whole night. */
  domain: TimeRange;
  /** The visible window shared by every chart. */
  range: TimeRange;
  /** What the navigator's select shows. */
  preset: PresetChoice;
  past: { range: TimeRange; preset: PresetChoice }[];
  future: { range: TimeRange; preset: PresetChoice }[];
}

export type ViewAction =
  | { type: 'init'; domain: TimeRange; preset?: PresetId }
  | { type: 'page'; direction: 1 | -1 }
  /** One whole window later or earlier, on the 30-s epoch grid (scoring); not an undo step. */
  | { type: 'epoch'; direction: 1 | -1 }
  /** Starts the window at `t0` (a held arrow key scrubbing); `snap` puts it on the epoch grid. */
  | { type: 'scrub'; t0: number; snap?: boolean }
  /**
   * Centres the window on `at`, keeping its width (overview click); not an undo step.
   * `snap`: in the 30-s preset, show the epoch that holds `at` instead (scoring).
   */
  | { type: 'moveTo'; at: number; snap?: boolean }
  | { type: 'preset'; preset: PresetId }
  | { type: 'zoom'; range: TimeRange }
  | { type: 'drag'; from: number; to: number }
  | { type: 'doubleClick'; at: number }
  /**
   * Zooms `factor` times around `at` (Ctrl + wheel, a pinch). `continues`: a step of the same
   * gesture as the last one, which changes the range without a new undo step (one gesture, one undo).
   */
  | { type: 'zoomAround'; at: number; factor: number; continues: boolean }
  | { type: 'undo' }
  | { type: 'redo' }
  | { type: 'reset' };

const EMPTY: TimeRange = { t0: 0, t1: 1 };

/** A view with nothing loaded yet. */
export function initialView(domain: TimeRange = EMPTY): ViewState {
  return { domain, range: domain, preset: 'full', past: [], future: [] };
}

/** `state` with `range` as a new undoable step (no step when nothing changes). */
function push(state: ViewState, range: TimeRange, preset: PresetChoice): ViewState {
  if (sameRange(range, state.range) && preset === state.preset) return state;
  const past = [...state.past, { range: state.range, preset: state.preset }].slice(-UNDO_LIMIT);
  return { ...state, range, preset, past, future: [] };
}

/** Applies one action; returns the same object when nothing changes. */
export function viewReducer(state: ViewState, action: ViewAction): ViewState {
  const { domain } = state;
  switch (action.type) {
    case 'init': {
      const preset = action.preset ?? 'full';
      const width = PRESETS.find((p) => p.id === preset)?.ms ?? null;
      return { ...initialView(action.domain), range: presetRange(action.domain, action.domain, width), preset };
    }
    case 'page': {
      const range = pageRange(state.range, domain, action.direction);
      return sameRange(range, state.range) ? state : { ...state, range };
    }
    case 'epoch': {
      const range = epochStep(state.range, domain, action.direction);
      return sameRange(range, state.range) ? state : { ...state, range };
    }
    case 'scrub': {
      const width = state.range.t1 - state.range.t0;
      const moved = { t0: action.t0, t1: action.t0 + width };
      const range = clampRange(action.snap ? snapStart(moved, domain) : moved, domain);
      return sameRange(range, state.range) ? state : { ...state, range };
    }
    case 'moveTo': {
      const half = (state.range.t1 - state.range.t0) / 2;
      // Scoring (30 s): the epoch that holds the point, on the grid.
      const at = action.snap && state.preset === '30s' ? epochStartAt(action.at, domain) + half : action.at;
      const range = clampRange({ t0: at - half, t1: at + half }, domain);
      return sameRange(range, state.range) ? state : { ...state, range };
    }
    case 'preset': {
      const width = PRESETS.find((p) => p.id === action.preset)?.ms ?? null;
      const range = presetRange(state.range, domain, width);
      // The 30-s preset is the scoring epoch: it starts on the epoch grid.
      return push(state, action.preset === '30s' ? clampRange(snapStart(range, domain), domain) : range, action.preset);
    }
    case 'zoom':
      return push(state, clampRange(action.range, domain), 'custom');
    case 'drag': {
      const range = dragRange(action.from, action.to, domain);
      return range ? push(state, range, 'custom') : state;
    }
    case 'doubleClick': {
      const range = doubleClickRange(state.range, domain, action.at);
      // Down to 30 s it is the scoring epoch that holds the point, on the grid, in the scoring
      // mode: the epoch counter shows its number and the arrow keys step epoch by epoch.
      if (Math.abs(range.t1 - range.t0 - EPOCH_MS) > 1) return push(state, range, 'custom');
      const t0 = epochStartAt(action.at, domain);
      return push(state, clampRange({ t0, t1: t0 + EPOCH_MS }, domain), '30s');
    }
    case 'zoomAround': {
      const range = zoomAroundRange(state.range, domain, action.at, action.factor);
      if (sameRange(range, state.range)) return state;
      return action.continues && state.past.length > 0 ? { ...state, range, preset: 'custom', future: [] } : push(state, range, 'custom');
    }
    case 'undo': {
      const last = state.past[state.past.length - 1];
      if (!last) return state;
      return {
        ...state, range: last.range, preset: last.preset,
        past: state.past.slice(0, -1),
        future: [{ range: state.range, preset: state.preset }, ...state.future],
      };
    }
    case 'redo': {
      const [next, ...rest] = state.future;
      if (!next) return state;
      return {
        ...state, range: next.range, preset: next.preset,
        past: [...state.past, { range: state.range, preset: state.preset }],
        future: rest,
      };
    }
    case 'reset':
      return push(state, { t0: domain.t0, t1: domain.t1 }, 'full');
  }
}
