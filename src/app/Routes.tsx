import { useSnapshot } from 'valtio';
import { Route, Switch, useLocation, useSearch } from 'wouter';
import { ForgotPasswordPage } from '../features/auth/ForgotPasswordPage';
import { SignInPage } from '../features/auth/SignInPage';
import { SignupPage } from '../features/auth/SignupPage';
import { AppShell } from '../features/shell/AppShell';
import { decideRoute, isAppPath, isPublicAppPage } from '../features/shell/guard';
import { NotFound } from '../features/shell/NotFound';
import { PublicLayout } from '../features/static/PublicLayout';
import { StaticRoutes } from '../features/static/StaticRoutes';
import { PATHS } from '../routes';
import { capabilitiesOf } from '../state/roles';
import { session } from '../state/session';
import { AppRoutes } from './AppRoutes';
import { GuardRedirect } from './GuardRedirect';

/** Top-level routing: the guard decides first, then the signed-out pages or the shell. */
export function Routes() {
  const [path] = useLocation();
  const search = useSearch();
  const snap = useSnapshot(session);
  const caps = capabilitiesOf(snap.user_details);
  const signedIn = snap.is_authenticated && snap.is_authorized;
  const decision = decideRoute(path, search, {
    authenticated: snap.is_authenticated,
    authorized: snap.is_authorized,
    caps,
  });

  if (decision.kind === 'redirect') return <GuardRedirect to={decision.to} remember={decision.remember} />;

  if (isAppPath(path) && signedIn) {
    return (
      <AppShell>
        <AppRoutes caps={caps} />
      </AppShell>
    );
  }

  return (
    <Switch>
      <Route path={PATHS.signIn} component={SignInPage} />
      <Route path={PATHS.signInTop} component={SignInPage} />
      <Route path={PATHS.signUp} component={SignupPage} />
      <Route path={PATHS.forgotPassword} component={ForgotPasswordPage} />
      <Route>
        <PublicLayout>
          {isPublicAppPage(path) ? <StaticRoutes fallback={<NotFound />} /> : <NotFound />}
        </PublicLayout>
      </Route>
    </Switch>
  );
}
