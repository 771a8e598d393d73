import { describe, expect, it } from 'vitest';
import { deviceEditReducer, initialDeviceEdit, saveOperation } from '../../src/features/patient-admin/logic/deviceEdit';
import { initialScreening } from '../../src/features/patient-admin/logic/screening';
import type { AvailableDevice } from '../../src/features/patient-admin/types';

const range = { allocation: '2026-12-01', deallocation: '2026-12-05' };
const ctx = { zone: 'UTC', windowStart: '19:00', windowEnd: '07:00', screening: initialScreening, now: Date.UTC(2026, 10, 29) };
const device = { device_master_id: 4, device_id: 'NCT0004' } as AvailableDevice;

describe("the patient's device section", () => {
  it('extends a started allocation from its own first day, one not started from the chosen day, and cancels on request', () => {
    const state = deviceEditReducer(initialDeviceEdit(range, '2026-11-29'), { type: 'start', range });
    const started = { device: 'NCT0001', from: Date.UTC(2026, 10, 20), to: Date.UTC(2026, 10, 30) };
    expect(saveOperation(state, started, ctx, false)).toEqual({ op: 'extend', extra: { device_allocation_date: started.from, device_deallocation_date: Date.UTC(2026, 11, 5) } });
    const later = { ...started, from: Date.UTC(2026, 11, 1) };
    expect(saveOperation(state, later, ctx, true)).toEqual({ op: 'force-extend', extra: { device_allocation_date: Date.UTC(2026, 11, 1), device_deallocation_date: Date.UTC(2026, 11, 5) } });
    expect(saveOperation(deviceEditReducer(state, { type: 'cancelAllocation', on: true }), started, ctx, false)).toEqual({ op: 'cancel', extra: {} });
  });

  it('deploys only a chosen device, over the chosen days, with the recording window', () => {
    const state = deviceEditReducer(initialDeviceEdit(range, '2026-11-29'), { type: 'start', range });
    expect(saveOperation(state, null, ctx, false)).toBe('selectDevice');
    const chosen = deviceEditReducer(state, { type: 'device', device });
    expect(saveOperation(chosen, null, ctx, false)).toEqual({ op: 'deploy', extra: { device_master_id: 4, window_start_time: '19:00', window_end_time: '07:00', device_allocation_date: Date.UTC(2026, 11, 1), device_deallocation_date: Date.UTC(2026, 11, 5) } });
    // New days forget the device.
    expect(deviceEditReducer(chosen, { type: 'range', range: { ...range, deallocation: '2026-12-09' } }).device).toBeNull();
  });

  it('a done operation closes the edit and the return dialog with its message; a new edit starts clean', () => {
    let s = deviceEditReducer(initialDeviceEdit(range, '2026-11-29'), { type: 'openReturn', today: '2026-11-29' });
    s = deviceEditReducer(s, { type: 'present', on: true });
    s = deviceEditReducer(deviceEditReducer(s, { type: 'error', text: 'refused' }), { type: 'done', notice: 'Returned.' });
    expect(s).toMatchObject({ editing: false, returning: false, notice: 'Returned.' });
    expect(deviceEditReducer(s, { type: 'openReturn', today: '2026-11-30' })).toMatchObject({ present: false, returnDay: '2026-11-30' });
    expect(deviceEditReducer(s, { type: 'start', range })).toMatchObject({ editing: true, error: null, notice: null, cancelAllocation: false, device: null });
  });
});
