import { Route, Switch } from 'wouter';
import { DashboardPage } from '../features/dashboard/DashboardPage';
import { PatientsPage } from '../features/patients/PatientsPage';
import { PlaceholderPage } from '../features/placeholders/PlaceholderPage';
import { NotFound } from '../features/shell/NotFound';
import { StaticRoutes } from '../features/static/StaticRoutes';
import { PATHS } from '../routes';
import type { Capabilities } from '../state/roles';

/** The pages inside the shell. A route a role may not open is simply absent: it 404s. */
export function AppRoutes({ caps }: { caps: Capabilities }) {
  return (
    <Switch>
      <Route path={PATHS.dashboard} component={DashboardPage} />
      <Route path={PATHS.dashboardAlias} component={DashboardPage} />
      <Route path={PATHS.patients} component={PatientsPage} />
      <Route path={PATHS.realtime}>
        <PlaceholderPage id="realtime" />
      </Route>
      <Route path={PATHS.deviceConfig}>
        <PlaceholderPage id="deviceConfig" />
      </Route>
      <Route path={PATHS.dataCenter}>
        <PlaceholderPage id="dataCenter" />
      </Route>
      {caps.addPatient && (
        <Route path={PATHS.newPatient}>
          <PlaceholderPage id="addPatient" />
        </Route>
      )}
      {caps.addPatient && (
        <Route path={PATHS.addPatient}>
          <PlaceholderPage id="addPatient" />
        </Route>
      )}
      <Route>
        <StaticRoutes fallback={<NotFound />} />
      </Route>
    </Switch>
  );
}
