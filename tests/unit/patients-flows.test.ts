import { describe, expect, it } from 'vitest';
import { addDays, changeAllocation, changeDeallocation, dayStartMs, defaultRange, nightsBetween, allocationMax, returnMin } from '../../src/features/patient-admin/logic/dates';
import { autoSelect, classifyDeviceAnswer, filterDevices, flagsFor, sanitizeDeviceQuery, toggleDevice } from '../../src/features/patient-admin/logic/devices';
import { blockedBy, initialScreening, screeningPassed, screeningReducer, visibleQuestions, type ScreeningAction } from '../../src/features/patient-admin/logic/screening';
import { defaultFilters, filterPatients, matchesSearch, type ListPatient } from '../../src/features/patient-admin/logic/listFilters';

const run = (actions: ScreeningAction[]) => actions.reduce(screeningReducer, initialScreening);

describe('screening questions', () => {
  it('asks in order and passes with no, no, no, yes', () => {
    expect(visibleQuestions(initialScreening)).toEqual(['implant']);
    const s = run([
      { type: 'answer', question: 'implant', answer: 'no' },
      { type: 'answer', question: 'pregnant', answer: 'no' },
      { type: 'answer', question: 'underAge', answer: 'no' },
      { type: 'answer', question: 'infoSheet', answer: 'yes' },
    ]);
    expect(screeningPassed(s)).toBe(true);
    expect(blockedBy(s)).toBeNull();
  });
  it.each(['implant', 'pregnant', 'underAge'] as const)('yes to %s blocks and hides the later questions', (q) => {
    const before = { implant: 'no', pregnant: 'no', underAge: 'no' } as const;
    const order = ['implant', 'pregnant', 'underAge'] as const;
    const actions: ScreeningAction[] = [];
    for (const o of order) {
      actions.push({ type: 'answer', question: o, answer: o === q ? 'yes' : before[o] });
      if (o === q) break;
    }
    const s = run(actions);
    expect(blockedBy(s)).toBe(q);
    expect(visibleQuestions(s).at(-1)).toBe(q);
    expect(screeningPassed(s)).toBe(false);
  });
  it('no to the information sheet blocks; yes unblocks', () => {
    const base: ScreeningAction[] = [
      { type: 'answer', question: 'implant', answer: 'no' },
      { type: 'answer', question: 'pregnant', answer: 'no' },
      { type: 'answer', question: 'underAge', answer: 'no' },
    ];
    const blocked = run([...base, { type: 'answer', question: 'infoSheet', answer: 'no' }]);
    expect(blockedBy(blocked)).toBe('infoSheet');
    expect(screeningPassed(screeningReducer(blocked, { type: 'answer', question: 'infoSheet', answer: 'yes' }))).toBe(true);
  });
  it('changing an earlier answer clears the later ones; a hidden question cannot be answered', () => {
    const s = run([
      { type: 'answer', question: 'implant', answer: 'no' },
      { type: 'answer', question: 'pregnant', answer: 'no' },
      { type: 'answer', question: 'implant', answer: 'no' },
    ]);
    expect(s.answers.pregnant).toBeNull();
    expect(screeningReducer(initialScreening, { type: 'answer', question: 'underAge', answer: 'no' })).toBe(initialScreening);
    expect(screeningReducer(s, { type: 'reset' })).toEqual(initialScreening);
  });
});

