import { describe, expect, it } from 'vitest';
import { titleFromPath } from '../../src/features/shell/title';
import { capabilitiesOf } from '../../src/state/roles';
import en from '../../locales/en-US.json';

const key = (k: string) => ({ kind: 'key', key: k });

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

  it('titles every other route by a key, never by the URL spelling', () => {
    expect(titleFromPath('/app/realtimeDashboard')).toEqual(key('titles.realtimeDashboard'));
    expect(titleFromPath('/app/device_config')).toEqual(key('titles.deviceConfig'));
    expect(titleFromPath('/app/device_testing?did=X')).toEqual(key('titles.realTime'));
    expect(titleFromPath('/app/datacenter')).toEqual(key('titles.dataCenter'));
    expect(titleFromPath('/app/new_patient')).toEqual(key('titles.newPatient'));
    expect(titleFromPath('/app/add-patient')).toEqual(key('titles.addPatient'));
    expect(titleFromPath('/app/patient/id=3/edit')).toEqual(key('titles.editPatient'));
    expect(titleFromPath('/app/privacy-policy')).toEqual(key('titles.privacy'));
    expect(titleFromPath('/app/faq')).toEqual(key('titles.faq'));
    expect(titleFromPath('/app/documents/user-manual')).toEqual(key('titles.userManual'));
    expect(titleFromPath('/app/admin/requests')).toEqual(key('titles.requests'));
    expect(titleFromPath('/app/admin/signups')).toEqual(key('titles.signups'));
    expect(titleFromPath('/app/reports')).toEqual(key('titles.reports'));
    expect(titleFromPath('/app/settings')).toEqual(key('titles.settings'));
    expect(titleFromPath('/app/calender')).toEqual(key('titles.calendar'));
    expect(titleFromPath('/app/appointments')).toEqual(key('titles.appointments'));
    expect(titleFromPath('/app/billing')).toEqual(key('titles.billing'));
    expect(titleFromPath('/signup')).toEqual(key('titles.signUp'));
  });

  it('titles unknown paths "Page not found"', () => {
    expect(titleFromPath('/app/nonsense')).toEqual(key('titles.notFound'));
    // Only the spec's spelling of the calendar is a route.
    expect(titleFromPath('/app/calendar')).toEqual(key('titles.notFound'));
    expect(titleFromPath('/app/documents/nope')).toEqual(key('titles.notFound'));
    expect(titleFromPath('/somewhere/else')).toEqual(key('titles.notFound'));
    expect(en.titles.notFound).toBe('Page not found');
  });

  it('titles a screen the role may not open "Page not found", as the 404 page it shows', () => {
    const annotator = capabilitiesOf({ is_annotator: true });
    const admin = capabilitiesOf({ is_admin: true });
    const physician = capabilitiesOf({});
    for (const p of ['/app/device_config', '/app/device_testing', '/app/realtimeDashboard', '/app/reports', '/app/settings', '/app/billing', '/app/new_patient', '/app/add-patient']) {
      expect(titleFromPath(p, annotator), p).toEqual(key('titles.notFound'));
    }
    // The admins' screens explain themselves to everyone else, under their own title; so does the wizard to an admin.
    for (const caps of [physician, annotator, admin]) {
      expect(titleFromPath('/app/admin/signups', caps)).toEqual(key('titles.signups'));
      expect(titleFromPath('/app/admin/trail', caps)).toEqual(key('titles.trail'));
    }
    expect(titleFromPath('/app/add-patient', admin)).toEqual(key('titles.addPatient'));
    expect(titleFromPath('/app/add-patient', physician)).toEqual(key('titles.addPatient'));
    expect(titleFromPath('/app/device_config', admin)).toEqual(key('titles.notFound'));
    expect(titleFromPath('/app/device_config', physician)).toEqual(key('titles.deviceConfig'));
    expect(titleFromPath('/app/patients', annotator)).toEqual(key('titles.patients'));
    expect(titleFromPath('/app/calender', annotator)).toEqual(key('titles.calendar'));
    expect(titleFromPath('/app/appointments', annotator)).toEqual(key('titles.appointments'));
    for (const p of ['/app/calender', '/app/appointments', '/app/settings', '/app/billing']) expect(titleFromPath(p, admin), p).toEqual(key('titles.notFound'));
    expect(titleFromPath('/app/settings', physician)).toEqual(key('titles.settings'));
  });

  it('has an en-US text for every title key it can return', () => {
    const paths = ['/app/', '/app/patients', '/app/patients/id=1', '/app/view_patient_info/id=1', '/app/patient/id=1/edit', '/app/new_patient', '/app/add-patient', '/app/device_testing', '/app/realtimeDashboard', '/app/device_config', '/app/datacenter', '/app/privacy-policy', '/app/terms-of-use', '/app/faq', '/app/documents', '/app/documents/device-instructions', '/app/documents/user-manual', '/app/documents/patient-information-sheet', '/app/admin/requests', '/app/admin/signups', '/app/reports', '/app/settings', '/app/calender', '/app/appointments', '/app/billing', '/app/bench', '/app/signin', '/signin', '/signup', '/forgot_password', '/x'];
    for (const p of paths) {
      const k = titleFromPath(p).key.split('.')[1] as keyof typeof en.titles;
      expect(en.titles[k], p).toBeTruthy();
    }
  });
});
