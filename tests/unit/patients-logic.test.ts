import { describe, expect, it } from 'vitest';
import { acceptMeasureInput, birthYearChoices, bmi, bmiClass, escapeComment, measureText, measureValue, searchYears } from '../../src/features/patient-admin/logic/measures';
import { canRemoveChip, commentToSend, emptyPatientForm, fuzzyMatch, hasErrors, passwordResetError, patientCodeError, toggleCondition, validatePage1, type PatientForm } from '../../src/features/patient-admin/logic/patientForm';
import { defaultVitals, vitalError, vitalsFromJson, vitalsToJson, EDIT_DEFAULTS, NEW_PATIENT_DEFAULTS } from '../../src/features/patient-admin/logic/vitals';

describe('numeric inputs', () => {
  it.each([
    ['', '1', '1'],
    ['12', '123', '123'],
    ['123', '1234', '123'],
    ['72', '72.', '72.'],
    ['72.5', '72.55', '72.55'],
    ['72.55', '72.555', '72.55'],
    ['72', '72a', '72'],
    ['72', '-72', '72'],
    ['', '.5', '.5'],
    ['7', '7,5', '7.5'],
  ])('from %j, typing to %j keeps %j', (prev, next, kept) => {
    expect(acceptMeasureInput(prev, next)).toBe(kept);
  });
  it('drops a trailing point on submit', () => {
    expect(measureText('72.')).toBe('72');
    expect(measureValue('72.')).toBe(72);
    expect(measureValue('')).toBeNull();
  });
});

describe('BMI', () => {
  it('is weight over height in metres squared, 2 decimals, 0 when missing', () => {
    expect(bmi(70, 175)).toBe(22.86);
    expect(bmi(null, 175)).toBe(0);
    expect(bmi(70, 0)).toBe(0);
  });
  it.each([
    [18.49, 'underweight'],
    [18.5, 'normal'],
    [24.99, 'normal'],
    [25, 'preObesity'],
    [30, 'obesity1'],
    [35, 'obesity2'],
    [40, 'obesity3'],
    [0, null],
  ])('%d is %s', (v, c) => expect(bmiClass(v)).toBe(c));
});

describe('year of birth', () => {
  it('runs from 18 to 118 years ago', () => {
    const years = birthYearChoices(2026);
    expect(years[0]).toBe(2008);
    expect(years.at(-1)).toBe(1908);
    expect(years).toHaveLength(101);
  });
  it('searches by prefix; nothing found is an empty list', () => {
    expect(searchYears(birthYearChoices(2026), '199')).toHaveLength(10);
    expect(searchYears(birthYearChoices(2026), '2020')).toEqual([]);
  });
});

describe('page 1 validation', () => {
  const years = birthYearChoices(2026);
  const valid: PatientForm = { ...emptyPatientForm, patientCode: 'NCT2001', yearOfBirth: '1970', gender: 'F', diseaseIds: [2], weight: '70', height: '170', country: 'Switzerland' };
  it('accepts a complete form', () => expect(hasErrors(validatePage1(valid, years))).toBe(false));
  it('gives every message of an empty form', () => {
    expect(validatePage1(emptyPatientForm, years)).toEqual({
      patientCode: 'idRequired',
      yearOfBirth: 'yearRequired',
      gender: 'genderRequired',
      diseaseIds: 'conditionRequired',
      weight: 'weightRequired',
      height: 'heightRequired',
      country: 'countryRequired',
    });
  });
  it.each([
    ['NCT-1', 'idChars'],
    ['A'.repeat(21), 'idChars'],
    ['A'.repeat(20), null],
    ['  ', 'idRequired'],
  ])('patient id %j → %s', (code, e) => expect(patientCodeError(code)).toBe(e));
  it('zero weight or height is not valid', () => {
    expect(validatePage1({ ...valid, weight: '0', height: '0.' }, years)).toEqual({ weight: 'weightInvalid', height: 'heightInvalid' });
  });
  it('a year outside the choices is not found', () => {
    expect(validatePage1({ ...valid, yearOfBirth: '2015' }, years)).toEqual({ yearOfBirth: 'yearNotFound' });
  });
  it('limits the comment to 1024 on add and 10240 on edit', () => {
    expect(validatePage1({ ...valid, comment: 'x'.repeat(1025) }, years).comment).toBe('commentTooLong');
    expect(validatePage1({ ...valid, comment: 'x'.repeat(1025) }, years, 'edit').comment).toBeUndefined();
    expect(validatePage1({ ...valid, comment: 'x'.repeat(10241) }, years, 'edit').comment).toBe('commentTooLong');
  });
});

describe('conditions', () => {
  it('None removes the others; another removes None', () => {
    expect(toggleCondition([2, 5], 1)).toEqual([1]);
    expect(toggleCondition([1], 3)).toEqual([3]);
    expect(toggleCondition([2], 3)).toEqual([2, 3]);
    expect(toggleCondition([2, 3], 3)).toEqual([2]);
  });
  it('the last chip cannot be removed', () => {
    expect(canRemoveChip([2], 2)).toBe(false);
    expect(canRemoveChip([2, 3], 2)).toBe(true);
  });
  it('searches fuzzily', () => {
    expect(fuzzyMatch('Hypertension', 'hptn')).toBe(true);
    expect(fuzzyMatch('Hypertension', 'xyz')).toBe(false);
  });
});

describe('comments and passwords', () => {
  it('escapes backslashes and single quotes', () => expect(escapeComment("it's a \\ path")).toBe("it\\'s a \\\\ path"));
  it('sends nothing for an unchanged comment', () => {
    expect(commentToSend('a', 'a', escapeComment)).toBeUndefined();
    expect(commentToSend('a', "b'", escapeComment)).toBe("b\\'");
  });
  it('needs both password fields, the same', () => {
    expect(passwordResetError('', 'x')).toBe('empty');
    expect(passwordResetError('abc', 'abd')).toBe('notSame');
    expect(passwordResetError('abc', 'abc')).toBeNull();
  });
});

describe('vital thresholds', () => {
  it('keeps both default readings', () => {
    expect(EDIT_DEFAULTS.pr.modFromS).toBe(55);
    expect(NEW_PATIENT_DEFAULTS.pr).toMatchObject({ modFromS: 60, modToS: 60 });
    expect(NEW_PATIENT_DEFAULTS.br).toMatchObject({ modFromS: 12, modToS: 12, modFromF: 24, modToF: 30 });
    expect(vitalError(defaultVitals())).toBeNull();
    expect(vitalError(defaultVitals(true))).toBeNull();
  });
  it('reports empty, SpO2 over 100 and from over to, in that order', () => {
    const v = defaultVitals();
    expect(vitalError({ ...v, br: { ...v.br, sevToF: '' } })).toBe('empty');
    expect(vitalError({ ...v, spo2: { ...v.spo2, modTo: '101' } })).toBe('spo2Max');
    expect(vitalError({ ...v, pr: { ...v.pr, modFromF: '130' } })).toBe('minMax');
  });
  it('round-trips through the JSON string, filling gaps with defaults', () => {
    const v = defaultVitals();
    expect(vitalsFromJson(vitalsToJson(v))).toEqual(v);
    expect(vitalsFromJson('{"spo2":{"modFrom":88}}').spo2.modFrom).toBe('88');
    expect(vitalsFromJson('not json')).toEqual(v);
  });
});