describe('allocation dates', () => {
  it('defaults to today and tomorrow in the zone', () => {
    const now = Date.parse('2026-03-10T23:30:00Z');
    expect(defaultRange('Europe/Zurich', now)).toEqual({ allocation: '2026-03-11', deallocation: '2026-03-12' });
    expect(defaultRange('UTC', now)).toEqual({ allocation: '2026-03-10', deallocation: '2026-03-11' });
  });
  it('a past allocation asks for the past-date flow', () => {
    expect(changeAllocation({ allocation: '2026-03-10', deallocation: '2026-03-11' }, '2026-03-09', '2026-03-10')).toEqual({ kind: 'past', requested: '2026-03-09' });
  });
  it('an allocation on or after the return moves the return to allocation + 1', () => {
    expect(changeAllocation({ allocation: '2026-03-10', deallocation: '2026-03-12' }, '2026-03-12', '2026-03-10')).toEqual({ kind: 'applied', range: { allocation: '2026-03-12', deallocation: '2026-03-13' } });
    expect(changeAllocation({ allocation: '2026-03-10', deallocation: '2026-03-15' }, '2026-03-11', '2026-03-10')).toEqual({ kind: 'applied', range: { allocation: '2026-03-11', deallocation: '2026-03-15' } });
  });
  it('keeps the return at least allocation + 1; allocation at most return − 1', () => {
    expect(changeDeallocation({ allocation: '2026-03-10', deallocation: '2026-03-12' }, '2026-03-09')).toEqual({ allocation: '2026-03-10', deallocation: '2026-03-11' });
    expect(returnMin('2026-02-28')).toBe('2026-03-01');
    expect(allocationMax('2026-03-01')).toBe('2026-02-28');
  });
  it('counts nights as the rounded day difference, at least 1', () => {
    expect(nightsBetween('2026-03-10', '2026-03-17')).toBe(7);
    expect(nightsBetween('2026-03-28', '2026-03-30')).toBe(2);
    expect(nightsBetween('2026-03-10', '2026-03-10')).toBe(1);
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });
  it('sends the start of the day in the patient zone', () => {
    expect(dayStartMs('2026-03-10', 'Europe/Zurich')).toBe(Date.parse('2026-03-09T23:00:00Z'));
  });
});

describe('device selection and answers', () => {
  const devices = [{ device_id: 'NCT0005', device_master_id: 5 }, { device_id: 'NCT0006', device_master_id: 6 }];
  it('searches device ids case-insensitively, letters and digits only, 10 characters', () => {
    expect(sanitizeDeviceQuery('nct-00 06!!')).toBe('nct0006');
    expect(sanitizeDeviceQuery('A'.repeat(12))).toHaveLength(10);
    expect(filterDevices(devices, 'nct0006')).toEqual([devices[1]]);
  });
  it('toggles one device and auto-selects the only one', () => {
    expect(toggleDevice(null, 5)).toBe(5);
    expect(toggleDevice(5, 5)).toBeNull();
    expect(toggleDevice(5, 6)).toBe(6);
    expect(autoSelect([devices[0]!], null)).toBe(5);
    expect(autoSelect(devices, null)).toBeNull();
    expect(autoSelect(devices, 6)).toBe(6);
  });
  it('asks for operations by flags', () => {
    expect(flagsFor('force-deploy')).toEqual({ allocate_device: true, force_extend: true });
    expect(flagsFor('extend')).toEqual({ change_allocation_times: true });
    expect(flagsFor('cancel')).toEqual({ cancel_device: true });
  });
  it.each([
    [{ ok: true, code: 'device_operation_success', message: 'Device deployed successfully.' }, 'success'],
    [{ ok: false, code: 'device_not_mapped', message: 'The device is not mapped to the physician for the specified range.' }, 'notMapped'],
    [{ ok: false, code: 'device_occupied', message: 'Device is occupied: …', errors: ['This device is already reserved for patient NCT1001 from 01 Mar 2026 to 08 Mar 2026.'] }, 'occupied'],
    [{ ok: false, code: 'patient_already_assigned', message: 'This patient is already assigned to other device during these dates.' }, 'patientAssigned'],
    [{ ok: false, code: 'dates_out_of_range', message: 'Dates are out of range from physician device allocation.' }, 'outOfRange'],
    [{ ok: false, code: 'past_date', message: 'Deployment for the specified date failed. However you can request admin below' }, 'pastDate'],
    [{ ok: false, message: 'Something else' }, 'other'],
    // The wording never decides: a message that merely mentions 'mapped' or 'success' is not that case.
    [{ ok: false, code: 'validation_failed', message: 'Not mapped, not occupied, no success' }, 'other'],
  ])('%j is %s', (input, kind) => expect(classifyDeviceAnswer(input).kind).toBe(kind));
  it('shows the detailed occupied sentence', () => {
    const out = classifyDeviceAnswer({ ok: false, code: 'device_occupied', message: 'Device is occupied', errors: ['This device is already reserved for patient NCT1001 from 01 Mar 2026 to 08 Mar 2026.'] });
    expect(out).toEqual({ kind: 'occupied', text: 'This device is already reserved for patient NCT1001 from 01 Mar 2026 to 08 Mar 2026.' });
  });
});

