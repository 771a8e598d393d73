import { describe, expect, it } from 'vitest';
import { capitalise, titleFromPath } from '../../src/features/shell/title';

const key = (k: string) => ({ kind: 'key', key: k });
const segment = (text: string) => ({ kind: 'segment', text });

describe('titleFromPath', () => {
  it('gives the four titles the spec names', () => {
    expect(titleFromPath('/app/patients')).toEqual(key('titles.patients'));
    expect(titleFromPath('/app/')).toEqual(key('titles.dashboard'));
    expect(titleFromPath('/app')).toEqual(key('titles.dashboard'));
    expect(titleFromPath('/app/dashboard/default')).toEqual(key('titles.dashboard'));
    expect(titleFromPath('/app/view_patient_info/id=12')).toEqual(key('titles.patientInformation'));
    expect(titleFromPath('/app/patients/id=12?night=1731974400')).toEqual(key('titles.patientDetail'));
  });

  it('keeps a trailing slash or query on the list as My Patients', () => {
    expect(titleFromPath('/app/patients/')).toEqual(key('titles.patients'));
    expect(titleFromPath('/app/patients?filter=flagged')).toEqual(key('titles.patients'));
  });

  it('otherwise capitalises the path segment as written', () => {
    expect(titleFromPath('/app/realtimeDashboard')).toEqual(segment('RealtimeDashboard'));
    expect(titleFromPath('/app/device_config')).toEqual(segment('Device_config'));
    expect(titleFromPath('/app/datacenter')).toEqual(segment('Datacenter'));
    expect(titleFromPath('/app/privacy-policy')).toEqual(segment('Privacy-policy'));
    expect(titleFromPath('/app/faq')).toEqual(segment('Faq'));
    expect(titleFromPath('/app/settings')).toEqual(segment('Settings'));
    expect(titleFromPath('/app/billing/2026')).toEqual(segment('Billing'));
    expect(titleFromPath('/app/patient/id=3/edit')).toEqual(segment('Patient'));
    expect(titleFromPath('/somewhere')).toEqual(segment('Somewhere'));
  });

  it('capitalises decoded text and tolerates bad escapes', () => {
    expect(capitalise('r%C3%A9sum%C3%A9')).toBe('Résumé');
    expect(capitalise('%E0%A4%A')).toBe('%E0%A4%A');
    expect(capitalise('')).toBe('');
  });
});
