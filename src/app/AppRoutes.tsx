import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Route, Switch } from 'wouter';
import { NightPage } from '../features/review/NightPage';
import { NotFound } from '../features/shell/NotFound';
import { StaticRoutes } from '../features/static/StaticRoutes';
import { ADMIN_REQUESTS_PATH, ADMIN_SIGNUPS_PATH, ADMIN_TRAIL_PATH, EDIT_PATIENT_PATTERN, PATHS, PATIENT_DETAIL_PATTERN, VIEW_PATIENT_INFO_PATTERN } from '../routes';
import type { Capabilities } from '../state/roles';
import { Alert } from '../ui/Alert';

// Every screen but the single-night one is its own chunk, fetched when first opened: a
// reload of a night evaluates the shell and that screen only (issue 14 point 7).
const DashboardPage = lazy(() => import('../features/dashboard/DashboardPage').then((m) => ({ default: m.DashboardPage })));
const AccessTrailPage = lazy(() => import('../features/admin/AccessTrailPage').then((m) => ({ default: m.AccessTrailPage })));
const BenchPage = lazy(() => import('../features/bench/BenchPage').then((m) => ({ default: m.BenchPage })));
const PatientsPage = lazy(() => import('../features/patients/PatientsPage').then((m) => ({ default: m.PatientsPage })));
const AddPatientWizard = lazy(() => import('../features/patient-admin/AddPatientWizard').then((m) => ({ default: m.AddPatientWizard })));
const EditPatientPage = lazy(() => import('../features/patient-admin/edit/EditPatientPage').then((m) => ({ default: m.EditPatientPage })));
const ViewPatientInfoPage = lazy(() => import('../features/patient-admin/edit/ViewPatientInfoPage').then((m) => ({ default: m.ViewPatientInfoPage })));
const DataCenterPage = lazy(() => import('../features/datacenter/DataCenterPage').then((m) => ({ default: m.DataCenterPage })));
const DeployRequestsPage = lazy(() => import('../features/admin/DeployRequestsPage').then((m) => ({ default: m.DeployRequestsPage })));
const ReportsPage = lazy(() => import('../features/reports/ReportsPage').then((m) => ({ default: m.ReportsPage })));
const ScoringPage = lazy(() => import('../features/scoring/ScoringPage').then((m) => ({ default: m.ScoringPage })));
const SamplePatientsPage = lazy(() => import('../features/samples/SamplePatientsPage').then((m) => ({ default: m.SamplePatientsPage })));
const SettingsPage = lazy(() => import('../features/practice/SettingsPage').then((m) => ({ default: m.SettingsPage })));
const CalendarPage = lazy(() => import('../features/practice/CalendarPage').then((m) => ({ default: m.CalendarPage })));
const AppointmentsPage = lazy(() => import('../features/practice/AppointmentsPage').then((m) => ({ default: m.AppointmentsPage })));
const BillingPage = lazy(() => import('../features/practice/BillingPage').then((m) => ({ default: m.BillingPage })));
const SignupsPage = lazy(() => import('../features/admin/SignupsPage').then((m) => ({ default: m.SignupsPage })));
const RealTimePage = lazy(() => import('../features/live/RealTimePage').then((m) => ({ default: m.RealTimePage })));
const RealtimeDashboardPage = lazy(() => import('../features/live/RealtimeDashboardPage').then((m) => ({ default: m.RealtimeDashboardPage })));
const DeviceConfigPage = lazy(() => import('../features/live/DeviceConfigPage').then((m) => ({ default: m.DeviceConfigPage })));

/** The pages inside the shell. A route a role may not open is simply absent: it 404s. */
export function AppRoutes({ caps }: { caps: Capabilities }) {
  const { t } = useTranslation();
  return (
    <Suspense fallback={<p className="muted loading" role="status">{t('common.loading')}</p>}>
    <Switch>
      <Route path={PATHS.dashboard} component={DashboardPage} />
      <Route path={PATHS.dashboardAlias} component={DashboardPage} />
      <Route path={PATHS.patients} component={PatientsPage} />
      {/* An admin has no patients: a patient's link says whose screen it is, not "not found … deleted". */}
      {caps.admin && <Route path={PATIENT_DETAIL_PATTERN}>{() => <Alert tone="info" testId="patient-not-for-admins">{t('patientAdmin.detailNotForAdmins')}</Alert>}</Route>}
      <Route path={PATIENT_DETAIL_PATTERN}>{(params) => <NightPage patientId={Number(params.id)} />}</Route>
      <Route path={PATHS.bench} component={BenchPage} />
      {caps.realtime && <Route path={PATHS.deviceTesting} component={RealTimePage} />}
      {caps.realtime && <Route path={PATHS.realtime} component={RealtimeDashboardPage} />}
      {caps.deviceConfig && <Route path={PATHS.deviceConfig} component={DeviceConfigPage} />}
      <Route path={PATHS.dataCenter} component={DataCenterPage} />
      {caps.reports && <Route path={PATHS.reports} component={ReportsPage} />}
      {caps.samplePatients && <Route path={PATHS.samplePatients} component={SamplePatientsPage} />}
      {caps.scoring && <Route path={PATHS.scoring} component={ScoringPage} />}
      {caps.calendar && <Route path={PATHS.calendar} component={CalendarPage} />}
      {caps.appointments && <Route path={PATHS.appointments} component={AppointmentsPage} />}
      {caps.settings && <Route path={PATHS.settings} component={SettingsPage} />}
      {caps.billing && <Route path={PATHS.billing} component={BillingPage} />}
      <Route path={EDIT_PATIENT_PATTERN}>{(params) => <EditPatientPage key={params.id} patientId={Number(params.id)} />}</Route>
      <Route path={VIEW_PATIENT_INFO_PATTERN}>{(params) => <ViewPatientInfoPage key={params.id} patientId={Number(params.id)} />}</Route>
      <Route path={ADMIN_REQUESTS_PATH} component={DeployRequestsPage} />
      {caps.admin ? (
        <Route path={ADMIN_SIGNUPS_PATH} component={SignupsPage} />
      ) : (
        // Like /app/admin/requests: a physician who opens it is told whose screen it is.
        <Route path={ADMIN_SIGNUPS_PATH}>{() => <Alert tone="info" testId="signups-admins-only">{t('admin.signups.onlyAdmins')}</Alert>}</Route>
      )}
      {caps.admin ? (
        <Route path={ADMIN_TRAIL_PATH} component={AccessTrailPage} />
      ) : (
        <Route path={ADMIN_TRAIL_PATH}>{() => <Alert tone="info" testId="trail-admins-only">{t('admin.trail.onlyAdmins')}</Alert>}</Route>
      )}
      {caps.addPatient && <Route path={PATHS.newPatient} component={AddPatientWizard} />}
      {caps.addPatient && <Route path={PATHS.addPatient} component={AddPatientWizard} />}
      {/* An admin has no patients to add: refused before the first step, not at Confirm. */}
      {caps.admin && <Route path={PATHS.newPatient}>{() => <Alert tone="info" testId="wizard-not-for-admins">{t('patientAdmin.wizard.notForAdmins')}</Alert>}</Route>}
      {caps.admin && <Route path={PATHS.addPatient}>{() => <Alert tone="info" testId="wizard-not-for-admins">{t('patientAdmin.wizard.notForAdmins')}</Alert>}</Route>}
      <Route>
        <StaticRoutes fallback={<NotFound />} />
      </Route>
    </Switch>
    </Suspense>
  );
}
