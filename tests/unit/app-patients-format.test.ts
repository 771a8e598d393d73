import { describe, expect, it } from 'vitest';
import { birthYear, fullName, genderKey } from '../../src/features/patient-admin/logic/format';

describe('patient list formatting', () => {
  it('reads the year of birth from years, dates and date-times', () => {
    expect(birthYear(1961)).toBe(1961);
    expect(birthYear('1961-04-02')).toBe(1961);
    expect(birthYear('1961-04-02T00:00:00.000Z')).toBe(1961);
    expect(birthYear('1961')).toBe(1961);
    expect(birthYear(null)).toBeNull();
    expect(birthYear('unknown')).toBeNull();
  });

  it('normalises gender spellings', () => {
    expect(genderKey('M')).toBe('male');
    expect(genderKey('female')).toBe('female');
    expect(genderKey('Diverse')).toBe('other');
    expect(genderKey(null)).toBeNull();
  });

  it('joins names and reports code-only patients', () => {
    expect(fullName({ first_name: 'Ada', last_name: 'Byron' })).toBe('Ada Byron');
    expect(fullName({ first_name: null, last_name: ' ' })).toBeNull();
  });
});

describe('riskKey', () => {
  it('reads the at_risk code as the spec gives it', async () => {
    const { riskKey } = await import('../../src/features/patient-admin/logic/format');
    expect([null, 0, 1, 2, undefined].map(riskKey)).toEqual(['notKnown', 'stable', 'atRisk', 'control', 'notKnown']);
  });
});
