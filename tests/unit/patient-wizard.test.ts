import { describe, expect, it } from 'vitest';
import { emptyPatientForm, type PatientForm } from '../../src/features/patient-admin/logic/patientForm';
import { initialScreening } from '../../src/features/patient-admin/logic/screening';
import { initialWizard, newPatientPayload, wizardDirty, wizardReducer } from '../../src/features/patient-admin/logic/wizard';
import type { AvailableDevice } from '../../src/features/patient-admin/types';

const range = { allocation: '2026-11-29', deallocation: '2026-11-30' };
const device = { device_master_id: 7, device_id: 'NCT0007' } as AvailableDevice;
const clinic = { physicianId: 3, windowStart: '19:00', windowEnd: '07:00' };

describe('the add-patient wizard', () => {
  it('fills a generated ID and the default country only into empty fields, and counts neither as a change', () => {
    let s = wizardReducer(initialWizard(range), { type: 'generated', code: 'NCT2001' });
    s = wizardReducer(s, { type: 'defaultCountry', country: 'Switzerland' });
    expect(s.form).toMatchObject({ patientCode: 'NCT2001', generated: true, country: 'Switzerland' });
    expect(wizardDirty(s, 'Switzerland')).toBe(false);
    // A typed ID stays; a later default country does not replace a chosen one.
    const typed = wizardReducer(wizardReducer(initialWizard(range), { type: 'field', key: 'patientCode', value: 'MINE' }), { type: 'generated', code: 'NCT2001' });
    expect(typed.form.patientCode).toBe('MINE');
    expect(wizardDirty(typed, '')).toBe(true);
    expect(wizardReducer(wizardReducer(s, { type: 'field', key: 'country', value: 'Austria' }), { type: 'defaultCountry', country: 'Switzerland' }).form.country).toBe('Austria');
  });

  it('goes to page 2 only without errors; a taken ID brings page 1 back, editable; new dates forget the device', () => {
    const s = initialWizard(range);
    expect(wizardReducer(s, { type: 'validated', errors: { gender: 'genderRequired' } }).page).toBe(1);
    const two = wizardReducer(s, { type: 'validated', errors: {} });
    expect(two.page).toBe(2);
    const chosen = wizardReducer(two, { type: 'device', device });
    expect(wizardDirty(chosen, '')).toBe(true);
    expect(wizardReducer(chosen, { type: 'range', range: { allocation: '2026-12-01', deallocation: '2026-12-02' } }).device).toBeNull();
    const taken = wizardReducer({ ...chosen, form: { ...chosen.form, generated: true } }, { type: 'idTaken' });
    expect(taken).toMatchObject({ page: 1, errors: { patientCode: 'idExists' } });
    expect(taken.form.generated).toBe(false);
  });

  it('remembers where a discard was asked to lead, and forgets it on any other dialog', () => {
    const asked = wizardReducer(initialWizard(range), { type: 'ask', ask: 'discard', leaveTo: '/app/reports' });
    expect(asked.leaveTo).toBe('/app/reports');
    expect(wizardReducer(asked, { type: 'ask', ask: 'none' }).leaveTo).toBeNull();
  });

  it('sends the device and its days in the patient zone only with a device', () => {
    const form: PatientForm = { ...emptyPatientForm, patientCode: ' NCT2002 ', gender: 'F', yearOfBirth: '1970', weight: '70', height: '170', diseaseIds: [1, 2], country: 'Switzerland' };
    const context = { zone: 'Europe/Zurich', clinic, diseaseNames: new Map([[1, 'Hypertension'], [2, 'Diabetes']]), screening: initialScreening };
    const withDevice = newPatientPayload({ form, device, range }, context, true);
    expect(withDevice).toMatchObject({ patient_code: 'NCT2002', gender: 'F', date_of_birth: '1970-01-01', diseaseIds: '1,2', diseases: 'Hypertension,Diabetes', device_id: 'NCT0007', device_master_id: 7, docter_id: 3, bmi: 24.22 });
    // Midnight of the first day in Zurich (UTC+1 in November).
    expect(withDevice.device_allocation_date).toBe(Date.UTC(2026, 10, 28, 23));
    const without = newPatientPayload({ form, device, range }, context, false, true);
    expect(without).toMatchObject({ device_id: null, device_master_id: null, device_allocation_date: null, force_deploy: true });
    expect(newPatientPayload({ form, device, range }, { ...context, clinic: { ...clinic, physicianId: null } }, false)).not.toHaveProperty('docter_id');
  });
});
