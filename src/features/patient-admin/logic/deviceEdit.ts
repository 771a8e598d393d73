// The patient's device section (spec 1 §5, §8) as one reducer: editing the current allocation
// (extend, cancel) or choosing a new one, the return dialog, and what the last operation said.
import { dayStartMs, type DateRange } from './dates';
import type { DeviceOperation } from './devices';
import { screeningAnswers, type ScreeningState } from './screening';
import type { AvailableDevice } from '../types';

/** The allocation the patient has now (ms at the start of its first and last day). */
export interface CurrentAllocation {
  device: string;
  from: number;
  to: number;
}

export interface DeviceEditState {
  editing: boolean;
  range: DateRange;
  cancelAllocation: boolean;
  device: AvailableDevice | null;
  error: string | null;
  notice: string | null;
  returning: boolean;
  present: boolean;
  returnDay: string;
}

export type DeviceEditAction =
  | { type: 'start'; range: DateRange }
  | { type: 'stop' }
  | { type: 'range'; range: DateRange }
  | { type: 'device'; device: AvailableDevice | null }
  | { type: 'cancelAllocation'; on: boolean }
  | { type: 'error'; text: string | null }
  | { type: 'done'; notice: string }
  | { type: 'openReturn'; today: string }
  | { type: 'present'; on: boolean }
  | { type: 'returnDay'; day: string }
  | { type: 'closeReturn' };

export function initialDeviceEdit(range: DateRange, today: string): DeviceEditState {
  return { editing: false, range, cancelAllocation: false, device: null, error: null, notice: null, returning: false, present: false, returnDay: today };
}

export function deviceEditReducer(state: DeviceEditState, action: DeviceEditAction): DeviceEditState {
  switch (action.type) {
    // Edit: a clean form over the current allocation's days (or tomorrow's for a new one).
    case 'start':
      return { ...state, editing: true, range: action.range, cancelAllocation: false, device: null, error: null, notice: null };
    case 'stop':
      return { ...state, editing: false };
    // New dates: the free devices change, the chosen one is forgotten.
    case 'range':
      return { ...state, range: action.range, device: null };
    case 'device':
      return { ...state, device: action.device };
    case 'cancelAllocation':
      return { ...state, cancelAllocation: action.on };
    case 'error':
      return { ...state, error: action.text };
    // An operation done: the edit and the return dialog close, its message shows.
    case 'done':
      return { ...state, editing: false, returning: false, notice: action.notice };
    case 'openReturn':
      return { ...state, returning: true, present: false, returnDay: action.today };
    case 'present':
      return { ...state, present: action.on };
    case 'returnDay':
      return { ...state, returnDay: action.day };
    case 'closeReturn':
      return { ...state, returning: false };
  }
}

/** The device section's context for a save: the patient's zone, recording window and screening answers. */
export interface SaveContext {
  zone: string;
  windowStart: string;
  windowEnd: string;
  screening: ScreeningState;
  now: number;
}

/**
 * What Save does: on a current allocation, cancel it or extend it (its first day stays once it
 * has started); otherwise deploy the chosen device over the chosen days ('selectDevice' without one).
 */
export function saveOperation(state: DeviceEditState, current: CurrentAllocation | null, ctx: SaveContext, force: boolean): { op: DeviceOperation; extra: Record<string, unknown> } | 'selectDevice' {
  const day = (d: string) => dayStartMs(d, ctx.zone);
  if (current) {
    if (state.cancelAllocation) return { op: 'cancel', extra: {} };
    const started = current.from <= ctx.now;
    return { op: force ? 'force-extend' : 'extend', extra: { device_allocation_date: started ? current.from : day(state.range.allocation), device_deallocation_date: day(state.range.deallocation) } };
  }
  if (!state.device) return 'selectDevice';
  const answers = screeningAnswers(ctx.screening);
  return {
    op: force ? 'force-deploy' : 'deploy',
    extra: {
      device_master_id: state.device.device_master_id,
      window_start_time: ctx.windowStart,
      window_end_time: ctx.windowEnd,
      device_allocation_date: day(state.range.allocation),
      device_deallocation_date: day(state.range.deallocation),
      ...(answers ? { screening_answers: answers } : {}),
    },
  };
}