describe('patient list filters', () => {
  const now = Date.parse('2026-03-10T12:00:00Z');
  const today = Date.parse('2026-03-10T00:00:00Z');
  const day = 86_400_000;
  const patients: ListPatient[] = [
    { patient_code: 'A1', email_id: 'Anna.Smith@Example.org', device_id: 'NCT0001', at_risk: 1, flagged: true, date_of_birth: '1950-01-01', device_allocation_date: now - 7 * day, device_deallocation_date: today + 3 * day, recorded_last_night: true },
    { patient_code: 'B2', email_id: '', device_id: 'NCT0002', at_risk: 0, date_of_birth: '1990-01-01', device_allocation_date: now - day, device_deallocation_date: today + 20 * day, recorded_last_night: false },
    { patient_code: 'C3', email_id: null, device_id: null, at_risk: null, date_of_birth: '2000-01-01' },
    { patient_code: 'D4', device_id: 'NCT0004', at_risk: 2, date_of_birth: '1980-01-01', device_allocation_date: now + 2 * day, device_deallocation_date: today + 9 * day, recorded_last_night: false },
  ];
  const codes = (f: Partial<typeof defaultFilters>) => filterPatients(patients, { ...defaultFilters, ...f }, now, today).map((p) => p.patient_code);
  it('all, active, inactive, flagged', () => {
    expect(codes({})).toEqual(['A1', 'B2', 'C3', 'D4']);
    expect(codes({ status: 'active' })).toEqual(['A1']);
    expect(codes({ status: 'inactive' })).toEqual(['B2']);
    expect(codes({ status: 'flagged' })).toEqual(['A1']);
  });
  it('age range, inclusive', () => {
    expect(codes({ minAge: '30', maxAge: '46' })).toEqual(['B2', 'D4']);
    expect(codes({ maxAge: '26' })).toEqual(['C3']);
  });
  it('device availability by return date', () => {
    expect(codes({ availability: 'today' })).toEqual([]);
    expect(codes({ availability: 'week' })).toEqual(['A1']);
    expect(codes({ availability: 'days15' })).toEqual(['A1', 'D4']);
    expect(codes({ availability: 'month' })).toEqual(['A1', 'B2', 'D4']);
    expect(codes({ availability: 'custom', customDate: '2026-03-13' })).toEqual(['A1']);
  });
  it('search ignores case and whitespace, on device id or e-mail', () => {
    expect(matchesSearch(patients[0]!, ' anna.smith @example ')).toBe(true);
    expect(matchesSearch(patients[0]!, 'nct 0001')).toBe(true);
    expect(codes({ search: 'NCT00' })).toEqual(['A1', 'B2', 'D4']);
    expect(codes({ search: 'zzz' })).toEqual([]);
  });
});

describe('device answers through the API error', () => {
  it('keeps data.errors from the envelope and shows its first sentence', async () => {
    const { toApiError } = await import('../../src/api/errors');
    const { outcomeOf } = await import('../../src/features/patient-admin/ui/deviceAnswer');
    const error = toApiError(409, { code: 'device_occupied', message: 'Device is occupied: reserved for patient NCT1001.', data: { errors: ['This device is already reserved for patient NCT1001 from 01 Mar 2026 to 08 Mar 2026.'] } }, 'Conflict');
    expect(error.errors).toHaveLength(1);
    expect(outcomeOf(error)).toEqual({ kind: 'occupied', text: 'This device is already reserved for patient NCT1001 from 01 Mar 2026 to 08 Mar 2026.' });
    expect(outcomeOf(toApiError(400, { code: 'validation_failed', message: 'Please enter weight.', data: { errors: ['Please enter weight.', 'Please enter height.'] } }, 'Bad')).kind).toBe('other');
  });
});
