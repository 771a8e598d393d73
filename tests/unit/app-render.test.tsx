import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import type { ReactNode } from 'react';
import type { PatientSummary } from '../../contract/answers';
import { PatientsTable } from '../../src/features/patients/PatientsTable';
import { NotFound } from '../../src/features/shell/NotFound';
import { Sidebar } from '../../src/features/shell/Sidebar';
import i18n, { initI18n, setLanguage } from '../../src/i18n';
import { capabilitiesOf } from '../../src/state/roles';

/** Renders as the browser would at `path`, in whatever language i18n is set to. */
const render = (node: ReactNode, path = '/app/patients') =>
  renderToStaticMarkup(
    <I18nextProvider i18n={i18n}>
      <Router ssrPath={path}>{node}</Router>
    </I18nextProvider>,
  );

const patient: PatientSummary = {
  patient_id: 7,
  patient_code: 'NCT1001',
  first_name: 'Ada',
  last_name: 'Byron',
  gender: 'F',
  date_of_birth: '1961-04-02',
  device_id: null,
  at_risk: 1,
};

describe('rendered screens', () => {
  beforeAll(async () => {
    await initI18n();
  });

  it('shows the spec not-found text', () => {
    const html = render(<NotFound />, '/app/nowhere');
    expect(html).toContain('data-testid="not-found"');
    expect(html).toContain('Oops, an error has occurred. Page not found!');
  });

  it("shows 'No record found.' for an empty patient list", () => {
    expect(render(<PatientsTable patients={[]} />)).toContain('No record found.');
  });

  it('shows a patient row with year of birth, missing device and risk flag', () => {
    const html = render(<PatientsTable patients={[patient]} />);
    for (const text of ['NCT1001', 'Ada Byron', 'Female', '1961', 'No device', 'At Risk']) expect(html).toContain(text);
  });

  it("gives physicians the spec's menu entries with Sample patients, Reports and the practice screens, annotators theirs, admins their own screens", () => {
    const physician = render(<Sidebar caps={capabilitiesOf({ is_annotator: false })} open onToggle={() => {}} />);
    const annotator = render(<Sidebar caps={capabilitiesOf({ is_annotator: true })} open onToggle={() => {}} />);
    const ids = (html: string) => [...html.matchAll(/data-testid="(nav-[\w-]+)"/g)].map((m) => m[1]);
    const admin = render(<Sidebar caps={capabilitiesOf({ is_admin: true })} open onToggle={() => {}} />);
    expect(ids(physician)).toEqual(['nav-dashboard', 'nav-patients', 'nav-sample-patients', 'nav-scoring', 'nav-realtime', 'nav-device-config', 'nav-datacenter', 'nav-reports', 'nav-calendar', 'nav-appointments', 'nav-settings', 'nav-billing']);
    expect(ids(annotator)).toEqual(['nav-patients', 'nav-sample-patients', 'nav-scoring', 'nav-datacenter', 'nav-calendar', 'nav-appointments']);
    expect(ids(admin)).toEqual(['nav-dashboard', 'nav-patients', 'nav-datacenter', 'nav-admin-requests', 'nav-admin-signups', 'nav-admin-trail']);
    expect(physician).toContain('aria-current="page"');
  });

  it('switches to Arabic, right-to-left, and back', async () => {
    await setLanguage('ar-SA');
    expect(i18n.dir()).toBe('rtl');
    expect(render(<NotFound />)).toContain('الصفحة غير موجودة');
    await setLanguage('en-US');
    expect(i18n.dir()).toBe('ltr');
  });
});

describe('the patient list age filter (issue 32.12)', () => {
  beforeAll(async () => {
    await initI18n();
  });
  it('says a range "from > to" matches nobody, instead of silently listing no one', async () => {
    const { PatientFilters } = await import('../../src/features/patients/PatientFilters');
    const { defaultFilters } = await import('../../src/features/patient-admin/logic/listFilters');
    const reversed = render(<PatientFilters value={{ ...defaultFilters, minAge: '70', maxAge: '30' }} onChange={() => undefined} />);
    expect(reversed).toContain('data-testid="filter-age-reversed"');
    expect(reversed).toContain('is greater than');
    for (const ok of [{ minAge: '30', maxAge: '70' }, { minAge: '70', maxAge: '' }, { minAge: '30', maxAge: '30' }]) {
      expect(render(<PatientFilters value={{ ...defaultFilters, ...ok }} onChange={() => undefined} />)).not.toContain('filter-age-reversed');
    }
  });
});
