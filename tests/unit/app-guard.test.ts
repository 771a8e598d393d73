import { describe, expect, it } from 'vitest';
import { afterSignIn, decideRoute, type Access } from '../../src/features/shell/guard';
import { capabilitiesOf } from '../../src/state/roles';

const physician: Access = { authenticated: true, authorized: true, caps: capabilitiesOf({ is_annotator: false }) };
const annotator: Access = { authenticated: true, authorized: true, caps: capabilitiesOf({ is_annotator: true }) };
const anonymous: Access = { authenticated: false, authorized: false, caps: capabilitiesOf(null) };
const unauthorised: Access = { authenticated: true, authorized: false, caps: capabilitiesOf(null) };

describe('decideRoute', () => {
  it('sends a signed-out visitor of /app/* to sign-in and remembers path and query', () => {
    expect(decideRoute('/app/patients', '?filter=flagged', anonymous)).toEqual({
      kind: 'redirect',
      to: '/app/signin',
      remember: '/app/patients?filter=flagged',
    });
    expect(decideRoute('/app/', '', anonymous)).toEqual({ kind: 'redirect', to: '/app/signin', remember: '/app/' });
    expect(decideRoute('/app/datacenter', 'x=1', anonymous)).toMatchObject({ remember: '/app/datacenter?x=1' });
  });

  it('treats a token without user details as not signed in', () => {
    expect(decideRoute('/app/patients', '', unauthorised)).toMatchObject({ kind: 'redirect', to: '/app/signin' });
    expect(decideRoute('/signin', '', unauthorised)).toEqual({ kind: 'render' });
  });

  it('shows sign-in, signup and forgot password to signed-out visitors, and / goes to sign-in', () => {
    for (const p of ['/app/signin', '/signin', '/signup', '/forgot_password']) {
      expect(decideRoute(p, '', anonymous)).toEqual({ kind: 'render' });
    }
    expect(decideRoute('/', '', anonymous)).toEqual({ kind: 'redirect', to: '/app/signin' });
  });

  it('sends signed-in users away from sign-in, signup, / and forgot_password to their app root', () => {
    for (const p of ['/', '/app/signin', '/signin', '/signup', '/forgot_password', '/signin/']) {
      expect(decideRoute(p, '', physician)).toEqual({ kind: 'redirect', to: '/app/' });
      expect(decideRoute(p, '', annotator)).toEqual({ kind: 'redirect', to: '/app/patients' });
    }
  });

  it('redirects annotators from the dashboard (and its alias) to My Patients', () => {
    expect(decideRoute('/app/', '', annotator)).toEqual({ kind: 'redirect', to: '/app/patients' });
    expect(decideRoute('/app', '', annotator)).toEqual({ kind: 'redirect', to: '/app/patients' });
    expect(decideRoute('/app/dashboard/default', '', annotator)).toEqual({ kind: 'redirect', to: '/app/patients' });
    expect(decideRoute('/app/', '', physician)).toEqual({ kind: 'render' });
    expect(decideRoute('/app/dashboard/default', '', physician)).toEqual({ kind: 'render' });
  });

  it('lets anyone read the policies and FAQ, and renders unknown paths (the 404 screen)', () => {
    for (const p of ['/app/privacy-policy', '/app/terms-of-use', '/app/faq']) {
      expect(decideRoute(p, '', anonymous)).toEqual({ kind: 'render' });
    }
    expect(decideRoute('/nowhere', '', anonymous)).toEqual({ kind: 'render' });
    expect(decideRoute('/app/nowhere', '', physician)).toEqual({ kind: 'render' });
  });
});

describe('capabilitiesOf', () => {
  it('hides dashboard, real time, device config, new patients and the admin screens from annotators', () => {
    expect(capabilitiesOf({ is_annotator: true })).toEqual({
      dashboard: false,
      deviceConfig: false,
      realtime: false,
      addPatient: false,
      admin: false,
      reports: false,
      samplePatients: true,
      scoring: true,
      settings: false,
      calendar: true,
      appointments: true,
      billing: false,
      appRoot: '/app/patients',
    });
    expect(capabilitiesOf({ is_admin: true })).toMatchObject({ dashboard: true, deviceConfig: false, realtime: false, addPatient: false, admin: true, reports: false, samplePatients: false, scoring: false, settings: false, calendar: false, appointments: false, billing: false });
    expect(capabilitiesOf({ is_annotator: false, membership_type: 'paid' })).toEqual({
      dashboard: true,
      deviceConfig: true,
      realtime: true,
      addPatient: true,
      admin: false,
      reports: true,
      samplePatients: true,
      scoring: true,
      settings: true,
      calendar: true,
      appointments: true,
      billing: true,
      appRoot: '/app/',
    });
  });
});

describe('afterSignIn', () => {
  it('returns to the remembered origin, else /', () => {
    expect(afterSignIn('/app/patients?x=1')).toBe('/app/patients?x=1');
    expect(afterSignIn(null)).toBe('/');
    expect(afterSignIn('')).toBe('/');
  });

  it('never leaves the app', () => {
    expect(afterSignIn('//evil.example/app')).toBe('/');
    expect(afterSignIn('https://evil.example/')).toBe('/');
  });
});
