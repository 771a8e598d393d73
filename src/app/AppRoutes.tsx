import { Route, Switch } from 'wouter';
import { DashboardPage } from '../features/dashboard/DashboardPage';
import { BenchPage } from '../features/bench/BenchPage';
import { NightPage } from '../features/night/NightPage';
import { PatientsPage } from '../features/patients/PatientsPage';
import { AddPatientWizard } from '../features/patient-admin/AddPatientWizard';
import { EditPatientPage } from '../features/patient-admin/edit/EditPatientPage';
import { ViewPatientInfoPage } from '../features/patient-admin/edit/ViewPatientInfoPage';
import { DataCenterPage } from '../features/datacenter/DataCenterPage';
import { DeployRequestsPage } from '../features/admin/DeployRequestsPage';
import { RealTimePage } from '../features/live/RealTimePage';
import { RealtimeDashboardPage } from '../features/live/RealtimeDashboardPage';
import { DeviceConfigPage } from '../features/live/DeviceConfigPage';
import { NotFound } from '../features/shell/NotFound';
import { StaticRoutes } from '../features/static/StaticRoutes';
import { ADMIN_REQUESTS_PATH, EDIT_PATIENT_PATTERN, PATHS, PATIENT_DETAIL_PATTERN, VIEW_PATIENT_INFO_PATTERN } from '../routes';
import type { Capabilities } from '../state/roles';

/** The pages inside the shell. A route a role may not open is simply absent: it 404s. */
export function AppRoutes({ caps }: { caps: Capabilities }) {
  return (
    <Switch>
      <Route path={PATHS.dashboard} component={DashboardPage} />
      <Route path={PATHS.dashboardAlias} component={DashboardPage} />
      <Route path={PATHS.patients} component={PatientsPage} />
      <Route path={PATIENT_DETAIL_PATTERN}>{(params) => <NightPage patientId={Number(params.id)} />}</Route>
      <Route path={PATHS.bench} component={BenchPage} />
      {caps.realtime && <Route path={PATHS.deviceTesting} component={RealTimePage} />}
      {caps.realtime && <Route path={PATHS.realtime} component={RealtimeDashboardPage} />}
      {caps.deviceConfig && <Route path={PATHS.deviceConfig} component={DeviceConfigPage} />}
      <Route path={PATHS.dataCenter} component={DataCenterPage} />
      <Route path={EDIT_PATIENT_PATTERN}>{(params) => <EditPatientPage key={params.id} patientId={Number(params.id)} />}</Route>
      <Route path={VIEW_PATIENT_INFO_PATTERN}>{(params) => <ViewPatientInfoPage key={params.id} patientId={Number(params.id)} />}</Route>
      <Route path={ADMIN_REQUESTS_PATH} component={DeployRequestsPage} />
      {caps.addPatient && <Route path={PATHS.newPatient} component={AddPatientWizard} />}
      {caps.addPatient && <Route path={PATHS.addPatient} component={AddPatientWizard} />}
      <Route>
        <StaticRoutes fallback={<NotFound />} />
      </Route>
    </Switch>
  );
}
